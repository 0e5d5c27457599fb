package manifest_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/discgen/discgen/diag"
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

// FuzzLoadSite loads arbitrary bytes as a site manifest, with and without
// an environment, and validates whatever loads: neither may panic, and
// every diagnostic is positioned in the file.
func FuzzLoadSite(f *testing.F) {
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
		checkDiags(t, "f.yaml", validate.Site(doc, validate.Options{Now: now}))
	})
}

// FuzzLoadTenant does the same for tenant manifests, validated as found
// under /~*/ with every file granted.
func FuzzLoadTenant(f *testing.F) {
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
	within, err := pathspace.Parse(pathspace.Root, "/~*/")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, errs := manifest.LoadTenant("t.yaml", data)
		checkDiags(t, "t.yaml", errs)
		if doc == nil {
			if !errs.HasErrors() {
				t.Fatal("no document and no error")
			}
			return
		}
		_, list := validate.Tenant(doc, within, validate.AllFiles(), validate.Options{})
		checkDiags(t, "t.yaml", list)
	})
}

func TestSeedsLoad(t *testing.T) {
	// The example manifest is valid under each of its environments.
	ex := seeds(t)[0]
	for _, env := range []string{"", "staging"} {
		doc, errs := manifest.LoadSite("site.yaml", ex, env)
		if errs.HasErrors() {
			t.Fatalf("env %q: %v", env, errs)
		}
		if errs := validate.Site(doc, validate.Options{Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}); errs.HasErrors() {
			t.Fatalf("env %q: %v", env, errs)
		}
	}
}
