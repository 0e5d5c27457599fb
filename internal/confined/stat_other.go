//go:build !linux

package confined

import (
	"io/fs"
	"os"
)

// StatOf extracts an Info from fi. Outside Linux the inode, change time
// and owner are not read; size, mtime and mode must do.
func StatOf(fi fs.FileInfo) Info {
	return Info{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Mode: fi.Mode()}
}

// dirID is what tells one directory from another: its stat, compared
// with os.SameFile.
type dirID struct{ fi fs.FileInfo }

// dirIDOf is the identity of the directory fi describes.
func dirIDOf(fi fs.FileInfo) dirID { return dirID{fi} }

func (a dirID) is(b dirID) bool { return os.SameFile(a.fi, b.fi) }

// Owner returns the user and group owning the file; outside Linux they
// are not read.
func (f Info) Owner() (Owner, bool) { return Owner{}, false }
