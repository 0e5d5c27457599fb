package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// entries returns the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestWrite: a new file and a replaced one hold the data in full with mode
// 0644, a symbolic link at the name is replaced and its target left alone,
// and no temporary file stays behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "site.yaml")
	if err := Write(name, []byte("version: 1\n")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(name, []byte("version: 2\n")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(name); string(data) != "version: 2\n" {
		t.Errorf("content %q, want the second write's", data)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}

	target := filepath.Join(dir, "target.txt")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("target.txt", link); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if err := Write(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep\n" {
		t.Errorf("the link's target was written through: %q", data)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the link is not replaced by a regular file: %v, %v", fi, err)
	}
	if got := entries(t, dir); len(got) != 3 {
		t.Errorf("directory holds %q, want link.txt, site.yaml and target.txt only", got)
	}
}

// TestWriteFails: a write that cannot complete (a directory at the name,
// a missing directory) returns the error, leaves the name as it was and
// no temporary file.
func TestWriteFails(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "public")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "index.html"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(sub, []byte("data")); err == nil {
		t.Error("writing over a directory succeeded")
	}
	if fi, err := os.Stat(sub); err != nil || !fi.IsDir() {
		t.Errorf("the directory is gone: %v, %v", fi, err)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("directory holds %q, want public only", got)
	}
	if err := Write(filepath.Join(dir, "missing", "site.yaml"), []byte("data")); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
