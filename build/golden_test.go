package build

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/tree"
)

// Golden trees. Each directory of testdata/golden is one case:
//
//	site.yaml        the site manifest, with any tenant manifests and source
//	                 files it names beside it
//	options          optional; one setting a line:
//	                   manifest PATH    build this manifest instead of
//	                                    site.yaml (relative to the case)
//	                   env NAME         build.Options.Env
//	                   robots-symlink   build.Options.RobotsSymlink
//	diagnostics.txt  every error and warning of the build, one a line
//	want/            every file the build produces: the site's tree at the
//	                 top, each tenant's tree under tenants/<its directory
//	                 relative to the manifest's>/; a tree.Entry with a Link is
//	                 a symbolic link
//
// The test builds each case twice (the trees must be identical), then
// compares every file both ways: a file missing from want/ or an extra one
// fails as surely as different bytes. go test -run TestGolden -update
// rewrites diagnostics.txt and want/ from what the build produces.
var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// goldenNow is the build time of every golden case.
var goldenNow = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

const goldenDir = "testdata/golden"

type goldenCase struct {
	name string
	dir  string
	opt  Options
}

func goldenCases(t *testing.T) []goldenCase {
	t.Helper()
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(goldenDir, e.Name())
		c := goldenCase{name: e.Name(), dir: dir, opt: Options{Manifest: filepath.Join(dir, "site.yaml"), Now: goldenNow, Jobs: 3}}
		data, err := os.ReadFile(filepath.Join(dir, "options"))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			key, val, _ := strings.Cut(strings.TrimSpace(line), " ")
			switch key {
			case "":
			case "manifest":
				c.opt.Manifest = filepath.Join(dir, filepath.FromSlash(val))
			case "env":
				c.opt.Env = val
			case "robots-symlink":
				c.opt.RobotsSymlink = true
			default:
				t.Fatalf("%s/options: unknown setting %q", dir, key)
			}
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatalf("no golden cases in %s", goldenDir)
	}
	return cases
}

// goldenTree runs a case and returns everything it produced as one tree
// (site files at the top, tenants under tenants/) and its diagnostics.
func goldenTree(t *testing.T, opt Options) (tree.Tree, string) {
	t.Helper()
	res := Run(opt)
	var diags strings.Builder
	for _, d := range res.Diags {
		diags.WriteString(d.String() + "\n")
	}
	fmt.Fprintf(&diags, "failed tenants: %d\n", res.FailedTenants)
	all := tree.Tree{}
	if res.Site != nil {
		maps.Copy(all, res.Site.Tree)
	}
	mdir, err := filepath.Abs(filepath.Dir(opt.Manifest))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Tenants {
		rel, err := filepath.Rel(mdir, o.Root)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			t.Fatalf("tenant %s: root %s is not below the manifest's directory", o.Manifest, o.Root)
		}
		for p, e := range o.Tree {
			key := path.Join("tenants", filepath.ToSlash(rel), p)
			if _, dup := all[key]; dup {
				t.Fatalf("%s produced twice", key)
			}
			all[key] = e
		}
	}
	return all, diags.String()
}

// readTree reads a want/ directory; a missing one is the empty tree.
func readTree(t *testing.T, root string) tree.Tree {
	t.Helper()
	out := tree.Tree{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == root {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = tree.Entry{Link: target}
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = tree.Entry{Data: data}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeTree(t *testing.T, root string, tr tree.Tree) {
	t.Helper()
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	for _, p := range tr.Paths() {
		e := tr[p]
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if e.Link != "" {
			err = os.Symlink(e.Link, full)
		} else {
			err = os.WriteFile(full, e.Data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// describe shows an entry in a failure message.
func describe(e tree.Entry) string {
	if e.Link != "" {
		return "symlink to " + e.Link
	}
	return fmt.Sprintf("%q", e.Data)
}

// compareTrees reports every difference between got and want.
func compareTrees(t *testing.T, got, want tree.Tree) {
	t.Helper()
	paths := maps.Clone(got)
	maps.Copy(paths, want)
	for _, p := range paths.Paths() {
		g, inGot := got[p]
		w, inWant := want[p]
		switch {
		case !inWant:
			t.Errorf("%s: unexpected file, not in want/:\n%s", p, describe(g))
		case !inGot:
			t.Errorf("%s: missing, want/ has:\n%s", p, describe(w))
		case g.Link != w.Link || !bytes.Equal(g.Data, w.Data):
			t.Errorf("%s differs\n%s", p, lineDiff(describeLines(w), describeLines(g)))
		}
	}
}

func describeLines(e tree.Entry) string {
	if e.Link != "" {
		return "-> " + e.Link + "\n"
	}
	return string(e.Data)
}

// lineDiff marks the lines of want and got that differ, "-" for want
// and "+" for got, with a line of context on each side.
func lineDiff(want, got string) string {
	w, g := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl == gl {
			fmt.Fprintf(&b, "  %q\n", wl)
			continue
		}
		if i < len(w) {
			fmt.Fprintf(&b, "- %q\n", wl)
		}
		if i < len(g) {
			fmt.Fprintf(&b, "+ %q\n", gl)
		}
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			got, diags := goldenTree(t, c.opt)
			again, diags2 := goldenTree(t, c.opt)
			if diags != diags2 {
				t.Errorf("two builds report different diagnostics:\n%s\n%s", diags, diags2)
			}
			if !equalTrees(got, again) {
				t.Errorf("two builds produce different trees")
				compareTrees(t, again, got)
			}
			checkIndexes(t, got)

			want := filepath.Join(c.dir, "want")
			diagFile := filepath.Join(c.dir, "diagnostics.txt")
			if *update {
				writeTree(t, want, got)
				if err := os.WriteFile(diagFile, []byte(diags), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			compareTrees(t, got, readTree(t, want))
			wantDiags, err := os.ReadFile(diagFile)
			if err != nil {
				t.Fatal(err)
			}
			if diags != string(wantDiags) {
				t.Errorf("diagnostics differ\n%s", lineDiff(string(wantDiags), diags))
			}
		})
	}
}

func equalTrees(a, b tree.Tree) bool {
	return maps.EqualFunc(a, b, func(x, y tree.Entry) bool {
		return x.Link == y.Link && bytes.Equal(x.Data, y.Data)
	})
}

// checkIndexes checks index.txt in every autodisc directory of a tree: it
// exists, and lists exactly the other files of its directory, sorted, one
// a line. An autodisc directory with nothing else in it is not produced.
func checkIndexes(t *testing.T, tr tree.Tree) {
	t.Helper()
	dirs := map[string][]string{}
	for p := range tr {
		dir, name := path.Split(p)
		if path.Base(dir) == "autodisc" {
			dirs[dir] = append(dirs[dir], name)
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		var others []string
		for _, n := range dirs[dir] {
			if n != "index.txt" {
				others = append(others, n)
			}
		}
		slices.Sort(others)
		idx, ok := tr[dir+"index.txt"]
		switch {
		case !ok:
			t.Errorf("%s has no index.txt", dir)
		case idx.Link != "":
			t.Errorf("%sindex.txt is a symlink", dir)
		case len(others) == 0:
			t.Errorf("%s holds only index.txt", dir)
		default:
			want := strings.Join(others, "\n") + "\n"
			if string(idx.Data) != want {
				t.Errorf("%sindex.txt is\n%s\nwant the sorted list of its siblings\n%s", dir, idx.Data, want)
			}
		}
	}
}
