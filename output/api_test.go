package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/output/internal/record"
	"github.com/discgen/discgen/tree"
)

// With Options.Dir, Plan and Apply work through the opened directory and
// never look the root up by path: the name given is only for messages.
func TestDirOptionWritesThroughOpenedRoot(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(e.root, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(e.root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	name := filepath.Join(e.base, "not-there", "alice")
	opt := e.opt()
	opt.Dir, opt.Record = r, "alice"
	c, err := Plan(name, files("autodisc/index.txt", "i\n", "robots.txt", "r\n"), opt)
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	if _, err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	if mustRead(t, e.path("autodisc/index.txt")) != "i\n" {
		t.Error("not written through Dir")
	}
	if _, err := os.Lstat(filepath.Join(e.base, "not-there")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the root's name was used as a path")
	}
	// Dir stays open for the caller.
	if _, err := r.Stat("robots.txt"); err != nil {
		t.Errorf("Dir closed by Apply: %v", err)
	}
	if got, err := readRecordNamed(e.state, "alice"); err != nil || len(got.Files) != 2 {
		t.Errorf("record: %+v %v", got, err)
	}
	// Problems and errors name the root as given.
	mustWrite(t, e.path("robots.txt"), "someone's\n")
	c, _ = Plan(name, files("robots.txt", "r2\n"), opt)
	if err := c.Err(); err == nil || !strings.Contains(err.Error(), filepath.Join(name, "robots.txt")+": ") {
		t.Errorf("problem does not name the root as given: %v", err)
	}
}

func readRecordNamed(state, name string) (*record.Record, error) {
	c := &Changes{Root: "x", name: name, opt: Options{StateDir: state}}
	if err := c.loadRecord(); err != nil {
		return nil, err
	}
	return c.rec, nil
}

func TestRecordNames(t *testing.T) {
	e := newEnv(t)
	opt := e.opt()
	opt.Record = "home/alice/public_html"
	apply(t, e, files("a.txt", "a\n"), opt)
	data := mustRead(t, filepath.Join(e.state, record.Base(opt.Record)+".rec"))
	if !strings.HasPrefix(data, "discgen output record 2\nname home/alice/public_html\n") || strings.Contains(data, e.base) {
		t.Errorf("record:\n%s", data)
	}
	for _, bad := range []string{"/abs/path", "a\nb"} {
		opt.Record = bad
		if _, err := Plan(e.root, files("a.txt", "a\n"), opt); err == nil {
			t.Errorf("record name %q accepted", bad)
		}
	}
	// The default name is the root relative to the state directory's
	// parent, even when the state directory lies elsewhere.
	opt.Record = ""
	opt.StateDir = filepath.Join(e.base, "x", "state")
	apply(t, e, files("a.txt", "a\n"), opt)
	if got, err := readRecordNamed(opt.StateDir, "../public"); err != nil || !got.Owns("a.txt", record.FileSum([]byte("a\n"))) {
		t.Errorf("default record name: %+v %v", got, err)
	}
}

func TestFresh(t *testing.T) {
	e := newEnv(t)
	opt := e.opt()
	opt.Key = "manifest v1"
	tr := files("autodisc/index.txt", "i\n", "autodisc/a.txt", "a\n", "robots.txt", "r\n")
	tr["autodisc/robots.txt"] = tree.Entry{Link: "../robots.txt"}
	// Fresh and FreshIn (through the root held open) must agree.
	fresh := func(opt Options) bool {
		t.Helper()
		ok, err := Fresh(e.root, opt)
		if err != nil {
			t.Fatal(err)
		}
		if d, err := confined.OpenTop(e.root); err == nil {
			in, err := FreshIn(e.root, d, opt)
			d.Close()
			if in != ok || err != nil {
				t.Errorf("FreshIn %v, %v; Fresh %v", in, err, ok)
			}
		}
		return ok
	}
	if fresh(opt) {
		t.Fatal("fresh before any build")
	}
	apply(t, e, tr, opt)
	if !fresh(opt) {
		t.Fatal("not fresh right after a build")
	}
	before, stateBefore := snapshot(t, e.root), snapshot(t, e.state)
	fresh(opt)
	sameSnapshot(t, "output", before, snapshot(t, e.root))
	sameSnapshot(t, "state", stateBefore, snapshot(t, e.state))

	other := opt
	other.Key = "manifest v2"
	if fresh(other) {
		t.Error("fresh with another key")
	}
	other.Key = ""
	if fresh(other) {
		t.Error("fresh without a key")
	}
	// A rebuild with a new key and the same tree writes only the cache;
	// it is then fresh for the new key.
	other.Key = "manifest v2"
	c, res := apply(t, e, tr, other)
	if !c.Empty() || res.Unchanged != 4 || !fresh(other) || fresh(opt) {
		t.Errorf("rebuild with a new key: %+v, fresh %v", res, fresh(other))
	}
	sameSnapshot(t, "output", before, snapshot(t, e.root))

	// Any change to an output, even one keeping size and mtime, is seen.
	fi, _ := os.Stat(e.path("autodisc/a.txt"))
	mustWrite(t, e.path("autodisc/a.txt"), "b\n")
	os.Chtimes(e.path("autodisc/a.txt"), fi.ModTime(), fi.ModTime())
	if fresh(other) {
		t.Error("fresh after an output was rewritten with the same size and mtime")
	}
	mustWrite(t, e.path("autodisc/a.txt"), "a\n")
	apply(t, e, tr, other)
	if !fresh(other) {
		t.Fatal("not fresh after rebuilding")
	}
	os.Remove(e.path("autodisc/robots.txt"))
	if fresh(other) {
		t.Error("fresh with an output missing")
	}
	apply(t, e, tr, other)
	// A torn cache (a kill while it was rewritten in place) is ignored.
	cache := filepath.Join(e.state, record.Base("public")+".stat")
	full := mustRead(t, cache)
	if !fresh(other) || !strings.HasSuffix(full, "\nend\n") {
		t.Fatalf("cache:\n%s", full)
	}
	os.WriteFile(cache, []byte(strings.TrimSuffix(full, "end\n")), 0o644)
	if fresh(other) {
		t.Error("fresh with a torn cache")
	}
	os.WriteFile(cache, []byte(full), 0o644)
	// A record replaced (a checkout of another commit) voids the cache.
	rec := filepath.Join(e.state, record.Base("public")+".rec")
	data := mustRead(t, rec)
	os.Remove(rec)
	mustWrite(t, rec, data)
	if fresh(other) {
		t.Error("fresh after the record was replaced")
	}

	// A directory of outputs moved and a symlink put in its place keeps
	// every output's stat; neither is fresh, and the build that follows
	// meets the symlink.
	apply(t, e, tr, other)
	if err := os.Rename(e.path("autodisc"), e.path("moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("moved", e.path("autodisc")); err != nil {
		t.Fatal(err)
	}
	d, err := confined.OpenTop(e.root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if ok, _ := Fresh(e.root, other); ok {
		t.Error("Fresh through a symlinked directory of outputs")
	}
	if ok, _ := FreshIn(e.root, d, other); ok {
		t.Error("FreshIn through a symlinked directory of outputs")
	}
}

// Fresh with Options.Dir stats through it.
func TestFreshThroughDir(t *testing.T) {
	e := newEnv(t)
	os.MkdirAll(e.root, 0o755)
	r, err := os.OpenRoot(e.root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	opt := e.opt()
	opt.Dir, opt.Record, opt.Key = r, "t", "k"
	if _, _, err := Write("tenant t", files("autodisc/index.txt", "i\n"), opt); err != nil {
		t.Fatal(err)
	}
	if ok, err := Fresh("tenant t", opt); !ok || err != nil {
		t.Errorf("Fresh through Dir: %v %v", ok, err)
	}
	os.Remove(e.path("autodisc/index.txt"))
	if ok, _ := Fresh("tenant t", opt); ok {
		t.Error("fresh with the output gone")
	}
}
