package output

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Input limits. A manifest or an included file larger than this is refused
// before it is parsed: discovery files are small, and a limit keeps a
// mistaken path (a log file, /dev/zero) from exhausting memory.
const (
	MaxManifestSize = 4 << 20 // a root or tenant manifest
	MaxSourceSize   = 1 << 20 // a file named by a manifest's "source"
)

// TooLargeError reports a file over its size limit.
type TooLargeError struct {
	Path string
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: file is larger than the limit of %s", e.Path, formatSize(e.Max))
}

func formatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFileLimited reads the file at path, refusing with a *TooLargeError a
// file of more than max bytes. The limit holds for files whose size is not
// known in advance (pipes, /dev/zero, a file still growing): at most max+1
// bytes are ever read. Errors opening the file are returned as os.ReadFile
// returns them, so errors.Is(err, fs.ErrNotExist) works.
func ReadFileLimited(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, not a file", path)
	}
	if fi.Mode().IsRegular() && fi.Size() > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	var b bytes.Buffer
	if fi.Mode().IsRegular() {
		b.Grow(int(fi.Size()) + 1)
	}
	if _, err := b.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(b.Len()) > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	return b.Bytes(), nil
}
