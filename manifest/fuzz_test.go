package manifest_test

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/validate"
	"github.com/rogpeppe/go-internal/txtar"
)

// seeds returns the example manifest and the site manifests of the
// validation vectors. It fails the test when it finds too few: a seed
// glob that matches nothing would fuzz from nothing.
func seeds(t testing.TB) [][]byte {
	var out [][]byte
	ex, err := os.ReadFile(filepath.Join("..", "examples", "site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, ex)
	files, err := filepath.Glob(filepath.Join("..", "validate", "testdata", "vectors", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		arc, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range arc.Files {
			if f.Name == "site.yaml" {
				out = append(out, f.Data)
			}
		}
	}
	if len(out) < 10 {
		t.Fatalf("found %d seed manifests, want at least 10", len(out))
	}
	return out
}

// checkDiags fails when a diagnostic is not in the grammar's shape: it
// names file, and is either positioned (line and column from 1) or
// concerns the whole file (no line, no column).
func checkDiags(t *testing.T, file string, list diag.List) {
	t.Helper()
	for _, d := range list {
		switch {
		case d.File != file:
			t.Errorf("diagnostic names file %q, want %q: %s", d.File, file, d)
		case d.Line < 0 || d.Col < 0 || (d.Line == 0) != (d.Col == 0):
			t.Errorf("diagnostic has position %d:%d: %s", d.Line, d.Col, d)
		case d.Message == "":
			t.Errorf("diagnostic has no message: %s", d)
		}
	}
}

// committedSeeds returns how many seed files testdata/fuzz holds for a
// target, and fails when there are none: a seed directory that is not
// found fuzzes from nothing.
func committedSeeds(t testing.TB, target string) int {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("testdata/fuzz/%s holds %d seeds, want at least 10", target, len(files))
	}
	return len(files)
}

// FuzzLoadSite loads arbitrary bytes as a site manifest, with and without
// an environment, validates whatever loads and renders whatever is valid:
// none of it may panic, and every diagnostic is positioned in the file.
// Its seeds are the example, the validation vectors and the committed
// corpus in testdata/fuzz/FuzzLoadSite (hostile shapes among them).
func FuzzLoadSite(f *testing.F) {
	committedSeeds(f, "FuzzLoadSite")
	for _, s := range seeds(f) {
		f.Add(s, "")
		f.Add(s, "staging")
	}
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte, env string) {
		doc, errs := manifest.LoadSite("f.yaml", data, env)
		checkDiags(t, "f.yaml", errs)
		if doc == nil {
			if !errs.HasErrors() {
				t.Fatal("no document and no error")
			}
			return
		}
		if doc.Value == nil || doc.Pos == nil {
			t.Fatal("a document without a value or positions")
		}
		m, list := validate.Site(doc, validate.Options{Now: now})
		checkDiags(t, "f.yaml", list)
		if valid := !list.HasErrors() && !errs.HasErrors(); (m != nil) != valid {
			t.Fatalf("a model %v of a manifest valid %v: load %v, validate %v", m != nil, valid, errs, list)
		}
		if m == nil {
			return
		}
		tree, list := generate.Site(m, generate.Options{Now: now, Dir: t.TempDir()})
		for _, d := range list {
			// Rendering reports some problems about the output tree,
			// which has no file of its own.
			if d.File != "" {
				checkDiags(t, "f.yaml", diag.List{d})
			}
		}
		if tree == nil && !list.HasErrors() {
			t.Fatal("no tree and no error")
		}
	})
}

// FuzzLoadTenant does the same for tenant manifests, validated as found
// under /~*/ with every file granted, and rendered.
func FuzzLoadTenant(f *testing.F) {
	committedSeeds(f, "FuzzLoadTenant")
	files, err := filepath.Glob(filepath.Join("..", "examples", "tenants", "*", "autodisc.yaml"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no example tenants: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	within, err := pathspace.Parse(pathspace.Root(), "/~*/")
	if err != nil {
		f.Fatal(err)
	}
	site, _ := url.Parse("https://example.org/")
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, errs := manifest.LoadTenant("t.yaml", data)
		checkDiags(t, "t.yaml", errs)
		if doc == nil {
			if !errs.HasErrors() {
				t.Fatal("no document and no error")
			}
			return
		}
		m, list := validate.Tenant(doc, within, validate.AllFiles(), validate.Options{})
		checkDiags(t, "t.yaml", list)
		if valid := !list.HasErrors() && !errs.HasErrors(); (m != nil) != valid {
			t.Fatalf("a model %v of a tenant valid %v: load %v, validate %v", m != nil, valid, errs, list)
		}
		if m == nil {
			return
		}
		tree, list := generate.Tenant(m, site)
		checkDiags(t, "t.yaml", list)
		if tree == nil && !list.HasErrors() {
			t.Fatal("no tree and no error")
		}
	})
}

var updateSeeds = flag.Bool("update", false, "rewrite the seeds of testdata/fuzz that TestFuzzSeeds makes")

// TestFuzzSeeds: the committed seed corpus holds the hostile shapes of
// TestBounds, made small, and a few syntax errors, as they are made now;
// a shape added without its seed fails it. -update writes them. (Other
// seeds, such as a crasher go test -fuzz found, are the corpus's too.)
func TestFuzzSeeds(t *testing.T) {
	stale := 0
	write := func(target, name string, args ...any) {
		dir := filepath.Join("testdata", "fuzz", target)
		var b strings.Builder
		b.WriteString("go test fuzz v1\n")
		for _, a := range args {
			switch a := a.(type) {
			case []byte:
				fmt.Fprintf(&b, "[]byte(%q)\n", a)
			case string:
				fmt.Fprintf(&b, "string(%q)\n", a)
			}
		}
		name = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			return '-'
		}, strings.ToLower(name))
		file := filepath.Join(dir, "seed-"+name)
		if !*updateSeeds {
			if got, err := os.ReadFile(file); err != nil || string(got) != b.String() {
				stale++
				t.Errorf("%s: missing or not as the shapes make it now (%v)", file, err)
			}
			return
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		if stale > 0 {
			t.Logf("%d seeds to write: go test ./manifest -run TestFuzzSeeds -update", stale)
		}
	}()
	small := func(s shape) (data []byte) {
		for _, n := range []int{50, 200, 2000} {
			func() {
				defer func() { _ = recover() }() // a size too small for the shape
				if d := s.make(n); len(d) <= 64<<10 {
					data = d
				}
			}()
			if data != nil {
				return data
			}
		}
		return nil
	}
	for _, s := range shapes {
		data := small(s)
		if data == nil {
			continue
		}
		if s.tenant {
			write("FuzzLoadTenant", s.name, data)
		} else {
			write("FuzzLoadSite", s.name, data, "")
		}
	}
	for name, src := range map[string]string{
		"star":       "version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n  - names: [*]\n",
		"tab":        "version: 1\nsite:\n\turl: x\n",
		"unclosed":   "version: 1\nsite: {url: \"https://example.org/\"\n",
		"env":        "version: 1\nsite: {url: \"https://example.org/\"}\nenvironments:\n  staging: {agents: [{names: [\"*\"], disallow: [/]}]}\n",
		"merge":      "version: 1\nsite: &s {url: \"https://example.org/\"}\nagents:\n  - &a {names: [a], disallow: [/x]}\n  - <<: *a\n    names: [b]\n",
		"inline":     "version: 1\nsite: {url: \"https://example.org/\"}\ndelegations:\n  - path: /p/\n    inline: {description: d, delegations: [{path: q/, inline: {icons: [/i.png]}}]}\n",
		"well-known": "version: 1\nsite: {url: \"https://example.org/\"}\nwell_known:\n  files: [{name: a.json, content: \"{}\"}]\n",
		"expect":     "version: 1\nsite: {url: \"https://example.org/\"}\nagents: [{names: [a], disallow: [/x*y$]}]\nexpect: [{agent: a, allowed: [/z], disallowed: [/x1y]}]\n",
	} {
		write("FuzzLoadSite", name, []byte(src), "")
		if name == "env" {
			write("FuzzLoadSite", name+"-staging", []byte(src), "staging")
		}
	}
	for name, src := range map[string]string{
		"plain":    "version: 1\npath: /~a/\ndescription: A\nicons: [/~a/i.png]\n",
		"agents":   "version: 1\npath: /~a/\nagents: [{names: [\"*\"], disallow: [/~a/private/]}]\n",
		"inline":   "version: 1\npath: /~a/\ndelegations: [{path: b/, only: [feeds.txt], inline: {feeds: [{url: f.atom}]}}]\n",
		"files":    "version: 1\npath: /~a/\nfiles: {x-a.txt: [a, b]}\n",
		"bad path": "version: 1\npath: /~a/../~b/\n",
		"star":     "version: 1\npath: /~a/\nagents:\n  - names:\n      - *\n",
	} {
		write("FuzzLoadTenant", name, []byte(src))
	}
}

func TestSeedsLoad(t *testing.T) {
	// The example manifest is valid under each of its environments.
	ex := seeds(t)[0]
	for _, env := range []string{"", "staging"} {
		doc, errs := manifest.LoadSite("site.yaml", ex, env)
		if errs.HasErrors() {
			t.Fatalf("env %q: %v", env, errs)
		}
		if _, errs := validate.Site(doc, validate.Options{Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}); errs.HasErrors() {
			t.Fatalf("env %q: %v", env, errs)
		}
	}
}
