package output

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/output/internal/journal"
	"github.com/discgen/discgen/output/internal/record"
)

// A root's first build makes one directory for its state, its own (and
// own/ab for the first of 1/256 of the roots), which is also its journal
// directory, and the record and stat cache are in it, where its owner
// may replace them.
func TestRootStateFirstBuildDirs(t *testing.T) {
	state := t.TempDir()
	name := "users/alice/public_html"
	own := RootStateDir(state, name)
	if !record.IsRootState(own) || record.BuildStateDir(own) != state {
		t.Fatalf("RootStateDir gave %s, which is not a root's state directory of %s", own, state)
	}
	made, err := PrepareRootState(own, name, nil)
	if err != nil || !made {
		t.Fatalf("PrepareRootState: %v, %v", made, err)
	}
	var dirs []string
	filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != state {
			rel, _ := filepath.Rel(state, p)
			dirs = append(dirs, filepath.ToSlash(rel))
		}
		return err
	})
	rel, _ := filepath.Rel(state, own)
	rel = filepath.ToSlash(rel)
	want := []string{record.RootsDir, filepath.ToSlash(filepath.Dir(rel)), rel}
	slices.Sort(want)
	if !slices.Equal(dirs, want) {
		t.Errorf("a root's first state made\n\t%q\nwant\n\t%q", dirs, want)
	}
	c := &Changes{opt: Options{StateDir: own}, name: name}
	rec := c.recordFile(".rec")
	if filepath.Dir(rec) != own || filepath.Dir(c.recordFile(".stat")) != own {
		t.Errorf("the record is at %s, not in %s", rec, own)
	}
	if record.JournalDirOf(own) != own {
		t.Errorf("the journal directory is %s, not %s", record.JournalDirOf(own), own)
	}
}

// Root's lock of a root with a state directory of its own is made once
// and kept, in a directory no build lists (locks/), not made and removed
// in the journal directory at each build: the second build that changes
// the root locks the same file.
func TestRootLockKept(t *testing.T) {
	state := t.TempDir()
	name := "users/alice/public_html"
	root := filepath.Join(t.TempDir(), "public_html")
	own := RootStateDir(state, name)
	if _, err := PrepareRootState(own, name, nil); err != nil {
		t.Fatal(err)
	}
	opt := Options{StateDir: own, FormerStateDir: state, JournalDir: state, Record: name, NoSync: true}
	lock := filepath.Join(state, journal.LocksDir, record.NameHash(name)+".lock")
	var inos []uint64
	for i, body := range []string{"a\n", "b\n"} {
		if _, _, err := Write(root, files("a.txt", body), opt); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(lock)
		if err != nil {
			t.Fatalf("build %d: root's lock of the root is gone: %v", i+1, err)
		}
		inos = append(inos, confined.StatOf(fi).Ino)
	}
	if inos[0] != inos[1] {
		t.Errorf("the second build made its lock again (inode %d, then %d)", inos[0], inos[1])
	}
	names, _ := os.ReadDir(filepath.Join(state, record.JournalDir))
	for _, n := range names {
		if strings.HasSuffix(n.Name(), ".lock") && n.Name() != journal.LockName {
			t.Errorf("a root's lock in the journal directory: %s", n.Name())
		}
	}
}
