package output

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/tree"
)

// env is a scratch layout: base/public is the output root, base/state the
// state directory, base/outside a directory that must never change.
type env struct {
	base, root, state, outside string
}

func newEnv(t *testing.T) env {
	t.Helper()
	base := t.TempDir()
	e := env{base: base, root: filepath.Join(base, "public"), state: filepath.Join(base, "state"), outside: filepath.Join(base, "outside")}
	mustWrite(t, filepath.Join(e.outside, "secret.txt"), "do not touch\n")
	mustWrite(t, filepath.Join(e.outside, "autodisc", "index.txt"), "outside index\n")
	return e
}

func (e env) opt() Options { return Options{StateDir: e.state, NoSync: true} }

func (e env) path(p string) string { return filepath.Join(e.root, filepath.FromSlash(p)) }

func mustWrite(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func files(kv ...string) tree.Tree {
	t := tree.Tree{}
	for i := 0; i < len(kv); i += 2 {
		t[kv[i]] = tree.Entry{Data: []byte(kv[i+1])}
	}
	return t
}

// snapshot describes every entry under dir: type, content or target, mode
// and exact mtime, so any change shows.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		desc := fmt.Sprintf("%v %v", fi.Mode(), fi.ModTime().UnixNano())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		case fi.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			desc += " " + string(b)
		}
		m[filepath.ToSlash(rel)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameSnapshot(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	if !maps.Equal(before, after) {
		for _, k := range slices.Sorted(maps.Keys(after)) {
			if before[k] != after[k] {
				t.Errorf("%s: %s changed: %q -> %q", what, k, before[k], after[k])
			}
		}
		for k := range before {
			if _, ok := after[k]; !ok {
				t.Errorf("%s: %s disappeared", what, k)
			}
		}
	}
}

func apply(t *testing.T, e env, tr tree.Tree, opt Options) (*Changes, Result) {
	t.Helper()
	c, res, err := Write(e.root, tr, opt)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return c, res
}

// problems returns "kind path" for each problem of err, which must be a
// *ProblemError.
func problems(t *testing.T, err error) []string {
	t.Helper()
	var pe *ProblemError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ProblemError", err, err)
	}
	var out []string
	for _, p := range pe.Problems {
		out = append(out, p.Kind.String()+" "+p.Path)
	}
	return out
}

func kinds(c *Changes) string {
	var b strings.Builder
	for _, ch := range c.List {
		fmt.Fprintf(&b, "%s %s\n", ch.Kind, ch.Path)
	}
	return b.String()
}

func TestFirstBuildCreatesRootAndFiles(t *testing.T) {
	e := newEnv(t)
	e.root = filepath.Join(e.base, "site", "public") // parent missing too
	tr := files("robots.txt", "User-agent: *\nDisallow:\n", "autodisc/index.txt", "icons.txt\n", "autodisc/icons.txt", "/favicon.ico\n")
	tr["autodisc/robots.txt"] = tree.Entry{Link: "../robots.txt"}
	opt := e.opt()
	opt.NoSync = false
	c, res := apply(t, e, tr, opt)
	if got, want := kinds(c), "add autodisc/icons.txt\nadd autodisc/index.txt\nadd autodisc/robots.txt\nadd robots.txt\n"; got != want {
		t.Errorf("plan:\n%s\nwant:\n%s", got, want)
	}
	if res.Added != 4 || res.DirsCreated != 1 {
		t.Errorf("result %+v", res)
	}
	for p, want := range map[string]string{"robots.txt": "User-agent: *\nDisallow:\n", "autodisc/index.txt": "icons.txt\n", "autodisc/robots.txt": "User-agent: *\nDisallow:\n"} {
		if got := mustRead(t, e.path(p)); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	if target, err := os.Readlink(e.path("autodisc/robots.txt")); err != nil || target != "../robots.txt" {
		t.Errorf("autodisc/robots.txt: link %q, %v", target, err)
	}
	fi, _ := os.Stat(e.path("robots.txt"))
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode())
	}
}

func TestRebuildKeepsMtimes(t *testing.T) {
	e := newEnv(t)
	tr := files("robots.txt", "a\n", "autodisc/index.txt", "b\n", "autodisc/feeds.txt", "c\n")
	tr["autodisc/robots.txt"] = tree.Entry{Link: "../robots.txt"}
	apply(t, e, tr, e.opt())
	// Put mtimes in the past, so a rewrite could not land on the same
	// timestamp by chance.
	past := time.Date(2001, 2, 3, 4, 5, 6, 7, time.UTC)
	for _, p := range []string{"robots.txt", "autodisc/index.txt", "autodisc/feeds.txt"} {
		if err := os.Chtimes(e.path(p), past, past); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, e.root)
	stateBefore := snapshot(t, e.state)
	c, res := apply(t, e, tr, e.opt())
	if !c.Empty() || res.Unchanged != 4 || res.Added+res.Updated+res.Removed != 0 {
		t.Errorf("second build: empty=%v %+v\n%s", c.Empty(), res, kinds(c))
	}
	sameSnapshot(t, "output", before, snapshot(t, e.root))
	// The record stays; only the machine-local stat cache learns the new
	// mtimes.
	sameSnapshot(t, "state", records(stateBefore), records(snapshot(t, e.state)))
	if !maps.Equal(records(stateBefore), records(snapshot(t, e.state))) || len(records(stateBefore)) != 1 {
		t.Errorf("records: %v", records(stateBefore))
	}
}

// records keeps the ownership records of a state snapshot.
func records(snap map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range snap {
		if strings.HasSuffix(k, ".rec") {
			m[k] = v
		}
	}
	return m
}

func TestUpdateOnlyChangedFile(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n", "b.txt", "1\n"), e.opt())
	past := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	os.Chtimes(e.path("a.txt"), past, past)
	os.Chtimes(e.path("b.txt"), past, past)
	os.Chmod(e.path("b.txt"), 0o600)
	c, res := apply(t, e, files("a.txt", "1\n", "b.txt", "2\n"), e.opt())
	if got := kinds(c); got != "unchanged a.txt\nupdate b.txt\n" {
		t.Errorf("plan:\n%s", got)
	}
	if res.Updated != 1 || res.Unchanged != 1 {
		t.Errorf("result %+v", res)
	}
	if fi, _ := os.Stat(e.path("a.txt")); !fi.ModTime().Equal(past) {
		t.Errorf("a.txt mtime changed")
	}
	fi, _ := os.Stat(e.path("b.txt"))
	if fi.ModTime().Equal(past) || mustRead(t, e.path("b.txt")) != "2\n" {
		t.Errorf("b.txt not rewritten")
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("b.txt mode %v, want the replaced file's 0600", fi.Mode().Perm())
	}
}

func TestStaleRemovalOnlyOfOwnFiles(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("robots.txt", "r\n", "autodisc/index.txt", "i\n", "autodisc/old.txt", "o\n", "gone/x.txt", "x\n", "kept/y.txt", "y\n"), e.opt())
	mustWrite(t, e.path("autodisc/notes.txt"), "hand written\n")
	mustWrite(t, e.path("kept/mine.txt"), "hand written\n")
	mustWrite(t, e.path("site.html"), "<html>\n")
	opt := e.opt()
	opt.NoSync = false
	c, res := apply(t, e, files("robots.txt", "r\n", "autodisc/index.txt", "i\n"), opt)
	want := "unchanged autodisc/index.txt\nremove autodisc/old.txt\nremove gone/x.txt\nremove kept/y.txt\nunchanged robots.txt\n"
	if got := kinds(c); got != want {
		t.Errorf("plan:\n%s\nwant:\n%s", got, want)
	}
	if res.Removed != 3 || res.DirsRemoved != 1 {
		t.Errorf("result %+v", res)
	}
	for _, p := range []string{"autodisc/old.txt", "gone/x.txt", "gone", "kept/y.txt"} {
		if _, err := os.Lstat(e.path(p)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s still exists (%v)", p, err)
		}
	}
	for _, p := range []string{"autodisc/notes.txt", "kept/mine.txt", "site.html"} {
		if _, err := os.Lstat(e.path(p)); err != nil {
			t.Errorf("foreign %s: %v", p, err)
		}
	}
	// kept/ still holds a foreign file; once it is gone, the next build
	// removes the directory discgen created.
	os.Remove(e.path("kept/mine.txt"))
	_, res = apply(t, e, files("robots.txt", "r\n", "autodisc/index.txt", "i\n"), e.opt())
	if _, err := os.Lstat(e.path("kept")); !errors.Is(err, fs.ErrNotExist) || res.DirsRemoved != 1 {
		t.Errorf("kept/ not removed once empty: %v %+v", err, res)
	}
	// A directory discgen did not create is never removed, even empty.
	os.MkdirAll(e.path("empty/theirs"), 0o755)
	apply(t, e, files("robots.txt", "r\n", "empty/theirs/z.txt", "z\n"), e.opt())
	apply(t, e, files("robots.txt", "r\n"), e.opt())
	if _, err := os.Lstat(e.path("empty/theirs")); err != nil {
		t.Errorf("foreign empty directory removed: %v", err)
	}
}

func TestForeignConflictIsErrorAndUntouched(t *testing.T) {
	e := newEnv(t)
	mustWrite(t, e.path("robots.txt"), "User-agent: *\nDisallow: /hand\n")
	mustWrite(t, e.path("autodisc/notes.txt"), "mine\n")
	before := snapshot(t, e.root)
	tr := files("robots.txt", "User-agent: *\nDisallow:\n", "autodisc/index.txt", "x\n")
	c, err := Plan(e.root, tr, e.opt())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Apply()
	if got := problems(t, err); !slices.Equal(got, []string{"foreign file robots.txt"}) {
		t.Errorf("problems %q", got)
	}
	pe := err.(*ProblemError)
	if !strings.Contains(err.Error(), e.path("robots.txt")) || !strings.Contains(pe.Hints()[0], "--replace") {
		t.Errorf("message %q hints %q", err, pe.Hints())
	}
	sameSnapshot(t, "output", before, snapshot(t, e.root))
	if _, err := os.Stat(e.state); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("state written despite problem: %v", err)
	}
	// With Replace, discgen takes the file over, and owns it afterwards.
	opt := e.opt()
	opt.Replace = true
	c, _ = apply(t, e, tr, opt)
	if got := kinds(c); got != "add autodisc/index.txt\nupdate robots.txt\n" {
		t.Errorf("replace plan:\n%s", got)
	}
	if mustRead(t, e.path("robots.txt")) != "User-agent: *\nDisallow:\n" || mustRead(t, e.path("autodisc/notes.txt")) != "mine\n" {
		t.Error("replace did not take over robots.txt or touched notes.txt")
	}
	apply(t, e, files("autodisc/index.txt", "x\n"), e.opt())
	if _, err := os.Lstat(e.path("robots.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("robots.txt taken over but not removed once no longer produced")
	}
}

func TestAdoptIdenticalFile(t *testing.T) {
	e := newEnv(t)
	mustWrite(t, e.path("robots.txt"), "same\n")
	past := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	os.Chtimes(e.path("robots.txt"), past, past)
	c, res := apply(t, e, files("robots.txt", "same\n"), e.opt())
	if got := kinds(c); got != "adopt robots.txt\n" || !c.Empty() || res.Adopted != 1 {
		t.Errorf("plan %q empty=%v %+v", got, c.Empty(), res)
	}
	if fi, _ := os.Stat(e.path("robots.txt")); !fi.ModTime().Equal(past) {
		t.Error("adopted file rewritten")
	}
	// Adopted means owned: no longer produced, it is removed.
	apply(t, e, files("x.txt", "x\n"), e.opt())
	if _, err := os.Lstat(e.path("robots.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("adopted file not removed when no longer produced")
	}
}

func TestModifiedOwnFile(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n", "b.txt", "1\n"), e.opt())
	mustWrite(t, e.path("a.txt"), "edited by hand\n")
	mustWrite(t, e.path("b.txt"), "edited by hand\n")
	before := snapshot(t, e.root)
	// a.txt is still produced with new bytes, b.txt no longer: both are
	// refused, and neither changes.
	_, _, err := Write(e.root, files("a.txt", "2\n", "c.txt", "3\n"), e.opt())
	if got := problems(t, err); !slices.Equal(got, []string{"modified file a.txt", "modified file b.txt"}) {
		t.Errorf("problems %q", got)
	}
	sameSnapshot(t, "output", before, snapshot(t, e.root))
	// Producing exactly the hand-edited bytes is fine.
	c, _ := apply(t, e, files("a.txt", "edited by hand\n", "b.txt", "edited by hand\n"), e.opt())
	if got := kinds(c); got != "adopt a.txt\nadopt b.txt\n" {
		t.Errorf("plan:\n%s", got)
	}
}

func TestNothingWrittenWhenAnyProblem(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("old.txt", "o\n"), e.opt())
	mustWrite(t, e.path("z/foreign.txt"), "theirs\n")
	if err := os.Symlink(e.outside, e.path("autodisc")); err != nil {
		t.Fatal(err)
	}
	before, stateBefore := snapshot(t, e.root), snapshot(t, e.state)
	tr := files("a/new.txt", "n\n", "b.txt", "b\n", "autodisc/index.txt", "i\n", "z/foreign.txt", "ours\n")
	tr["bad"] = tree.Entry{Link: "../../etc/passwd"}
	c, err := Plan(e.root, tr, e.opt())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"symlink autodisc", "bad path bad", "foreign file z/foreign.txt"}
	if got := problems(t, c.Err()); !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
	if _, err := c.Apply(); err == nil {
		t.Fatal("Apply succeeded")
	}
	sameSnapshot(t, "output", before, snapshot(t, e.root))
	sameSnapshot(t, "state", stateBefore, snapshot(t, e.state))
}

func TestBadTreePaths(t *testing.T) {
	e := newEnv(t)
	tr := files("../up.txt", "x", "a", "file", "a/b", "under a file", "ok.txt", "ok")
	tr["abs"] = tree.Entry{Link: "/etc/passwd"}
	tr["d/up"] = tree.Entry{Link: "../../x"}
	tr["d/in"] = tree.Entry{Link: "../ok.txt"}
	c, err := Plan(e.root, tr, e.opt())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"bad path ../up.txt", "bad path a", "bad path abs", "bad path d/up"}
	if got := problems(t, c.Err()); !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}

func TestStateDirInsideRootRefused(t *testing.T) {
	e := newEnv(t)
	opt := e.opt()
	opt.StateDir = filepath.Join(e.root, ".discgen")
	_, _, err := Write(e.root, files("a.txt", "a"), opt)
	if got := problems(t, err); !slices.Equal(got, []string{"bad state "}) {
		t.Errorf("problems %q", got)
	}
	if _, err := os.Lstat(e.root); !errors.Is(err, fs.ErrNotExist) {
		t.Error("root created despite problem")
	}
	if _, err := Plan(e.root, nil, Options{}); err == nil {
		t.Error("Plan without a state directory succeeded")
	}
}

func TestTempFilesRemovedAfterInterruptedBuild(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n", "d/b.txt", "1\n"), e.opt())
	// Simulate an interrupted build: an incomplete record naming its
	// temporary files, and those files beside the outputs.
	c, _ := Plan(e.root, files("a.txt", "2\n", "d/b.txt", "2\n"), e.opt())
	in := c.intent(nil)
	temps := []string{".discgen-0123456789abcdef.tmp", "d/.discgen-fedcba9876543210.tmp"}
	in.temps = temps
	if _, err := c.writeState(c.recordFile(".rec"), in.marshal(), false, false, false); err != nil {
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
	if err != nil || !rec.complete || len(rec.files["a.txt"]) != 1 || len(rec.temps) != 0 {
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
	if rec, err := readRecord(e.state, e.root); err != nil || !rec.complete || len(rec.files) != 2 || len(rec.files["a.txt"]) != 1 {
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
func readRecord(state, root string) (*record, error) {
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
	recFile := filepath.Join(e.state, filepath.FromSlash(recordBase("public")+".rec"))
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
