package adopt

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/sitebuild"
	"github.com/discgen/discgen/tree"
)

var goldenNow = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// writeTree writes a built tree to dir, links included.
func writeTree(t *testing.T, dir string, tr tree.Tree) {
	t.Helper()
	for _, p := range tr.Paths() {
		file := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		e := tr[p]
		var err error
		if e.Link != "" {
			err = os.Symlink(e.Link, file)
		} else {
			err = os.WriteFile(file, e.Data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// compareTrees fails on every file that differs, is missing or is extra.
func compareTrees(t *testing.T, want, got tree.Tree) {
	t.Helper()
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s: missing from the rebuilt tree", p)
		case w.Link != g.Link:
			t.Errorf("%s: link %q, want %q", p, g.Link, w.Link)
		case !bytes.Equal(w.Data, g.Data):
			t.Errorf("%s differs:\n--- built\n%s\n--- rebuilt from the import\n%s", p, w.Data, g.Data)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: extra in the rebuilt tree", p)
		}
	}
}

// siteCases are the manifests whose built trees are imported back: the
// example and every golden case of the build package.
func siteCases(t *testing.T) map[string]sitebuild.Options {
	t.Helper()
	cases := map[string]sitebuild.Options{
		"examples/site.yaml": {Manifest: "../examples/site.yaml"},
	}
	// The golden cases live with the build pipeline's package.
	var dirs []string
	for _, pkg := range []string{"build", "publish"} {
		d, _ := filepath.Glob(filepath.Join("..", pkg, "testdata", "golden", "*", "want"))
		for _, m := range d {
			dirs = append(dirs, filepath.Dir(m))
		}
	}
	if len(dirs) == 0 {
		t.Fatal("no golden cases found")
	}
	for _, dir := range dirs {
		opt := sitebuild.Options{Manifest: filepath.Join(dir, "site.yaml")}
		data, _ := os.ReadFile(filepath.Join(dir, "options"))
		for _, line := range strings.Split(string(data), "\n") {
			key, val, _ := strings.Cut(strings.TrimSpace(line), " ")
			switch key {
			case "manifest":
				opt.Manifest = filepath.Join(dir, val)
			case "env":
				opt.Env = val
			case "robots-symlink":
				opt.RobotsSymlink = true
			}
		}
		cases[filepath.Base(dir)] = opt
	}
	return cases
}

// TestDirRoundTrip builds each site, imports the tree, builds the imported
// manifest and compares the two trees byte for byte.
func TestDirRoundTrip(t *testing.T) {
	for name, opt := range siteCases(t) {
		t.Run(name, func(t *testing.T) {
			opt.Now = goldenNow
			res, diags := sitebuild.Build(opt)
			if res == nil {
				t.Fatalf("the case does not build: %v", diags.Errors())
			}
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, "public"), 0o755)
			writeTree(t, filepath.Join(dir, "public"), res.Tree)
			imp, err := Dir(filepath.Join(dir, "public"), Options{Now: goldenNow})
			if err != nil {
				t.Fatal(err)
			}
			if imp.Diags.HasErrors() {
				t.Errorf("import errors:\n%v", imp.Diags.Errors())
			}
			mf := filepath.Join(dir, "site.yaml")
			if err := os.WriteFile(mf, imp.YAML, 0o644); err != nil {
				t.Fatal(err)
			}
			again, diags := sitebuild.Build(sitebuild.Options{Manifest: mf, Now: goldenNow, RobotsSymlink: imp.RobotsSymlink})
			if again == nil {
				t.Fatalf("the imported manifest does not build:\n%v\n%s", diags, imp.YAML)
			}
			if l := res.Doc.Value.License; l != nil && l.Source != "" {
				// The RSL document is the site's own file, published from
				// license.source, which import does not write (it warns).
				name := strings.TrimPrefix(strings.TrimPrefix(l.URL, "https://www.example.org"), "/")
				if !strings.Contains(fmt.Sprint(imp.Diags), name+": warning: is the RSL document License names") {
					t.Errorf("no warning that %s is left out:\n%v", name, imp.Diags)
				}
				delete(res.Tree, name)
			}
			compareTrees(t, res.Tree, again.Tree)
			if t.Failed() {
				t.Logf("imported manifest:\n%s", imp.YAML)
			}
		})
	}
}
