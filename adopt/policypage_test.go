package adopt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/sitebuild"
)

// importBuilt builds manifest src, writes its tree (with extra files of
// the site's own) and imports it back.
func importBuilt(t *testing.T, src string, extra map[string]string) (*sitebuild.Site, *Result, string) {
	t.Helper()
	dir := t.TempDir()
	mf := filepath.Join(dir, "site.yaml")
	if err := os.WriteFile(mf, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, diags := sitebuild.Build(sitebuild.Options{Manifest: mf, Now: goldenNow})
	if res == nil {
		t.Fatalf("does not build: %v", diags.Errors())
	}
	pub := filepath.Join(dir, "public")
	writeTree(t, pub, res.Tree)
	for p, c := range extra {
		f := filepath.Join(pub, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	imp, err := Dir(pub, Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	return res, imp, pub
}

// TestDirPolicyPage: the policy page discgen wrote into a tree (known by
// the generator tag it carries) becomes policy_page again, and the
// imported manifest builds the same page; a page of the site's own is
// not taken for it.
func TestDirPolicyPage(t *testing.T) {
	src := `version: 1
site: {url: "https://www.example.org/"}
policy_page: /about/crawler-policy.html
agents:
  - names: [GPTBot]
    disallow: [/]
  - names: ["*"]
    disallow: [/tmp/]
`
	res, imp, pub := importBuilt(t, src, map[string]string{
		"index.html":       `<!DOCTYPE html><html><head><meta name="generator" content="discgen"><title>Home</title></head></html>`,
		"a/b/c/other.html": "<!DOCTYPE html><title>x</title>",
	})
	if imp.Site.PolicyPage != "/about/crawler-policy.html" {
		t.Errorf("policy_page %q, want /about/crawler-policy.html\n%s", imp.Site.PolicyPage, imp.YAML)
	}
	if imp.Diags.HasErrors() {
		t.Errorf("import errors:\n%v", imp.Diags.Errors())
	}
	for _, d := range imp.Diags {
		if strings.Contains(d.String(), "crawler-policy") {
			t.Errorf("a warning about the page, which is carried whole: %v", d)
		}
	}
	mf := filepath.Join(filepath.Dir(pub), "imported.yaml")
	if err := os.WriteFile(mf, imp.YAML, 0o644); err != nil {
		t.Fatal(err)
	}
	again, diags := sitebuild.Build(sitebuild.Options{Manifest: mf, Now: goldenNow})
	if again == nil {
		t.Fatalf("the imported manifest does not build:\n%v\n%s", diags, imp.YAML)
	}
	compareTrees(t, res.Tree, again.Tree)
}

// TestDirPolicyPageServerRules: what the page says the server does
// (refuses, throttles, verifies by address) comes from keys no built file
// holds: one warning at the page says so.
func TestDirPolicyPageServerRules(t *testing.T) {
	src := `version: 1
site: {url: "https://www.example.org/"}
policy_page: /crawler-policy.html
agents:
  - names: [GPTBot]
    disallow: [/]
    enforce: true
  - names: [CCBot]
    allow: [/]
    throttle: {rate: 1/s, burst: 10}
`
	_, imp, _ := importBuilt(t, src, nil)
	if imp.Site.PolicyPage != "/crawler-policy.html" {
		t.Errorf("policy_page %q", imp.Site.PolicyPage)
	}
	var got []string
	for _, d := range imp.Diags {
		if strings.Contains(d.String(), "crawler-policy.html") {
			got = append(got, d.String())
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "2 crawlers") || !strings.Contains(got[0], "enforce, throttle and verified") {
		t.Errorf("warnings about the page: %q, want one naming 2 crawlers and the keys", got)
	}
}

// TestDirPolicyPageHostile: a FIFO named like a page is not waited on, a
// symbolic link to the page is not taken for it, and a tree of more
// entries than the walk visits is said so in one warning.
func TestDirPolicyPageHostile(t *testing.T) {
	src := "version: 1\nsite: {url: \"https://www.example.org/\"}\npolicy_page: /z/crawler-policy.html\nagents:\n  - names: [\"*\"]\n    disallow: [/tmp/]\n"
	dir := t.TempDir()
	mf := filepath.Join(dir, "site.yaml")
	if err := os.WriteFile(mf, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, diags := sitebuild.Build(sitebuild.Options{Manifest: mf, Now: goldenNow})
	if res == nil {
		t.Fatalf("does not build: %v", diags.Errors())
	}
	pub := filepath.Join(dir, "public")
	writeTree(t, pub, res.Tree)
	testenv.Mkfifo(t, filepath.Join(pub, "a-fifo.html"))
	if err := os.Symlink("z/crawler-policy.html", filepath.Join(pub, "b-link.html")); err != nil {
		t.Fatal(err)
	}
	imp, err := Dir(pub, Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Site.PolicyPage != "/z/crawler-policy.html" {
		t.Errorf("policy_page %q, want the page's own path", imp.Site.PolicyPage)
	}

	// More entries than the walk visits, before the page (a lower bound
	// than the shipped one, which the test would take seconds to fill).
	defer func(n int) { maxPolicyWalk = n }(maxPolicyWalk)
	maxPolicyWalk = 40
	many := filepath.Join(pub, "y")
	os.Mkdir(many, 0o755)
	for i := range maxPolicyWalk {
		if err := os.WriteFile(filepath.Join(many, fmt.Sprintf("%05d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	imp, err = Dir(pub, Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	for _, d := range imp.Diags {
		if strings.Contains(d.Message, "policy page") {
			warned = append(warned, d.String())
		}
	}
	if imp.Site.PolicyPage != "" || len(warned) != 1 || !strings.Contains(warned[0], fmt.Sprintf("more than %d entries", maxPolicyWalk)) {
		t.Errorf("policy_page %q, warnings %q: want none, and one warning of the bound", imp.Site.PolicyPage, warned)
	}
}
