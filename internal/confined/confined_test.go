package confined

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/internal/testing/testfs"
)

// mustWrite writes a fixture's files.
var mustWrite = testfs.Write

// Nothing is read past a limit: a file larger than the limit is not read
// at all (Root.ReadFile) or read to one byte more than the limit, which
// tells the caller it is larger (Dir.ReadFile). statedir's TestReadLimits
// does the same for the state directory's reads.
func TestReadLimits(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "big"), strings.Repeat("x", 100))
	mustWrite(t, filepath.Join(dir, "small"), "0123456789")

	r, err := OpenRoot(dir, "", false, nil, Pin)
	if err != nil || r == nil {
		t.Fatal(err)
	}
	defer r.Close()
	if data, read, err := r.ReadFile("big", 100, 99); err != nil || read || data != nil {
		t.Errorf("Root.ReadFile over the limit: %q, %v, %v", data, read, err)
	}
	// A file that grew past the limit since its Lstat is not read whole.
	if data, read, err := r.ReadFile("big", 10, 99); err != nil || read || data != nil {
		t.Errorf("Root.ReadFile of a file grown past the limit: %d bytes, %v, %v", len(data), read, err)
	}
	if data, read, err := r.ReadFile("small", 10, 10); err != nil || !read || string(data) != "0123456789" {
		t.Errorf("Root.ReadFile at the limit: %q, %v, %v", data, read, err)
	}

	if runtime.GOOS == "windows" {
		return
	}
	d, err := OpenTop(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	want, _ := d.Lstat("big")
	if data, _, err := d.ReadFile("big", want, 50); err != nil || len(data) != 51 {
		t.Errorf("Dir.ReadFile over the limit: %d bytes, %v; want 51", len(data), err)
	}
}

// A Root never leaves its directory: ".." and a symlink leading out are
// refused by every operation, and the file outside stays.
func TestRootStaysInside(t *testing.T) {
	for _, look := range []bool{false, true} {
		t.Run(fmt.Sprintf("look=%v", look), func(t *testing.T) { rootStaysInside(t, look) })
	}
}

// rootStaysInside is TestRootStaysInside for a Root that pins its
// directories, or one opened to only look (Look): both stay inside.
func rootStaysInside(t *testing.T, look bool) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	mustWrite(t, filepath.Join(base, "outside", "secret"), "secret\n")
	mustWrite(t, filepath.Join(root, "own"), "own\n")
	testenv.Symlink(t, "../outside", filepath.Join(root, "out"))
	m := Pin
	if look {
		m = Look
	}
	r, err := OpenRoot(root, "", false, nil, m)
	if err != nil || r == nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, p := range []string{"../outside/secret", "out/secret"} {
		if _, err := r.Lstat(p); err == nil {
			t.Errorf("Lstat %s: reached", p)
		}
		if _, _, err := r.ReadFile(p, 7, 100); err == nil {
			t.Errorf("ReadFile %s: read", p)
		}
		if err := r.Remove(p); err == nil {
			t.Errorf("Remove %s: removed", p)
		}
	}
	if err := r.Reach("out"); err == nil {
		t.Error("Dir out: opened a directory outside")
	}
	if _, err := os.Lstat(filepath.Join(base, "outside", "secret")); err != nil {
		t.Errorf("the file outside: %v", err)
	}
	if data, read, err := r.ReadFile("own", 4, 100); err != nil || !read || string(data) != "own\n" {
		t.Errorf("ReadFile own: %q, %v, %v", data, read, err)
	}
}

// OpenRoot reports a missing root, a root that is not a directory, and,
// with within, a root reached through a symlink leading out of within.
func TestOpenRootKinds(t *testing.T) {
	base := t.TempDir()
	if r, err := OpenRoot(filepath.Join(base, "missing"), "", false, nil, Pin); r != nil || err != nil {
		t.Errorf("missing root: %v, %v", r, err)
	}
	r, err := OpenRoot(filepath.Join(base, "made", "here"), "", true, nil, Pin)
	if err != nil || r == nil {
		t.Fatalf("created root: %v", err)
	}
	r.Close()
	mustWrite(t, filepath.Join(base, "file"), "x")
	var re *RootError
	if _, err := OpenRoot(filepath.Join(base, "file"), "", false, nil, Pin); !errors.As(err, &re) || !re.NotDir {
		t.Errorf("a file as root: %v", err)
	}
	home := filepath.Join(base, "home")
	os.MkdirAll(filepath.Join(base, "elsewhere"), 0o755)
	os.MkdirAll(home, 0o755)
	testenv.Symlink(t, "../elsewhere", filepath.Join(home, "public_html"))
	if _, err := OpenRoot("public_html", home, true, nil, Pin); !errors.As(err, &re) || !re.Unreachable {
		t.Errorf("a root through a symlink out of within: %v", err)
	}
	if _, err := OpenRoot("x", filepath.Join(base, "nowhere"), false, nil, Pin); !errors.As(err, &re) || !re.Within {
		t.Errorf("a missing within: %v", err)
	}
}

// What the write path creates is new: Create never opens an existing
// file, nor one through a symlink, so no bytes land in a file planted at
// a temporary name.
func TestCreateIsNew(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	mustWrite(t, filepath.Join(base, "victim"), "keep\n")
	mustWrite(t, filepath.Join(root, "exists"), "old\n")
	testenv.Symlink(t, "../victim", filepath.Join(root, "planted"))
	r, err := OpenRoot(root, "", false, nil, Pin)
	if err != nil || r == nil {
		t.Fatal(err)
	}
	defer r.Close()
	lock, err := r.OpenSelf()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	r.SetWriteRoot(lock)
	w, err := r.WriteDir("")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"exists", "planted"} {
		if f, err := w.Create(name, 0o644); err == nil {
			f.Write([]byte("new\n"))
			f.Close()
			t.Errorf("%s: created over what was there", name)
		}
	}
	for name, want := range map[string]string{filepath.Join(base, "victim"): "keep\n", filepath.Join(root, "exists"): "old\n"} {
		if got, _ := os.ReadFile(name); !bytes.Equal(got, []byte(want)) {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}
