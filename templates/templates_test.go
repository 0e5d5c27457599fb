package templates_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/templates"
	"github.com/discgen/discgen/validate"
)

// build validates and generates a manifest, returning its tree's paths.
func build(t *testing.T, data []byte) map[string]bool {
	t.Helper()
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	doc, errs := manifest.LoadSite("site.yaml", data, "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	m, verrs := validate.Site(doc, validate.Options{Now: now})
	if m == nil || len(verrs) > 0 {
		t.Fatalf("validate: %v", verrs)
	}
	tr, errs := generate.Site(m, generate.Options{Now: now, Dir: t.TempDir()})
	if errs.HasErrors() {
		t.Fatalf("generate: %v", errs)
	}
	paths := map[string]bool{}
	for _, p := range tr.Paths() {
		paths[p] = true
	}
	return paths
}

// The starter's api_catalog and llms_txt are placeholders: as written,
// a build publishes neither; with the "# " removed before their lines, as
// the starter says, both build without a diagnostic.
func TestStarterPlaceholders(t *testing.T) {
	const catalog, llms = ".well-known/api-catalog", "llms.txt"
	got := build(t, templates.Starter())
	if got[catalog] || got[llms] {
		t.Errorf("the starter as written publishes %s or %s: %v", catalog, llms, got)
	}
	on := templates.Starter()
	for _, key := range []string{"api_catalog", "llms_txt"} {
		block := regexp.MustCompile(`(?m)^( *)# ` + key + `:\n(?:( *)# (  .*)\n)+`)
		loc := block.FindIndex(on)
		if loc == nil {
			t.Fatalf("no commented %s block in the starter", key)
		}
		uncommented := regexp.MustCompile(`(?m)^( *)# `).ReplaceAll(on[loc[0]:loc[1]], []byte("$1"))
		on = append(append(append([]byte{}, on[:loc[0]]...), uncommented...), on[loc[1]:]...)
	}
	got = build(t, on)
	if !got[catalog] || !got[llms] {
		t.Errorf("the starter with its placeholders turned on does not publish %s and %s: %v\n%s", catalog, llms, got, on)
	}
}
