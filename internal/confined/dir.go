package confined

import (
	"io/fs"
	"os"
)

// Dir is a directory held open on a raw descriptor, reached from the one
// OpenTop opened one component at a time, never through a symlink. It is
// wrapped in an *os.File (which costs an fcntl to open) only when it is
// listed: most directories of a walk are opened for one literal component
// and never listed. Close it exactly once.
type Dir struct {
	fd   int
	name string
	f    *os.File // set once the directory is listed; it then owns fd
}

// ReadDir lists up to n more entries.
func (d *Dir) ReadDir(n int) ([]fs.DirEntry, error) {
	if d.f == nil {
		d.f = os.NewFile(uintptr(d.fd), d.name)
	}
	return d.f.ReadDir(n)
}

// Take hands the directory to a new owner: d's Close then does nothing.
// The walk gives a tenant's job the directory holding its manifest this
// way, since it has no further use for it, rather than a duplicate.
func (d *Dir) Take() *Dir {
	n := *d
	d.fd, d.f = -1, nil
	return &n
}

// Close closes the directory, unless it was taken.
func (d *Dir) Close() error {
	if d.fd < 0 {
		return nil
	}
	if d.f != nil {
		return d.f.Close()
	}
	return closeFD(d.fd)
}
