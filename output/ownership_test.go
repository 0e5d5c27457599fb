package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/tree"
)

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
