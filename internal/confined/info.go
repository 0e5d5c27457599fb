package confined

import "io/fs"

// Info is what discgen needs of a file's stat: to classify it, to tell
// one file from another, and to tell a file that changed since it was
// seen (as make, ninja and git's index do).
type Info struct {
	Mode         fs.FileMode
	Size         int64
	Mtime, Ctime int64 // nanoseconds
	Dev, Ino     uint64
	UID, GID     int
}

// Is reports whether f and g describe the same file: the same device and
// inode.
func (f Info) Is(g Info) bool {
	return f.Ino != 0 && f.Dev == g.Dev && f.Ino == g.Ino
}

// Same reports whether f and g describe a file that did not change
// between them: the same size, times, inode and mode. The device is not
// compared (a stat cache does not keep it).
func (f Info) Same(g Info) bool {
	return f.Size == g.Size && f.Mtime == g.Mtime && f.Ctime == g.Ctime && f.Ino == g.Ino && f.Mode == g.Mode
}
