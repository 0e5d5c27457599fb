package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/tree"
)

// plantedCase plants something in the output root, then builds tr with and
// without Replace: each build must fail with the given problems and leave
// both the outside directory and the root exactly as they were.
func checkRefused(t *testing.T, e env, tr tree.Tree, want []string) {
	t.Helper()
	outside, inside := snapshot(t, e.outside), snapshot(t, e.root)
	for _, replace := range []bool{false, true} {
		opt := e.opt()
		opt.Replace = replace
		_, _, err := Write(e.root, tr, opt)
		if got := problems(t, err); !slices.Equal(got, want) {
			t.Errorf("replace=%v: problems %q, want %q", replace, got, want)
		}
		sameSnapshot(t, "outside", outside, snapshot(t, e.outside))
		sameSnapshot(t, "root", inside, snapshot(t, e.root))
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func TestDirSymlinkToOutsideRefused(t *testing.T) {
	e := newEnv(t)
	symlink(t, e.outside, e.path("autodisc"))
	symlink(t, "../outside", e.path(".well-known"))
	tr := files("autodisc/index.txt", "new index\n", "autodisc/secret.txt", "x", ".well-known/security.txt", "Contact: x\n", "robots.txt", "r\n")
	checkRefused(t, e, tr, []string{"symlink .well-known", "symlink autodisc"})
	_, _, err := Write(e.root, tr, e.opt())
	msg := err.Error()
	if !strings.Contains(msg, e.path("autodisc")+": is a symlink to "+e.outside+" ") ||
		!strings.Contains(msg, e.path(".well-known")+": is a symlink to ../outside ") {
		t.Errorf("message does not name the path and its target:\n%s", msg)
	}
	if _, err := os.Lstat(e.path("robots.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("robots.txt written although the plan had problems")
	}
}

func TestFileSymlinkToOutsideRefused(t *testing.T) {
	e := newEnv(t)
	symlink(t, filepath.Join(e.outside, "secret.txt"), e.path("robots.txt"))
	symlink(t, "../../outside/autodisc/index.txt", e.path("autodisc/index.txt"))
	// Even when the tree's bytes equal the target's, the link is not
	// adopted: discgen would later replace or remove it.
	tr := files("robots.txt", "User-agent: *\n", "autodisc/index.txt", "outside index\n")
	checkRefused(t, e, tr, []string{"symlink autodisc/index.txt", "symlink robots.txt"})
}

func TestSymlinkInMiddleOfPathRefused(t *testing.T) {
	e := newEnv(t)
	os.MkdirAll(e.path("a"), 0o755)
	symlink(t, e.outside, e.path("a/b"))
	checkRefused(t, e, files("a/b/autodisc/index.txt", "x\n", "a/c.txt", "c\n"), []string{"symlink a/b"})
}

func TestSymlinkInsideRootAlsoRefused(t *testing.T) {
	e := newEnv(t)
	mustWrite(t, e.path("real/index.txt"), "theirs\n")
	symlink(t, "real", e.path("autodisc"))
	checkRefused(t, e, files("autodisc/index.txt", "ours\n"), []string{"symlink autodisc"})
}

func TestStaleRemovalNeverFollowsPlantedSymlink(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("autodisc/index.txt", "outside index\n", "robots.txt", "r\n"), e.opt())
	// autodisc/ is replaced by a symlink to a directory holding a file
	// with exactly the bytes discgen wrote.
	if err := os.RemoveAll(e.path("autodisc")); err != nil {
		t.Fatal(err)
	}
	symlink(t, e.outside+"/autodisc", e.path("autodisc"))
	checkRefused(t, e, files("robots.txt", "r\n"), []string{"symlink autodisc"})
}

func TestSymlinkOnWayToRootConfinedByWithin(t *testing.T) {
	e := newEnv(t)
	home := filepath.Join(e.base, "home", "alice")
	os.MkdirAll(home, 0o755)
	symlink(t, "../../outside", filepath.Join(home, "public_html"))
	e.root = filepath.Join(home, "public_html")
	opt := e.opt()
	opt.Within = home
	before := snapshot(t, e.outside)
	_, _, err := Write(e.root, files("autodisc/index.txt", "x\n"), opt)
	if got := problems(t, err); !slices.Equal(got, []string{"symlink "}) {
		t.Errorf("problems %q", got)
	}
	sameSnapshot(t, "outside", before, snapshot(t, e.outside))
	// A root outside Within is a usage error.
	opt.Within = filepath.Join(e.base, "home", "bob")
	if _, err := Plan(e.root, nil, opt); err == nil {
		t.Error("root outside Within accepted")
	}
	// A real directory within is fine, and may be missing.
	opt.Within = home
	e.root = filepath.Join(home, "www")
	apply(t, e, files("autodisc/index.txt", "x\n"), opt)
	if mustRead(t, e.path("autodisc/index.txt")) != "x\n" {
		t.Error("write within home failed")
	}
}

// The checks of Plan are policy; os.Root is what confines. A symlink
// planted after Plan must still not let Apply write outside.
func TestSymlinkPlantedAfterPlanStillConfined(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("autodisc/index.txt", "1\n"), e.opt())
	for _, dir := range []string{"autodisc", "fresh"} {
		// autodisc exists when planned; fresh is created by Apply.
		c, err := Plan(e.root, files("autodisc/index.txt", "2\n", "autodisc/new.txt", "n\n", "fresh/x.txt", "x\n"), e.opt())
		if err != nil || c.Err() != nil {
			t.Fatal(err, c.Err())
		}
		os.RemoveAll(e.path(dir))
		symlink(t, e.outside+"/autodisc", e.path(dir))
		before := snapshot(t, e.outside)
		// Planned again under the lock, the symlink is a problem.
		if _, err := c.Apply(); err == nil || !strings.Contains(err.Error(), "escapes") && !strings.Contains(err.Error(), "is a symlink to") {
			t.Errorf("%s: Apply through a symlink to outside: %v", dir, err)
		}
		sameSnapshot(t, "outside", before, snapshot(t, e.outside))
		os.Remove(e.path(dir))
		os.MkdirAll(e.path("autodisc"), 0o755)
	}
}

func TestTreeSymlinks(t *testing.T) {
	e := newEnv(t)
	tr := files("robots.txt", "r\n", "other.txt", "o\n")
	tr["autodisc/robots.txt"] = tree.Entry{Link: "../robots.txt"}
	apply(t, e, tr, e.opt())
	before := snapshot(t, e.root)
	c, _ := apply(t, e, tr, e.opt())
	if !c.Empty() {
		t.Errorf("rebuild not empty:\n%s", kinds(c))
	}
	sameSnapshot(t, "rebuild", before, snapshot(t, e.root))
	// A new target replaces discgen's own link.
	tr["autodisc/robots.txt"] = tree.Entry{Link: "../other.txt"}
	c, _ = apply(t, e, tr, e.opt())
	if got := kinds(c); got != "update autodisc/robots.txt\nunchanged other.txt\nunchanged robots.txt\n" {
		t.Errorf("plan:\n%s", got)
	}
	if target, _ := os.Readlink(e.path("autodisc/robots.txt")); target != "../other.txt" {
		t.Errorf("target %q", target)
	}
	// A link may become a regular file and be removed: it is discgen's.
	tr["autodisc/robots.txt"] = tree.Entry{Data: []byte("r\n")}
	apply(t, e, tr, e.opt())
	if fi, err := os.Lstat(e.path("autodisc/robots.txt")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("not a regular file: %v %v", fi, err)
	}
}

func TestNonDirectoryOnPath(t *testing.T) {
	e := newEnv(t)
	mustWrite(t, e.path("autodisc"), "a file where a directory goes\n")
	os.MkdirAll(e.path("robots.txt"), 0o755)
	checkRefused(t, e, files("autodisc/index.txt", "x", "robots.txt", "r"), []string{"not a directory autodisc", "not a regular file robots.txt"})
}

func TestRootThatIsAFile(t *testing.T) {
	e := newEnv(t)
	mustWrite(t, e.root, "file\n")
	_, _, err := Write(e.root, files("a", "a"), e.opt())
	if got := problems(t, err); !slices.Equal(got, []string{"not a directory "}) {
		t.Errorf("problems %q", got)
	}
}
