//go:build unix

package confined

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/internal/testing/testenv"
)

// A save that replaces a tenant's manifest (a rename over it) between the
// walk's stat and the read is read, not refused: a build beside a save
// must not fail. A FIFO swapped in is still refused without being waited
// on.
func TestReadManifestReplacedBySave(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "autodisc.yaml")
	if err := os.WriteFile(name, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := OpenTop(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	want, err := d.Lstat("autodisc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, ".autodisc.yaml.save")
	if err := os.WriteFile(saved, []byte("version: 1\ndescription: saved\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(saved, name); err != nil {
		t.Fatal(err)
	}
	data, info, err := d.ReadFile("autodisc.yaml", want, 1<<20)
	if err != nil || string(data) != "version: 1\ndescription: saved\n" {
		t.Fatalf("manifest replaced by a save: %q, %v", data, err)
	}
	if now, _ := d.Lstat("autodisc.yaml"); !info.Is(now) || info.Is(want) {
		t.Errorf("read %+v, want the saved file %+v", info, now)
	}
	os.Remove(name)
	testenv.Mkfifo(t, name)
	if _, _, err := d.ReadFile("autodisc.yaml", want, 1<<20); err == nil {
		t.Error("a FIFO swapped in was read")
	}
}

// OpenPath reaches a directory several components below in one open, and
// refuses a symlink on any component, "..", an absolute path and an empty
// component, with openat2 and without it.
func TestOpenPath(t *testing.T) {
	for _, without := range []bool{false, true} {
		if without {
			noOpenat2.Store(true)
			t.Cleanup(func() { noOpenat2.Store(false) })
		}
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "a", "b", "c"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a", "b", "c", "f"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("b", filepath.Join(dir, "a", "l")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("c", filepath.Join(dir, "a", "b", "m")); err != nil {
			t.Fatal(err)
		}
		d, err := OpenTop(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		for _, rel := range []string{"a", "a/b", "a/b/c"} {
			sub, err := d.OpenPath(rel)
			if err != nil {
				t.Fatalf("openat2 off %v: OpenPath(%q): %v", without, rel, err)
			}
			if _, err := sub.Lstat("b"); rel == "a" && err != nil {
				t.Errorf("openat2 off %v: %q is not a/: %v", without, rel, err)
			}
			if _, err := sub.Lstat("f"); rel == "a/b/c" && err != nil {
				t.Errorf("openat2 off %v: %q is not a/b/c: %v", without, rel, err)
			}
			sub.Close()
		}
		for _, rel := range []string{"a/l", "a/l/c", "a/b/m", "a/../a/b", "/a", "a//b", "", ".", "a/b/c/f"} {
			if sub, err := d.OpenPath(rel); err == nil {
				sub.Close()
				t.Errorf("openat2 off %v: OpenPath(%q) opened it", without, rel)
			}
		}
		// Without openat2, O_NOFOLLOW|O_DIRECTORY says ENOTDIR.
		if _, err := d.OpenPath("a/l/c"); !without && !IsSymlink(err) {
			t.Errorf("a symlink on the way: %v, want one IsSymlink knows", err)
		}
	}
}

// ReadFile's read (limited.ReadUpTo through fdReader) reads what the file holds, up to limit bytes and one more,
// whatever size fstat said: the file may have grown or shrunk since.
func TestReadUpTo(t *testing.T) {
	for _, c := range []struct {
		n, size, limit int64
		want           int64
	}{
		{0, 0, 10, 0}, {5, 5, 10, 5}, {10, 10, 10, 10}, {11, 11, 10, 11}, {100, 100, 10, 11},
		{50, 5, 100, 50},      // grew since fstat
		{50, 5, 20, 21},       // grew past the limit
		{5, 50, 100, 5},       // shrank since fstat
		{5000, 1, 8000, 5000}, // grew by much more than one buffer
	} {
		name := filepath.Join(t.TempDir(), "f")
		body := make([]byte, c.n)
		for i := range body {
			body[i] = byte('a' + i%26)
		}
		if err := os.WriteFile(name, body, 0o644); err != nil {
			t.Fatal(err)
		}
		fd, err := syscall.Open(name, syscall.O_RDONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := limited.ReadUpTo(fdReader(fd), c.size, c.limit)
		syscall.Close(fd)
		if err != nil || int64(len(got)) != c.want || string(got) != string(body[:c.want]) {
			t.Errorf("%d bytes, fstat %d, limit %d: read %d bytes (%v), want %d", c.n, c.size, c.limit, len(got), err, c.want)
		}
	}
}
