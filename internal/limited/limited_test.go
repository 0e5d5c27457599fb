package limited

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
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

// readSoon runs read and fails the test if it does not return within a
// few seconds: a FIFO opened for reading without O_NONBLOCK waits for a
// writer forever.
func readSoon(t *testing.T, what string, read func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still blocked after 5s", what)
		return nil
	}
}

func TestReadFileRefusesFIFOWithoutBlocking(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	testenv.Mkfifo(t, fifo)
	err := readSoon(t, "ReadFile(fifo)", func() error { _, err := ReadFile(fifo, 100); return err })
	var nr *NotRegularError
	if !errors.As(err, &nr) || !strings.Contains(err.Error(), "FIFO") {
		t.Errorf("FIFO: %v, want a NotRegularError naming a FIFO", err)
	}
	root, err := os.OpenRoot(filepath.Dir(fifo))
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	err = readSoon(t, "ReadRootFile(fifo)", func() error { _, err := ReadRootFile(root, "fifo", 100); return err })
	if !errors.As(err, &nr) {
		t.Errorf("FIFO through a root: %v, want a NotRegularError", err)
	}
}

func TestReadFileRefusesDevicesSocketsDirectories(t *testing.T) {
	dir := t.TempDir()
	var nr *NotRegularError
	if _, err := ReadFile(dir, 10); !errors.As(err, &nr) || err.Error() != "is a directory, not a file" {
		t.Errorf("directory: %v", err)
	}
	for _, dev := range []string{"/dev/null", "/dev/zero"} {
		if _, err := os.Stat(dev); err != nil {
			continue
		}
		if _, err := ReadFile(dev, 1<<10); !errors.As(err, &nr) || !strings.Contains(err.Error(), "device") {
			t.Errorf("%s: %v, want a NotRegularError naming a device", dev, err)
		}
	}
	sock := filepath.Join(dir, "s")
	testenv.ListenUnix(t, sock)
	if _, err := ReadFile(sock, 10); !errors.As(err, &nr) && !strings.Contains(fmt.Sprint(err), "no such device") {
		t.Errorf("socket: %v, want it refused", err)
	}
}

func TestOpenRegularNoFollowRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	link := filepath.Join(dir, "link")
	if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenRegular(link, false); err != nil {
		t.Errorf("following: %v", err)
	} else {
		f.Close()
	}
	if f, err := OpenRegular(link, true); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("not following: %v, want a symbolic link refused", err)
		if f != nil {
			f.Close()
		}
	}
}

func TestReadRootFileStaysInside(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("token"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(outside, "site")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "in"), []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if b, err := ReadRootFile(root, "in", 10); err != nil || string(b) != "ok" {
		t.Errorf("inside: %q, %v", b, err)
	}
	for _, name := range []string{"out", "../secret", secret, "/etc/passwd"} {
		if b, err := ReadRootFile(root, name, 10); err == nil {
			t.Errorf("%s: read %q, want it refused", name, b)
		}
	}
}

// TestRootFSOpensFIFOWithoutBlocking: a FIFO opened through RootFS returns
// at once, and its Stat says what it is, so a reader can refuse it.
func TestRootFSOpensFIFOWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	testenv.Mkfifo(t, filepath.Join(dir, "fifo"))
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	fsys := RootFS(root)
	err = readSoon(t, "RootFS.Open(fifo)", func() error {
		f, err := fsys.Open("fifo")
		if err != nil {
			return err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err == nil && fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("Stat mode %v, want a named pipe", fi.Mode())
		}
		return err
	})
	if err != nil {
		t.Errorf("open: %v", err)
	}
	if _, err := fsys.Open("../x"); err == nil {
		t.Error("RootFS opened ../x")
	}
}

// A regular file's size is only a hint: one that grew or shrank since
// its stat is read as it is, within max.
func TestReadHint(t *testing.T) {
	data := strings.Repeat("x", 100)
	for _, c := range []struct {
		size, max int64
		want      int
		tooLarge  bool
	}{
		{100, 1000, 100, false}, // as stat'ed
		{50, 1000, 100, false},  // grew
		{200, 1000, 100, false}, // shrank
		{50, 80, 0, true},       // grew past max
		{100, 100, 100, false},  // exactly max
		{0, 1000, 100, false},   // no hint
		{0, 99, 0, true},
	} {
		got, err := readHint(strings.NewReader(data), c.max, c.size)
		var tl *TooLargeError
		if c.tooLarge != errors.As(err, &tl) || !c.tooLarge && (err != nil || len(got) != c.want) {
			t.Errorf("size %d, max %d: %d bytes, %v; want %d, too large %v", c.size, c.max, len(got), err, c.want, c.tooLarge)
		}
	}
}
