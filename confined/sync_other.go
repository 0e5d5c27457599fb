//go:build !linux

package confined

import (
	"errors"
	"os"
)

// FlushFS makes the entries of the root directories locks and of the
// directories dirs durable, one fsync each; the files in them were synced
// as written.
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
