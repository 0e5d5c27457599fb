package adopt

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/robots"
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

// Cost is about the most memory an import of the robots.txt data holds at
// once, for a caller to compare with what the host's limits leave
// (hostlimits.Limits.Fit) before it imports: robots.Cost's parse, and
// some 1,000 bytes more for each line that may be a rule or a User-agent
// line (its first octet a, d or u, as every spelling Google reads
// begins), up to robots.MaxLines: the import holds it again in the
// manifest's YAML (200,000 rules, 3.7 MB, took 184 MB, and died in one run of two under 1 GiB). Other lines it
// holds no more than the parse does, and its warnings are bounded.
func Cost(data []byte) int64 {
	n := 0
	for line := range bytes.Lines(data) {
		line = bytes.TrimLeft(line, " \t")
		if len(line) > 0 {
			switch line[0] | 0x20 {
			case 'a', 'd', 'u':
				n++
			}
		}
	}
	return robots.Cost(data, robots.MaxLines) + 1000*int64(min(n, robots.MaxLines))
}
