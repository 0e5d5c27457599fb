//go:build !linux

package output

import (
	"io/fs"
	"os"
)

// statOf extracts what the stat cache compares from fi. Outside Linux the
// inode and change time are not read; size, mtime and mode must do.
func statOf(fi fs.FileInfo) fileStat {
	return fileStat{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: uint32(fi.Mode())}
}

// dirID is what tells one directory from another: its stat, compared
// with os.SameFile.
type dirID struct{ fi fs.FileInfo }

// dirIDOf is the identity of the directory fi describes.
func dirIDOf(fi fs.FileInfo) dirID { return dirID{fi} }

func (a dirID) is(b dirID) bool { return os.SameFile(a.fi, b.fi) }

// ownerOf returns the user and group owning fi; outside Linux they are not
// read.
func ownerOf(fs.FileInfo) (Owner, bool) { return Owner{}, false }
