package generate

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/policypage"
)

const policySite = `version: 1
site:
  url: https://example.org/
policy_page: /about/crawler-policy.html
usage: {train_ai: "no", search: "yes"}
agents:
  - presets: [ai-training]
    except_agents: [CCBot, GPTBot]
    allow: [/]
    throttle: {rate: 1/s, burst: 10}
  - names: [GPTBot]
    disallow: [/]
    enforce: true
  - names: [Googlebot]
    verified: true
    disallow: [/drafts/]
    usage: {paths: [{path: /blog/, train_ai: "yes"}]}
  - names: [ExampleBot, Googlebot-Image]
    disallow: [/private/]
    allow: [/private/press/]
    inherit_wildcard: true
  - names: ["*"]
    disallow: [/tmp/]
`

func policyCrawler(t *testing.T, p *policypage.Page, name string) policypage.Crawler {
	t.Helper()
	for _, s := range p.Sections {
		for _, c := range s.Crawlers {
			if c.Name == name {
				return c
			}
		}
	}
	t.Fatalf("no row for %s", name)
	return policypage.Crawler{}
}

// TestPolicyPage: each crawler's row says what the groups that name it
// say (the "*" group's for those none names), its usage preferences and
// what the server does: refused, throttled, verified.
func TestPolicyPage(t *testing.T) {
	doc, errs := manifest.LoadSite(filepath.Join(t.TempDir(), "site.yaml"), []byte(policySite), "")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	now := time.Date(2026, 11, 28, 23, 30, 0, 0, time.FixedZone("x", -5*3600))
	p := PolicyPage(doc.Value, now)
	if p.Built != "2026-11-29" || p.Catalogue == "" {
		t.Errorf("dated %q, catalogue %q", p.Built, p.Catalogue)
	}
	for _, c := range []struct {
		name, fetch, rules, use, status string
	}{
		{"GPTBot", "none", "Disallow: /", "search=yes, train_ai=no", "refused"},
		{"CCBot", "some", "Disallow: /tmp/", "search=yes, train_ai=no", ""},
		{"Bytespider", "all", "Allow: /", "search=yes, train_ai=no", "throttled"},
		{"Googlebot", "some", "Disallow: /drafts/", "search=yes, train_ai=no", "verified"},
		{"ExampleBot", "some", "Allow: /private/press/|Disallow: /private/|Disallow: /tmp/", "search=yes, train_ai=no", ""},
		{"Googlebot-Image", "some", "Allow: /private/press/|Disallow: /private/|Disallow: /tmp/", "search=yes, train_ai=no", ""},
	} {
		got := policyCrawler(t, p, c.name)
		if got.Fetch != c.fetch || strings.Join(got.Rules, "|") != c.rules || !sameWords(got.Use, c.use) || strings.Join(got.Status(), " ") != c.status {
			t.Errorf("%s: %+v, want fetch %s rules %s use %s status %q", c.name, got, c.fetch, c.rules, c.use, c.status)
		}
	}
	if g := policyCrawler(t, p, "Googlebot"); strings.Join(g.UsePaths, "|") != "/blog/: train_ai=yes" {
		t.Errorf("Googlebot's usage by path: %q", g.UsePaths)
	}
	if b := policyCrawler(t, p, "Bytespider"); b.Throttle != "1/s, burst 10" || b.Operator != "ByteDance" {
		t.Errorf("Bytespider: %+v", b)
	}
	if e := policyCrawler(t, p, "ExampleBot"); e.Operator != "not in the catalogue" {
		t.Errorf("ExampleBot's operator %q", e.Operator)
	}
	if e := policyCrawler(t, p, "Googlebot-Image"); e.Operator != "Google" {
		t.Errorf("Googlebot-Image's operator %q (the search list's)", e.Operator)
	}
	if last := p.Sections[len(p.Sections)-1]; last.ID != "named" || len(last.Crawlers) != 2 {
		t.Errorf("last section %s with %d crawlers, want named with ExampleBot and Googlebot-Image", last.ID, len(last.Crawlers))
	}
	if p.Others.Fetch != "some" || strings.Join(p.Others.Rules, "|") != "Disallow: /tmp/" {
		t.Errorf("others %+v", p.Others)
	}
	if !slices.Equal(p.Refused, []string{"GPTBot"}) || !slices.Equal(p.Verified, []string{"Googlebot"}) || len(p.Throttled) < 20 || slices.Contains(p.Throttled, "CCBot") {
		t.Errorf("refused %v, verified %v, throttled %v", p.Refused, p.Verified, p.Throttled)
	}

	tr, errs := Site(validated(t, doc), Options{Now: now})
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	data := tr["about/crawler-policy.html"].Data
	again, _ := Site(validated(t, doc), Options{Now: now})
	if len(data) == 0 || !bytes.Equal(data, again["about/crawler-policy.html"].Data) {
		t.Fatalf("the page is not in the tree or differs between two builds (%d bytes)", len(data))
	}
	for _, want := range []string{`<time datetime="2026-11-29">`, `data-name="GPTBot" data-fetch="none" data-status="refused"`, "throttled: 1/s, burst 10"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if bytes.Contains(data, []byte("<script")) {
		t.Error("the page holds a script")
	}
}

func sameWords(got, want string) bool {
	g, w := strings.Split(got, ", "), strings.Split(want, ", ")
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w)
}

// TestPolicyPageCollides: a policy page below a file the build writes is
// an error at policy_page, not a tree that cannot be written.
func TestPolicyPageCollides(t *testing.T) {
	src := "version: 1\nsite: {url: \"https://example.org/\"}\npolicy_page: /robots.txt/p.html\nagents:\n  - names: [\"*\"]\n    disallow: [/x/]\n"
	doc, errs := manifest.LoadSite(filepath.Join(t.TempDir(), "site.yaml"), []byte(src), "")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	_, errs = Site(unvalidated(doc), Options{Now: time.Now()})
	if len(errs) != 1 || errs[0].Line != 3 || errs[0].Path != "policy_page" || !strings.Contains(errs[0].Message, "lies below /robots.txt") {
		t.Errorf("errors %v", errs)
	}
}
