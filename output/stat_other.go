//go:build !linux

package output

import "io/fs"

// statOf extracts what the stat cache compares from fi. Outside Linux the
// inode and change time are not read; size, mtime and mode must do.
func statOf(fi fs.FileInfo) fileStat {
	return fileStat{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: uint32(fi.Mode())}
}

// ownerOf returns the user and group owning fi; outside Linux they are not
// read.
func ownerOf(fs.FileInfo) (Owner, bool) { return Owner{}, false }
