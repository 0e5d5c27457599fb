//go:build !linux

package output

import "os"

// startWriteback flushes f: without a way to start writeback alone, each
// file is synced before it is published.
func startWriteback(f *os.File) error { return f.Sync() }

// flushFS makes the entries of the root directories locks and of the
// directories dirs durable, one fsync each; the files in them were synced
// by startWriteback.
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
