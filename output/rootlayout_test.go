package output

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
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

// Root's locks of the roots with state directories of their own are
// bytes of one file in locks/ (on Linux; elsewhere a file a root, there
// while held): no file a root is made, kept or removed, so a tenant gone
// leaves none, and the file is the same one from build to build.
func TestRootLocksInOneFile(t *testing.T) {
	state := t.TempDir()
	var inos []uint64
	for i, body := range []string{"a\n", "b\n"} {
		for _, name := range []string{"users/alice/public_html", "users/bob/public_html"} {
			root := filepath.Join(t.TempDir(), "public_html")
			own := RootStateDir(state, name)
			if _, err := PrepareRootState(own, name, nil); err != nil {
				t.Fatal(err)
			}
			opt := Options{StateDir: own, FormerStateDir: state, JournalDir: state, Record: name, NoSync: true}
			if _, _, err := Write(root, files("a.txt", body), opt); err != nil {
				t.Fatal(err)
			}
		}
		ents, err := os.ReadDir(filepath.Join(state, journal.LocksDir))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		if runtime.GOOS != "linux" {
			if len(names) != 0 {
				t.Errorf("build %d: locks left: %v", i+1, names)
			}
			continue
		}
		if !slices.Equal(names, []string{statedir.KeysFile}) {
			t.Fatalf("build %d: locks/ holds %v, want [%s]", i+1, names, statedir.KeysFile)
		}
		fi, err := os.Lstat(filepath.Join(state, journal.LocksDir, statedir.KeysFile))
		if err != nil {
			t.Fatal(err)
		}
		inos = append(inos, confined.StatOf(fi).Ino)
	}
	if len(inos) == 2 && inos[0] != inos[1] {
		t.Errorf("the second build made the locks' file again (inode %d, then %d)", inos[0], inos[1])
	}
	names, _ := os.ReadDir(filepath.Join(state, record.JournalDir))
	for _, n := range names {
		if strings.HasSuffix(n.Name(), ".lock") && n.Name() != journal.LockName {
			t.Errorf("a root's lock in the journal directory: %s", n.Name())
		}
	}
}
