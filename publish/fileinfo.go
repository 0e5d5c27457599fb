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

// typeName names a file type in messages.
func typeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "special file"
}

// is reports whether f and g describe the same file.
func (f fileInfo) is(g fileInfo) bool {
	return f.ino != 0 && f.dev == g.dev && f.ino == g.ino
}
