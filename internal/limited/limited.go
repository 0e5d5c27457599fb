// Package limited reads inputs with a size limit: manifests, the files
// they include, hand-written files given to lint and check, and the files
// of a built tree. A file over its limit is refused before it is parsed, and
// at most limit+1 bytes are ever read, so a mistaken path (a log, a pipe,
// /dev/zero) cannot exhaust memory.
//
// Errors carry the reason only, never the path: every caller reports them
// at the file's own position, which already names it. Errors from the
// operating system are wrapped, so errors.Is(err, fs.ErrNotExist) works.
package limited

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// TooLargeError is a file over its limit.
type TooLargeError struct{ Max int64 }

func (e *TooLargeError) Error() string {
	return "larger than the limit of " + Size(e.Max)
}

// Read reads r to its end, refusing more than max bytes.
func Read(r io.Reader, max int64) ([]byte, error) {
	var b bytes.Buffer
	if _, err := b.ReadFrom(io.LimitReader(r, max+1)); err != nil {
		return nil, reason(err)
	}
	if int64(b.Len()) > max {
		return nil, &TooLargeError{Max: max}
	}
	return b.Bytes(), nil
}

// ReadFile reads the file at path, refusing a directory and a file of more
// than max bytes. A regular file's size is checked before it is read.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, reason(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, reason(err)
	case fi.IsDir():
		return nil, errors.New("is a directory, not a file")
	case fi.Mode().IsRegular() && fi.Size() > max:
		return nil, &TooLargeError{Max: max}
	}
	return Read(f, max)
}

// reason drops the operation and path an *fs.PathError repeats, keeping
// the error itself for errors.Is.
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Size writes a byte count as people read limits: 4 MiB, 500 KiB, 100 bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
