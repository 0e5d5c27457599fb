package adopt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/discgen/discgen/internal/limited"
)

// MaxFile bounds every file import reads: a robots.txt, a file of a built
// tree, a fetched response.
const MaxFile = 4 << 20

// openRegular opens name for reading without blocking (a FIFO would wait
// for a writer) and refuses anything but a regular file of at most max
// bytes, checked on the open file so that nothing can be swapped in
// between. open is os.OpenFile or an os.Root's OpenFile.
func openRegular(open func(string, int, fs.FileMode) (*os.File, error), name string, max int64) ([]byte, error) {
	f, err := open(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, errors.New("is a directory, not a file")
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("is not a regular file (%v)", fi.Mode().Type())
	case fi.Size() > max:
		return nil, &limited.TooLargeError{Max: max}
	}
	return limited.Read(f, max)
}

// ReadFile reads a regular file of at most MaxFile bytes.
func ReadFile(name string) ([]byte, error) {
	data, err := openRegular(os.OpenFile, name, MaxFile)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return data, err
}
