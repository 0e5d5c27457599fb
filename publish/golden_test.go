package publish

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

	"github.com/discgen/discgen/diag"
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
//	diagnostics.txt  every error and warning of the build, one a line, then
//	                 the number of tenants refused
//	want/            every file the build produces: the site's tree at the
//	                 top, each tenant's tree under tenants/<its directory
//	                 relative to the manifest's>/; a tree.Entry with a Link is
//	                 a symbolic link
//
// The test builds each case twice (the trees must be identical), then
// compares every file both ways: a file missing from want/ or an extra one
// fails as surely as different bytes. go test -run TestGolden -update
// rewrites diagnostics.txt and want/ from what the build produces. After
// the build, every autodisc/ directory of every tree must hold an index.txt
// listing exactly its other files, sorted.
//
// The example cases build examples/site.yaml and its tenants where they
// are, not a copy: a change to the example fails here until its golden
// tree is updated with it.
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
	opt.Mode = Render
	var all diag.List
	failed := 0
	trees := tree.Tree{}
	mdir := filepath.Dir(opt.Manifest)
	Run(opt, func(u *Unit) {
		all.Append(u.Diags)
		if u.Kind == Tenant && u.Status >= Refused {
			failed++
		}
		if u.Tree == nil {
			return
		}
		prefix := ""
		if u.Kind == Tenant {
			rel, err := filepath.Rel(mdir, u.Dir)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				t.Errorf("tenant %s: directory %s is not below the manifest's directory", u.Manifest, u.Dir)
				return
			}
			prefix = path.Join("tenants", filepath.ToSlash(rel))
		}
		for p, e := range u.Tree {
			key := path.Join(prefix, p)
			if _, dup := trees[key]; dup {
				t.Errorf("%s produced twice", key)
			}
			trees[key] = e
		}
	})
	all.Sort()
	var diags strings.Builder
	for _, d := range all {
		diags.WriteString(d.String() + "\n")
	}
	fmt.Fprintf(&diags, "failed tenants: %d\n", failed)
	return trees, diags.String()
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
	for _, d := range treeDiffs(got, want) {
		t.Error(d)
	}
}

// treeDiffs lists the differences between got and want, one per path: a
// file only got has, a file only want has, different bytes or link.
func treeDiffs(got, want tree.Tree) []string {
	var out []string
	paths := maps.Clone(got)
	maps.Copy(paths, want)
	for _, p := range paths.Paths() {
		g, inGot := got[p]
		w, inWant := want[p]
		switch {
		case !inWant:
			out = append(out, fmt.Sprintf("%s: unexpected file, not in want/:\n%s", p, describe(g)))
		case !inGot:
			out = append(out, fmt.Sprintf("%s: missing, want/ has:\n%s", p, describe(w)))
		case g.Link != w.Link || !bytes.Equal(g.Data, w.Data):
			out = append(out, fmt.Sprintf("%s differs\n%s", p, lineDiff(describeLines(w), describeLines(g))))
		}
	}
	return out
}

func describeLines(e tree.Entry) string {
	if e.Link != "" {
		return "-> " + e.Link + "\n"
	}
	return string(e.Data)
}

// lineDiff shows how got differs from want, line by line: "-" for a
// line only want has, "+" for one only got has, "  " for a common one
// (a longest common subsequence; golden files are small).
func lineDiff(want, got string) string {
	w, g := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	// lcs[i][j] is the length of a longest common subsequence of w[i:], g[j:].
	lcs := make([][]int, len(w)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(g)+1)
	}
	for i := len(w) - 1; i >= 0; i-- {
		for j := len(g) - 1; j >= 0; j-- {
			if w[i] == g[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j := 0, 0
	for i < len(w) || j < len(g) {
		switch {
		case i < len(w) && j < len(g) && w[i] == g[j]:
			fmt.Fprintf(&b, "  %q\n", w[i])
			i, j = i+1, j+1
		case j < len(g) && (i == len(w) || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(&b, "+ %q\n", g[j])
			j++
		default:
			fmt.Fprintf(&b, "- %q\n", w[i])
			i++
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
	for _, p := range indexProblems(tr) {
		t.Error(p)
	}
}

func indexProblems(tr tree.Tree) []string {
	var out []string
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
			out = append(out, dir+" has no index.txt")
		case idx.Link != "":
			out = append(out, dir+"index.txt is a symlink")
		case len(others) == 0:
			out = append(out, dir+" holds only index.txt")
		default:
			want := strings.Join(others, "\n") + "\n"
			if string(idx.Data) != want {
				out = append(out, fmt.Sprintf("%sindex.txt is\n%s\nwant the sorted list of its siblings\n%s", dir, idx.Data, want))
			}
		}
	}
	return out
}

// TestTreeDiffs checks that the golden comparison misses nothing.
func TestTreeDiffs(t *testing.T) {
	want := tree.Tree{
		"robots.txt":          {Data: []byte("User-agent: *\nDisallow: /\n")},
		"autodisc/index.txt":  {Data: []byte("robots.txt\n")},
		"autodisc/robots.txt": {Link: "../robots.txt"},
		"data.txt":            {Data: []byte("x\n")},
	}
	got := tree.Tree{
		"robots.txt":          {Data: []byte("User-agent: *\nDisallow: /x\n")},
		"autodisc/index.txt":  {Data: []byte("robots.txt\n")},
		"autodisc/robots.txt": {Data: []byte("User-agent: *\nDisallow: /\n")},
		"extra.txt":           {Data: []byte("")},
	}
	diffs := treeDiffs(got, want)
	var heads []string
	for _, d := range diffs {
		heads = append(heads, strings.SplitN(d, "\n", 2)[0])
	}
	wantHeads := []string{
		"autodisc/robots.txt differs",
		"data.txt: missing, want/ has:",
		"extra.txt: unexpected file, not in want/:",
		"robots.txt differs",
	}
	if !slices.Equal(heads, wantHeads) {
		t.Errorf("treeDiffs found\n%s\nwant\n%s", strings.Join(heads, "\n"), strings.Join(wantHeads, "\n"))
	}
	if len(treeDiffs(want, want)) != 0 {
		t.Errorf("a tree differs from itself")
	}
	if d := lineDiff("a\nb\nc\n", "a\nx\nb\nc\n"); d != "  \"a\\n\"\n+ \"x\\n\"\n  \"b\\n\"\n  \"c\\n\"\n  \"\"\n" {
		t.Errorf("lineDiff of an inserted line:\n%s", d)
	}
}

func TestCheckIndexes(t *testing.T) {
	for _, c := range []struct {
		name string
		tr   tree.Tree
		ok   bool
	}{
		{"sorted siblings", tree.Tree{"a/autodisc/index.txt": {Data: []byte("feeds.txt\nicons.txt\n")}, "a/autodisc/icons.txt": {}, "a/autodisc/feeds.txt": {}}, true},
		{"unsorted", tree.Tree{"autodisc/index.txt": {Data: []byte("icons.txt\nfeeds.txt\n")}, "autodisc/icons.txt": {}, "autodisc/feeds.txt": {}}, false},
		{"missing a sibling", tree.Tree{"autodisc/index.txt": {Data: []byte("feeds.txt\n")}, "autodisc/icons.txt": {}, "autodisc/feeds.txt": {}}, false},
		{"no index", tree.Tree{"autodisc/icons.txt": {}}, false},
		{"index alone", tree.Tree{"autodisc/index.txt": {Data: []byte("")}}, false},
	} {
		problems := indexProblems(c.tr)
		if (len(problems) == 0) != c.ok {
			t.Errorf("%s: problems %q", c.name, problems)
		}
	}
}
