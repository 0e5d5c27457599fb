package validate_test

import (
	"testing"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/validate"
)

// checkSite returns validate.Site's diagnostics alone.
func checkSite(doc *manifest.Doc[manifest.Site], opt validate.Options) diag.List {
	_, list := validate.Site(doc, opt)
	return list
}

// TestModelOnlyOfValid: validation returns a model with a valid
// manifest's diagnostics (warnings included), and none when the manifest
// draws an error of validate's or of the schema's, which validate's rules
// skip. A tenant's model is in its own space.
func TestModelOnlyOfValid(t *testing.T) {
	opt := validate.Options{Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	for _, c := range []struct {
		name, src string
		model     bool
	}{
		{"valid", "version: 1\nsite: {url: \"https://example.org/\"}\n", true},
		{"a warning", "version: 1\nsite: {url: \"https://example.org/\"}\nagents: [{names: [GPTBot], disallow: [/], crawl_delay: 5}]\n", true},
		{"validate's error", "version: 1\nsite: {url: \"https://example.org/\"}\nagents: [{names: [\"bad bot\"], disallow: [/]}]\n", false},
		{"the schema's error", "version: 1\nsite: {url: \"https://example.org/\"}\nunknown_key: 1\n", false},
		{"a value the schema refused", "version: 1\nsite: {url: \"https://example.org/\"}\nagents: [{names: GPTBot, disallow: [/]}]\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, errs := manifest.LoadSite("site.yaml", []byte(c.src), "")
			if doc == nil {
				t.Fatalf("load: %v", errs)
			}
			m, list := validate.Site(doc, opt)
			if got := m != nil; got != c.model {
				t.Fatalf("model %v, want %v; load: %v; validate: %v", got, c.model, errs, list)
			}
			if c.name == "a warning" && len(list) == 0 {
				t.Errorf("no warning")
			}
			if m != nil && (m.Doc() != doc || m.Value() != doc.Value || m.Pos() != doc.Pos || list.HasErrors()) {
				t.Errorf("the model is not of the document validated, or comes with errors: %v", list)
			}
		})
	}

	within, _ := pathspace.Parse(pathspace.Root(), "/~*/")
	for _, c := range []struct {
		src, space string
	}{
		{"version: 1\npath: /~alice/\ndescription: Alice\n", "/~alice/"},
		{"version: 1\ndescription: Alice\n", ""},       // the path is required under /~*/
		{"version: 1\npath: /~alice/\nicons: 1\n", ""}, // the schema's error
		{"version: 1\npath: /~alice/blog/\n", ""},      // below the delegation's directory
	} {
		doc, errs := manifest.LoadTenant("t.yaml", []byte(c.src))
		if doc == nil {
			t.Fatalf("load: %v", errs)
		}
		m, list := validate.Tenant(doc, within, validate.AllFiles(), opt)
		switch {
		case c.space == "" && m != nil:
			t.Errorf("%q: a model of an invalid tenant in %s; load: %v; validate: %v", c.src, m.Space(), errs, list)
		case c.space != "" && m == nil:
			t.Errorf("%q: no model; load: %v; validate: %v", c.src, errs, list)
		case c.space != "" && (m.Space().String() != c.space || m.Doc() != doc):
			t.Errorf("%q: model in %s, want %s", c.src, m.Space(), c.space)
		}
	}
}
