package publish

import "io/fs"

// fileInfo is what discovery and the no-change check need of a file.
type fileInfo struct {
	mode     fs.FileMode
	size     int64
	mtime    int64 // nanoseconds
	ctime    int64
	dev, ino uint64
	uid, gid int
}

// is reports whether f and g describe the same file.
func (f fileInfo) is(g fileInfo) bool {
	return f.ino != 0 && f.dev == g.dev && f.ino == g.ino
}
