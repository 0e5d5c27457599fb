package output

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/discgen/discgen/output/internal/record"
)

// A plan refused both for a state directory inside the root and for a
// problem another build may have caused is made again under the lock
// when another build wrote the record since: the plan made again still
// refuses the state directory, and Apply writes nothing in the root.
func TestReplanKeepsStateInsideRoot(t *testing.T) {
	e := newEnv(t)
	// a.txt was written by a build keeping its record elsewhere: for a
	// build with the state directory inside the root, it is foreign.
	apply(t, e, files("a.txt", "old\n"), Options{StateDir: e.state, Record: "site", NoSync: true})
	inside := filepath.Join(e.root, ".discgen")
	opt := Options{StateDir: inside, Record: "site", NoSync: true}
	c, err := Plan(e.root, files("a.txt", "new\n"), opt)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, want := problems(t, c.Err()), []string{"bad state ", "foreign file a.txt"}; !slices.Equal(got, want) {
		t.Fatalf("first plan's problems = %q, want %q", got, want)
	}
	// Another build writes the record the plan found missing, owning
	// a.txt: Apply plans the root again under the lock.
	rec := record.Base("site") + ".rec"
	b, err := os.ReadFile(filepath.Join(e.state, filepath.FromSlash(rec)))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(inside, filepath.FromSlash(rec)), string(b))

	before := snapshot(t, e.root)
	_, err = c.Apply()
	if err == nil {
		t.Fatalf("Apply with the state directory inside the root succeeded; a.txt = %q", mustRead(t, e.path("a.txt")))
	}
	if got := problems(t, err); !slices.Contains(got, "bad state ") {
		t.Errorf("Apply's problems = %q, want the state directory's", got)
	}
	sameSnapshot(t, "root after the refused Apply", before, snapshot(t, e.root))
}

// Plan refuses a state directory inside the root when it makes a plan
// again through the first plan's open root (Options.root), as when it
// opens the root by path; only a root the caller opened (Options.Dir)
// is the caller's to keep it out of.
func TestPlanAgainChecksStateInsideRoot(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "old\n"), e.opt())
	first, err := Plan(e.root, files("a.txt", "new\n"), e.opt())
	if err != nil || first.Err() != nil {
		t.Fatal(err, first.Err())
	}
	defer first.Close()
	opt := Options{StateDir: filepath.Join(e.root, ".discgen"), Record: "site", NoSync: true, root: first.r}
	c, err := Plan(e.root, files("a.txt", "new\n"), opt)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := c.Err(); got == nil || !slices.Contains(problems(t, got), "bad state ") {
		t.Errorf("plan made again with the state directory inside the root: %v", got)
	}
}

// A state directory named through a symlink into the root is inside it
// too: the paths are compared again with their symlinks resolved, the
// state directory's as far as it exists.
func TestPlanStateThroughSymlinkInsideRoot(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(e.root, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(filepath.Dir(e.root), "elsewhere")
	if err := os.Symlink(e.root, link); err != nil {
		t.Fatal(err)
	}
	for _, state := range []string{filepath.Join(link, ".discgen"), link} {
		c, err := Plan(e.root, files("a.txt", "a\n"), Options{StateDir: state, Record: "site", NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Err(); got == nil || !slices.Contains(problems(t, got), "bad state ") {
			t.Errorf("state %s, a symlink into the root: %v, want the state directory refused", state, got)
		}
		c.Close()
	}
}
