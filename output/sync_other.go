//go:build !linux

package output

import (
	"errors"
	"os"
)

// flushFS makes the entries of the root directories locks and of the
// directories dirs durable, one fsync each; the files in them were synced
// as written. ApplyAll gives no dirs: it syncs the directories below the
// roots one at a time after it (Changes.syncTouched), so as not to hold
// them all open.
func flushFS(locks []*os.File, dirs []*os.Root) error {
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

// syncDirs: each touched directory is fsynced.
const syncDirs = true

// reopenDir is not needed outside Linux, where no journal waits for a
// later flush.
func reopenDir(f *os.File) (*os.File, error) { return nil, errors.ErrUnsupported }

// sync flushes the directory's entries.
func (w wdir) sync() error {
	f, err := w.r.Open(".")
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
