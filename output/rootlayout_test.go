package output

import (
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
)

// A root's first build makes three directories for its state: its own,
// the record's and the journal directory (and roots/ab for the first of
// 1/256 of the roots), and the record is in the record's directory,
// where its owner may replace it.
func TestRootStateFirstBuildDirs(t *testing.T) {
	state := t.TempDir()
	name := "users/alice/public_html"
	own := RootStateDir(state, name)
	if !isRootState(own) || buildStateDir(own) != state {
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
	want := []string{"roots", filepath.ToSlash(filepath.Dir(rel)), rel, rel + "/journal", rel + "/records"}
	slices.Sort(want)
	if !slices.Equal(dirs, want) {
		t.Errorf("a root's first state made\n\t%q\nwant\n\t%q", dirs, want)
	}
	c := &Changes{opt: Options{StateDir: own}, name: name}
	rec := c.recordFile(".rec")
	if filepath.Dir(rec) != filepath.Join(own, "records") {
		t.Errorf("the record is at %s, not in %s", rec, filepath.Join(own, "records"))
	}
}
