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

	"github.com/discgen/discgen/internal/testing/testfs"

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

// mustWrite and mustRead write and read a fixture's files.
var (
	mustWrite = testfs.Write
	mustRead  = testfs.Read
)

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
