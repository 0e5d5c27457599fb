//go:build linux

package confined

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The raw write path's stats must equal what os.Lstat gives, or the stat
// cache written by Apply would never match what Plan and Fresh see.
func TestRawStatMatchesLstat(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "f"), []byte("x\n"), 0o640))
	must(os.Mkdir(filepath.Join(dir, "d"), 0o750))
	must(os.Chmod(filepath.Join(dir, "d"), 0o750|os.ModeSticky|os.ModeSetgid))
	must(os.Symlink("f", filepath.Join(dir, "l")))
	must(syscall.Mkfifo(filepath.Join(dir, "p"), 0o600))
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	must(err)
	defer syscall.Close(fd)
	for _, name := range []string{"f", "d", "l", "p"} {
		fi, err := os.Lstat(filepath.Join(dir, name))
		must(err)
		got, err := WriteDir{fd: fd}.Lstat(name)
		must(err)
		if want := StatOf(fi); got != want {
			t.Errorf("%s: raw %v, os.Lstat %v", name, got, want)
		}
	}
}

// Directories are opened one plain component at a time, never through a
// symlink or "..": a record naming a temporary file outside the root
// cannot lead the write path there.
func TestWriteDirRefusesEscapes(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	os.MkdirAll(filepath.Join(root, "real"), 0o755)
	os.Mkdir(filepath.Join(base, "outside"), 0o755)
	os.Symlink("../outside", filepath.Join(root, "link"))
	lock, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	r := &Root{}
	r.SetWriteRoot(lock)
	defer r.closeWAll()
	if _, err := r.WriteDir("real"); err != nil {
		t.Errorf("real directory: %v", err)
	}
	for _, d := range []string{"link", "link/x", "..", "../outside", "real/../..", "/etc", "."} {
		if _, err := r.WriteDir(d); err == nil {
			t.Errorf("%s: opened", d)
		}
	}
	if _, err := r.WriteDir("link"); !errors.Is(err, syscall.ENOTDIR) && !errors.Is(err, syscall.ELOOP) {
		t.Errorf("symlink: %v, want ENOTDIR or ELOOP", err)
	}
	w, _ := r.WriteDir("")
	if _, err := w.Create("../outside/x", 0o644); err == nil {
		t.Error("created a file through ..")
	}
	if _, err := os.Lstat(filepath.Join(base, "outside", "x")); err == nil {
		t.Error("file written outside the root")
	}
}

// Without openat2 (Linux before 5.6, or a seccomp filter refusing it) a
// directory is walked to one component at a time, refusing the same
// escapes, and pinned the same way.
func TestWriteDirWithoutOpenat2(t *testing.T) {
	noOpenat2.Store(true)
	t.Cleanup(func() { noOpenat2.Store(false) })
	base := t.TempDir()
	root := filepath.Join(base, "root")
	if err := os.MkdirAll(filepath.Join(root, "real", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(base, "outside"), 0o755)
	os.Symlink("../outside", filepath.Join(root, "link"))
	os.Symlink("sub", filepath.Join(root, "real", "sublink"))
	lock, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	r := &Root{}
	r.SetWriteRoot(lock)
	w, err := r.WriteDir("real/sub")
	if err != nil {
		t.Fatalf("real/sub: %v", err)
	}
	r.Done(w)
	for _, d := range []string{"link", "link/x", "real/sublink", "..", "real/../..", "/etc", "."} {
		if w, err := r.WriteDir(d); err == nil {
			r.Done(w)
			t.Errorf("%s: opened", d)
		}
	}
	// Replaced since first opened: refused.
	sub := filepath.Join(root, "real", "sub")
	if err := os.Rename(sub, sub+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if w, err := r.WriteDir("real/sub"); err != errReplaced {
		r.Done(w)
		t.Errorf("replaced directory: %v, want errReplaced", err)
	}
}
