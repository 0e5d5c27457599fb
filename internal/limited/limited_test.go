package limited

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(name, 100); err != nil || len(b) != 100 {
		t.Errorf("at the limit: %d bytes, %v", len(b), err)
	}
	var tl *TooLargeError
	if _, err := ReadFile(name, 99); !errors.As(err, &tl) || err.Error() != "larger than the limit of 99 bytes" {
		t.Errorf("over the limit: %v", err)
	}
	_, err := ReadFile(filepath.Join(dir, "missing"), 10)
	if !errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), dir) {
		t.Errorf("missing file: %v (want ErrNotExist, without the path)", err)
	}
	if _, err := ReadFile(dir, 10); err == nil || err.Error() != "is a directory, not a file" {
		t.Errorf("directory: %v", err)
	}
	// A file of unknown size is cut at the limit, not read to its end.
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := ReadFile("/dev/zero", 1<<10); !errors.As(err, &tl) {
			t.Errorf("/dev/zero: %v", err)
		}
	}
}

func TestRead(t *testing.T) {
	if b, err := Read(strings.NewReader("abc"), 3); err != nil || string(b) != "abc" {
		t.Errorf("Read at the limit = %q, %v", b, err)
	}
	var tl *TooLargeError
	if _, err := Read(strings.NewReader("abcd"), 3); !errors.As(err, &tl) || tl.Max != 3 {
		t.Errorf("Read over the limit: %v", err)
	}
}

func TestSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{4 << 20, "4 MiB"}, {500 << 10, "500 KiB"}, {1536, "1536 bytes"}, {100, "100 bytes"}, {1<<20 + 1, "1048577 bytes"}} {
		if got := Size(c.n); got != c.want {
			t.Errorf("Size(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
