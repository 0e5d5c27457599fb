package validate_test

import (
	"bytes"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/validate"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want section of each vector in testdata/vectors")

// vectorNow is the time every vector is validated at.
var vectorNow = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// A vector is a txtar archive under testdata/vectors. Its name starts with
// "bad-" (the manifest must draw at least one error) or "good-" (it must
// draw none; warnings are allowed). It holds one manifest, site.yaml or
// tenant.yaml, and a want section with the exact diagnostics, sorted, one
// per line. The archive comment holds "#" comments and settings:
//
//	env: NAME        load the site manifest with --env NAME
//	within: PATH     the delegation space a tenant was found under (default /~*/)
//	only: A B ...    the tenant's delegation lists only these files
//	except: A B ...  the tenant's delegation excepts these files
//
// A tenant's site is https://example.org/.
type vector struct {
	file     string // the archive's path
	kind     string // "site.yaml" or "tenant.yaml"
	manifest []byte
	want     string
	env      string
	within   string
	only     []string
	except   []string
	arc      *txtar.Archive
}

func readVector(t *testing.T, file string) *vector {
	t.Helper()
	arc, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v := &vector{file: file, arc: arc, within: "/~*/"}
	haveWant := false
	for _, f := range arc.Files {
		switch f.Name {
		case "site.yaml", "tenant.yaml":
			if v.kind != "" {
				t.Fatalf("%s: more than one manifest", file)
			}
			v.kind, v.manifest = f.Name, f.Data
		case "want":
			v.want, haveWant = string(f.Data), true
		default:
			t.Fatalf("%s: unexpected section %q", file, f.Name)
		}
	}
	if v.kind == "" {
		t.Fatalf("%s: no site.yaml or tenant.yaml section", file)
	}
	if !haveWant && !*update {
		t.Fatalf("%s: no want section", file)
	}
	for line := range strings.SplitSeq(string(arc.Comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		switch {
		case !ok:
			t.Fatalf("%s: setting %q is not KEY: VALUE", file, line)
		case key == "env":
			v.env = val
		case key == "within":
			v.within = val
		case key == "only":
			v.only = strings.Fields(val)
		case key == "except":
			v.except = strings.Fields(val)
		default:
			t.Fatalf("%s: unknown setting %q", file, key)
		}
	}
	if v.kind == "site.yaml" && (v.only != nil || v.except != nil) {
		t.Fatalf("%s: only and except apply to a tenant.yaml", file)
	}
	return v
}

// run loads and validates the vector's manifest as discgen does.
func (v *vector) run(t *testing.T) diag.List {
	t.Helper()
	// A tenant's site is https://example.org/: its absolute references
	// there are held to its space.
	opt := validate.Options{Now: vectorNow, Site: &url.URL{Scheme: "https", Host: "example.org", Path: "/"}}
	var list diag.List
	switch v.kind {
	case "site.yaml":
		doc, errs := manifest.LoadSite(v.kind, v.manifest, v.env)
		list.Append(errs)
		if doc != nil {
			list.Append(checkSite(doc, opt))
		} else if !errs.HasErrors() {
			t.Errorf("LoadSite returned no document and no error")
		}
	case "tenant.yaml":
		doc, errs := manifest.LoadTenant(v.kind, v.manifest)
		list.Append(errs)
		if doc != nil {
			within, err := pathspace.Parse(pathspace.Root(), v.within)
			if err != nil {
				t.Fatalf("within: %v", err)
			}
			_, errs := validate.Tenant(doc, within, validate.Grant(validate.AllFiles(), v.only, v.except), opt)
			list.Append(errs)
		} else if !errs.HasErrors() {
			t.Errorf("LoadTenant returned no document and no error")
		}
	}
	list.Sort()
	return list
}

func format(list diag.List) string {
	var b strings.Builder
	for _, d := range list {
		fmt.Fprintln(&b, d.String())
	}
	return b.String()
}

func TestVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "vectors", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("testdata/vectors holds no vectors")
	}
	var bad, good int
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txt")
		wantErr := strings.HasPrefix(name, "bad-")
		switch {
		case wantErr:
			bad++
		case strings.HasPrefix(name, "good-"):
			good++
		default:
			t.Errorf("%s: a vector's name starts with bad- or good-", file)
			continue
		}
		t.Run(name, func(t *testing.T) {
			v := readVector(t, file)
			list := v.run(t)
			got := format(list)
			if *update {
				v.save(t, got)
			} else if got != v.want {
				t.Errorf("diagnostics differ\n--- got\n%s--- want\n%s", got, v.want)
			}
			for _, d := range list {
				if d.File != v.kind {
					t.Errorf("diagnostic names file %q, want %q: %s", d.File, v.kind, d)
				}
			}
			switch {
			case wantErr && !list.HasErrors():
				t.Errorf("a bad vector drew no error")
			case !wantErr && list.HasErrors():
				t.Errorf("a good vector drew errors:\n%s", format(list.Errors()))
			}
		})
	}
	t.Logf("%d vectors: %d bad, %d good", bad+good, bad, good)
}

func (v *vector) save(t *testing.T, got string) {
	t.Helper()
	found := false
	for i := range v.arc.Files {
		if v.arc.Files[i].Name == "want" {
			v.arc.Files[i].Data = []byte(got)
			found = true
		}
	}
	if !found {
		v.arc.Files = append(v.arc.Files, txtar.File{Name: "want", Data: []byte(got)})
	}
	data := txtar.Format(v.arc)
	if old, err := os.ReadFile(v.file); err == nil && bytes.Equal(old, data) {
		return
	}
	if err := os.WriteFile(v.file, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
