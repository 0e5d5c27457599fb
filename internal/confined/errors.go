package confined

import (
	"errors"
	"io/fs"
	"os"
)

// UnwrapPath drops the operation and relative name of a *fs.PathError,
// whose path names something relative to a directory handle and would
// read as a bare "openat autodisc"; the caller names the file instead.
func UnwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

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
