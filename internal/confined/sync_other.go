//go:build !linux

package confined

import (
	"errors"
	"os"
)

// FlushFS makes the entries of the root directories locks and of the
// directories dirs durable, one fsync each; the files in them were synced
// as written. ApplyAll gives no dirs: it syncs the directories below the
// roots one at a time after it (WriteDir.Sync), so as not to hold them
// all open.
func FlushFS(locks []*os.File, dirs []*os.Root) error {
	for _, l := range locks {
		if err := l.Sync(); err != nil {
			return err
		}
	}
	for _, d := range dirs {
		f, err := d.Open(".")
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// SyncDirs: each touched directory is fsynced.
const SyncDirs = true

// ReopenDir is not needed outside Linux, where no journal waits for a
// later flush.
func ReopenDir(f *os.File) (*os.File, error) { return nil, errors.ErrUnsupported }

// Sync flushes the directory's entries.
func (w WriteDir) Sync() error { return syncClose(w.r.Open(".")) }

// syncClose flushes and closes f, just opened with err.
func syncClose(f *os.File, err error) error {
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
