//go:build linux

package confined

import (
	"io/fs"
	"syscall"
)

// StatOf extracts an Info from fi.
func StatOf(fi fs.FileInfo) Info {
	s := Info{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Mode: fi.Mode()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Ino, s.Dev = uint64(st.Ino), uint64(st.Dev)
		s.Ctime = int64(st.Ctim.Sec)*1e9 + int64(st.Ctim.Nsec)
		s.UID, s.GID = int(st.Uid), int(st.Gid)
	}
	return s
}

// dirID is what tells one directory from another: its device and inode.
type dirID struct{ dev, ino uint64 }

// dirIDOf is the identity of the directory fi describes.
func dirIDOf(fi fs.FileInfo) dirID {
	s := StatOf(fi)
	return dirID{dev: s.Dev, ino: s.Ino}
}

func (a dirID) is(b dirID) bool { return a == b }

// Owner returns the user and group owning the file, when known.
func (f Info) Owner() (Owner, bool) { return Owner{UID: f.UID, GID: f.GID}, true }
