//go:build !linux

package confined

import "io/fs"

// StatOf extracts an Info from fi. Outside Linux the inode, change time
// and owner are not read; size, mtime and mode must do.
func StatOf(fi fs.FileInfo) Info {
	return Info{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Mode: fi.Mode()}
}
