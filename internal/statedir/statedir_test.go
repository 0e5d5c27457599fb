package statedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/internal/testing/testfs"
)

// mustWrite and mustRead write and read a fixture's files.
var (
	mustWrite = testfs.Write
	mustRead  = testfs.Read
)

// A state file is replaced, never written through what lies at its
// name: a symlink (or a hard link) at a temporary file's name or at a
// stat cache rewritten in place leaves the file it leads to alone.
func TestStateFilesNotWrittenThrough(t *testing.T) {
	testenv.NeedsLinux(t) // state files are opened without following symlinks on Linux
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, stat, linked := filepath.Join(dir, "x.rec"), filepath.Join(dir, "x.stat"), filepath.Join(dir, "y.stat")
	for _, p := range []string{rec + ".tmp", stat} {
		if err := os.Symlink(victim, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(victim, linked); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFile(rec+".tmp", rec, []byte("record\n"), false, false); err != nil {
		t.Errorf("record: %v", err)
	}
	for _, p := range []string{stat, linked} {
		if _, err := WriteFile(p, p, []byte("cache\n"), false, false); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if got := mustRead(t, p); got != "cache\n" {
			t.Errorf("%s = %q", p, got)
		}
	}
	if got := mustRead(t, rec); got != "record\n" {
		t.Errorf("record = %q", got)
	}
	if got := mustRead(t, victim); got != "keep\n" {
		t.Errorf("written through a link: victim = %q", got)
	}
	// Nor is one read through a symlink.
	if _, _, err := ReadFile(stat+".l", 1<<20); err == nil {
		t.Error("read a missing file")
	}
	if err := os.Symlink(victim, stat+".l"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadFile(stat+".l", 1<<20); err == nil {
		t.Error("a state file read through a symlink")
	}
}

// Nothing is read past a limit: a file larger than the limit is not read
// at all (ReadFile) or read to one byte more than the limit, which tells
// the caller it is larger (ReadAll).
func TestReadLimits(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "big"), strings.Repeat("x", 100))
	mustWrite(t, filepath.Join(dir, "small"), "0123456789")

	if _, _, err := ReadFile(filepath.Join(dir, "big"), 99); err == nil || !strings.Contains(err.Error(), "larger than 99 bytes") {
		t.Errorf("ReadFile over the limit: %v", err)
	}
	if data, _, err := ReadFile(filepath.Join(dir, "small"), 10); err != nil || string(data) != "0123456789" {
		t.Errorf("ReadFile at the limit: %q, %v", data, err)
	}

	f, err := os.Open(filepath.Join(dir, "big"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if data, err := ReadAll(f, 99); err == nil || len(data) != 100 {
		t.Errorf("ReadAll over the limit: %d bytes, %v", len(data), err)
	}
}

// A file created locked stays locked until closed: OpenIfUnlocked leaves
// it alone while it is, takes it once it is not, and says nothing of a
// file removed meanwhile.
func TestOpenIfUnlocked(t *testing.T) {
	if runtime.GOOS == "windows" {
		testenv.Unsupported(t, "no advisory locks on %s", runtime.GOOS)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "j")
	f, err := CreateLocked(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CreateLocked(name); !errors.Is(err, fs.ErrExist) {
		t.Errorf("created twice: %v", err)
	}
	if g, err := OpenIfUnlocked(name); g != nil || err != nil {
		t.Errorf("a locked file opened: %v, %v", g, err)
	}
	f.Close()
	g, err := OpenIfUnlocked(name)
	if g == nil || err != nil {
		t.Fatalf("an unlocked file: %v, %v", g, err)
	}
	g.Close()
	os.Remove(name)
	if g, err := OpenIfUnlocked(name); g != nil || err != nil {
		t.Errorf("a removed file: %v, %v", g, err)
	}
}
