package generate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/discgen/discgen/internal/limited"
)

// MaxKeyBytes bounds a key_file: an armored RSA 4096 private key is about
// 7 KiB.
const MaxKeyBytes = 256 << 10

// manifestDir reads files a manifest names (source, key_file) through an
// os.Root at the manifest's directory, so no "..", absolute path or
// symbolic link leads a read outside it (design section 6). Only regular
// files are read, and opening cannot wait on a FIFO.
type manifestDir struct {
	dir  string
	root *os.Root
	err  error
}

func (m *manifestDir) close() {
	if m.root != nil {
		m.root.Close()
	}
}

// read reads the manifest-relative path name, of at most max bytes.
func (m *manifestDir) read(name string, max int64) ([]byte, error) {
	if filepath.IsAbs(name) || strings.HasPrefix(name, "/") {
		return nil, errors.New("is an absolute path; give a path relative to the manifest, inside its directory")
	}
	if m.root == nil && m.err == nil {
		dir := m.dir
		if dir == "" {
			dir = "."
		}
		m.root, m.err = os.OpenRoot(dir)
	}
	if m.err != nil {
		return nil, fmt.Errorf("cannot open the manifest's directory: %v", unwrapPath(m.err))
	}
	data, err := limited.ReadRootFile(m.root, filepath.FromSlash(name), max)
	if err != nil && isEscape(err) {
		return nil, errors.New("leads outside the manifest's directory (through \"..\" or a symbolic link); files a manifest reads must be inside it")
	}
	return data, err
}

// isEscape reports the error os.Root gives for a path that leaves it.
func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
