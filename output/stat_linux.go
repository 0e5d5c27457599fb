//go:build linux

package output

import (
	"io/fs"
	"syscall"
)

// statOf extracts what the stat cache compares from fi.
func statOf(fi fs.FileInfo) fileStat {
	s := fileStat{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: uint32(fi.Mode())}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ino, s.dev = uint64(st.Ino), uint64(st.Dev)
		s.ctime = int64(st.Ctim.Sec)*1e9 + int64(st.Ctim.Nsec)
	}
	return s
}

// dirID is what tells one directory from another: its device and inode.
type dirID struct{ dev, ino uint64 }

// dirIDOf is the identity of the directory fi describes.
func dirIDOf(fi fs.FileInfo) dirID {
	s := statOf(fi)
	return dirID{dev: s.dev, ino: s.ino}
}

func (a dirID) is(b dirID) bool { return a == b }

// ownerOf returns the user and group owning fi, when known.
func ownerOf(fi fs.FileInfo) (Owner, bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return Owner{UID: int(st.Uid), GID: int(st.Gid)}, true
	}
	return Owner{}, false
}
