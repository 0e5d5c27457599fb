package publish

import (
	"io/fs"
	"os"
)

// dirH is a directory the walk holds open: a raw descriptor, wrapped in an
// *os.File (which costs an fcntl to open) only when it is listed. Most
// directories of a walk are opened for one literal component and never
// listed. Close it exactly once.
type dirH struct {
	fd   int
	name string
	f    *os.File // set once the directory is listed; it then owns fd
}

// readDir lists up to n more entries.
func (d *dirH) readDir(n int) ([]fs.DirEntry, error) {
	if d.f == nil {
		d.f = os.NewFile(uintptr(d.fd), d.name)
	}
	return d.f.ReadDir(n)
}

// Close closes the directory.
func (d *dirH) Close() error {
	if d.f != nil {
		return d.f.Close()
	}
	return closeFD(d.fd)
}
