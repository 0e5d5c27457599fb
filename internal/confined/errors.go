package confined

import (
	"errors"
	"io/fs"
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
