//go:build !linux

package statedir

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/discgen/discgen/internal/confined"
)

// WriteFile writes data to the state file tmp (an OS path), flushing it
// with sync, renames it to name when they differ, and with wantStat
// returns the stat of what is left on disk.
func WriteFile(tmp, name string, data []byte, sync, wantStat bool) (confined.Info, error) {
	if tmp != name {
		os.Remove(tmp) // never written through
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return confined.Info{}, err
	}
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && tmp != name {
		// Not os.Rename, which stats the target first.
		err = syscall.Rename(tmp, name)
	}
	var fi fs.FileInfo
	if err == nil && wantStat {
		// A rename changes the change time: stat what is left.
		fi, err = os.Lstat(name)
	}
	if err != nil || fi == nil {
		return confined.Info{}, err
	}
	return confined.StatOf(fi), nil
}

// ReadFile reads a regular file of a state directory whole, returning its
// stat taken on the open descriptor. A state directory is the operator's,
// not the published tree's, so it is opened by path.
func ReadFile(name string, limit int64) ([]byte, confined.Info, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, confined.Info{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, confined.Info{}, err
	}
	if !fi.Mode().IsRegular() {
		return nil, confined.Info{}, fmt.Errorf("%s: not a regular file", name)
	}
	if fi.Size() > limit {
		return nil, confined.Info{}, fmt.Errorf("%s: larger than %d bytes", name, limit)
	}
	data := make([]byte, fi.Size())
	n, err := io.ReadFull(f, data)
	if err == io.ErrUnexpectedEOF {
		err = nil
	}
	return data[:n], confined.StatOf(fi), err
}

// SyncDir flushes the directory at the OS path dir.
func SyncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
