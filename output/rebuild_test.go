package output

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/discgen/discgen/output/internal/record"
	"github.com/discgen/discgen/tree"
)

func TestTempFilesRemovedAfterInterruptedBuild(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n", "d/b.txt", "1\n"), e.opt())
	// Simulate an interrupted build: an incomplete record naming its
	// temporary files, and those files beside the outputs.
	c, _ := Plan(e.root, files("a.txt", "2\n", "d/b.txt", "2\n"), e.opt())
	in := c.intent(nil)
	temps := []string{".discgen-0123456789abcdef.tmp", "d/.discgen-fedcba9876543210.tmp"}
	in.Temps = temps
	if _, err := c.writeState(c.recordFile(".rec"), in.Marshal(), false, false, false); err != nil {
		t.Fatal(err)
	}
	for _, p := range temps {
		mustWrite(t, e.path(p), "partial")
	}
	// Files of the same form that the record does not name are not
	// discgen's to remove: someone else made them.
	planted := []string{".discgen-notours.tmp", ".discgen-00112233aabbccdd.tmp", "d/.discgen-ffeeddccbbaa9988.tmp"}
	for _, p := range planted {
		mustWrite(t, e.path(p), "someone else's")
	}
	c, res := apply(t, e, files("a.txt", "2\n", "d/b.txt", "1\n"), e.opt())
	if res.TempsRemoved != 2 || !slices.Equal(c.temps, temps) {
		t.Errorf("temps %q, result %+v", c.temps, res)
	}
	for _, p := range temps {
		if _, err := os.Lstat(e.path(p)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left behind", p)
		}
	}
	for _, p := range planted {
		if got := mustRead(t, e.path(p)); got != "someone else's" {
			t.Errorf("planted %s changed: %q", p, got)
		}
	}
	rec, err := readRecord(e.state, e.root)
	if err != nil || !rec.Complete || len(rec.Files["a.txt"]) != 1 || len(rec.Temps) != 0 {
		t.Errorf("record after clean build: %+v %v", rec, err)
	}
}

// A planted file named like discgen's temporary files is left alone even
// when discgen has never built the root.
func TestPlantedTempLeftAlone(t *testing.T) {
	e := newEnv(t)
	planted := ".discgen-0123456789abcdef.tmp"
	mustWrite(t, e.path(planted), "mine")
	mustWrite(t, e.path("d/"+planted), "mine")
	_, res := apply(t, e, files("a.txt", "1\n", "d/b.txt", "1\n"), e.opt())
	if res.TempsRemoved != 0 || mustRead(t, e.path(planted)) != "mine" || mustRead(t, e.path("d/"+planted)) != "mine" {
		t.Errorf("planted temporary file touched: %+v", res)
	}
}

func TestPlanWritesNothing(t *testing.T) {
	e := newEnv(t)
	c, err := Plan(e.root, files("a/b.txt", "x\n", "c.txt", "y\n"), e.opt())
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	if got := kinds(c); got != "add a/b.txt\nadd c.txt\n" || c.Empty() {
		t.Errorf("plan:\n%s", got)
	}
	for _, p := range []string{e.root, e.state} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s created by Plan", p)
		}
	}
	apply(t, e, files("a/b.txt", "x\n"), e.opt())
	before, stateBefore := snapshot(t, e.root), snapshot(t, e.state)
	c, _ = Plan(e.root, files("c.txt", "z\n"), e.opt())
	if got := kinds(c); got != "remove a/b.txt\nadd c.txt\n" {
		t.Errorf("plan:\n%s", got)
	}
	sameSnapshot(t, "output", before, snapshot(t, e.root))
	sameSnapshot(t, "state", stateBefore, snapshot(t, e.state))
}

// A plan another build outdated (it wrote the root since) is made again
// under the root's lock: the root holds exactly the later build's tree,
// and its record owns nothing of the first.
func TestApplyReplansPlanOutdatedByAnotherBuild(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n", "old.txt", "1\n"), e.opt())
	first, _ := Plan(e.root, files("a.txt", "2\n", "c.txt", "2\n"), e.opt())
	second, _ := Plan(e.root, files("a.txt", "3\n", "b.txt", "3\n"), e.opt())
	if _, err := first.Apply(); err != nil {
		t.Fatal(err)
	}
	res, err := second.Apply()
	if err != nil {
		t.Fatalf("outdated plan: %v", err)
	}
	if res.Updated != 1 || res.Added != 1 || res.Removed != 1 {
		t.Errorf("planned again: %+v, want a.txt updated, b.txt added, c.txt removed", res)
	}
	want := map[string]string{"a.txt": "3\n", "b.txt": "3\n"}
	got := map[string]string{}
	ents, _ := os.ReadDir(e.root)
	for _, d := range ents {
		got[d.Name()] = mustRead(t, e.path(d.Name()))
	}
	if !maps.Equal(got, want) {
		t.Errorf("root holds %q, want %q", got, want)
	}
	if rec, err := readRecord(e.state, e.root); err != nil || !rec.Complete || len(rec.Files) != 2 || len(rec.Files["a.txt"]) != 1 {
		t.Errorf("record: %+v %v", rec, err)
	}
}

func TestManyFilesAndDirectories(t *testing.T) {
	e := newEnv(t)
	tr := benchTree(2000) // 20 directories, written concurrently
	for i := range 300 {
		tr[fmt.Sprintf("big/f%03d.txt", i)] = tree.Entry{Data: fmt.Appendf(nil, "%d\n", i)} // two groups of one directory
	}
	_, res := apply(t, e, tr, e.opt())
	if res.Added != len(tr) {
		t.Fatalf("result %+v", res)
	}
	for p, want := range tr {
		if got := mustRead(t, e.path(p)); got != string(want.Data) {
			t.Fatalf("%s = %q, want %q", p, got, want.Data)
		}
	}
	c, _ := apply(t, e, tr, e.opt())
	if !c.Empty() {
		t.Errorf("rebuild not empty")
	}
}

// Write plans and applies t to root in one step.
func Write(root string, t tree.Tree, opt Options) (*Changes, Result, error) {
	if _, _, err := Recover(opt.StateDir); err != nil {
		return nil, Result{}, err
	}
	c, err := Plan(root, t, opt)
	if err != nil {
		return nil, Result{}, err
	}
	res, err := c.Apply()
	return c, res, err
}

// readRecord reads the ownership record of root in state.
func readRecord(state, root string) (*record.Record, error) {
	c := &Changes{Root: root, opt: Options{StateDir: state}}
	if err := c.setName(); err != nil {
		return nil, err
	}
	if err := c.loadRecord(); err != nil {
		return nil, err
	}
	return c.rec, nil
}

// A plan that read the record before another build wrote the root, and
// the disk after, finds that build's files "modified since discgen wrote
// them". Under the lock the record is seen to have changed: the root is
// planned again, and nothing is refused.
func TestApplyReplansFalseModified(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n"), e.opt())
	recFile := filepath.Join(e.state, filepath.FromSlash(record.Base("public")+".rec"))
	old := mustRead(t, recFile)
	apply(t, e, files("a.txt", "2\n"), e.opt())
	now := mustRead(t, recFile)
	// The plan reads the record as it was, and the disk as it is.
	mustWrite(t, recFile, old)
	c, err := Plan(e.root, files("a.txt", "3\n"), e.opt())
	if err != nil {
		t.Fatal(err)
	}
	if got := problems(t, c.Err()); !slices.Equal(got, []string{"modified file a.txt"}) {
		t.Fatalf("plan beside another build: %q", got)
	}
	mustWrite(t, recFile, now) // the other build's record lands
	if _, err := c.Apply(); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if got := mustRead(t, e.path("a.txt")); got != "3\n" {
		t.Errorf("a.txt = %q", got)
	}
}

// A tree older than its inputs (a save changed the manifest after it was
// read) is not written over the root: the build that read the newer
// inputs writes it, or already has.
func TestApplyLeavesRootToNewerInputs(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "new\n"), e.opt())
	before, stateBefore := snapshot(t, e.root), snapshot(t, e.state)
	opt := e.opt()
	asked := 0
	opt.Superseded = func() bool { asked++; return true }
	c, err := Plan(e.root, files("a.txt", "old\n"), opt)
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	res, err := c.Apply()
	if err != nil || !res.Superseded || res.Updated != 0 || asked != 1 {
		t.Errorf("Apply of a superseded tree: %+v %v, asked %d times", res, err, asked)
	}
	sameSnapshot(t, "output", before, snapshot(t, e.root))
	sameSnapshot(t, "state", stateBefore, snapshot(t, e.state))
	opt.Superseded = func() bool { return false }
	c, _ = Plan(e.root, files("a.txt", "old\n"), opt)
	if res, err := c.Apply(); err != nil || res.Superseded || mustRead(t, e.path("a.txt")) != "old\n" {
		t.Errorf("Apply of a current tree: %+v %v", res, err)
	}
}
