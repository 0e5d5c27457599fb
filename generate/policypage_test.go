package generate

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/policypage"
	"github.com/discgen/discgen/robots"
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
	p := PolicyPage(doc.Value)
	if p.Catalogue != crawlers.Default().Date {
		t.Errorf("dated %q, want the catalogue's %s", p.Catalogue, crawlers.Default().Date)
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
	if i := slices.IndexFunc(p.Sections, func(s policypage.Section) bool { return s.ID == "named" }); i < 0 || len(p.Sections[i].Crawlers) != 2 {
		t.Errorf("sections %v: want one named with ExampleBot and Googlebot-Image", p.Sections)
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
	for _, want := range []string{`<time datetime="` + crawlers.Default().Date + `">`, `data-name="GPTBot" data-fetch="none" data-status="refused"`, "throttled: 1/s, burst 10"} {
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

// policyDoc loads a site manifest for the policy page's tests.
func policyDoc(t *testing.T, src string) *manifest.Doc[manifest.Site] {
	t.Helper()
	doc, errs := manifest.LoadSite(filepath.Join(t.TempDir(), "site.yaml"), []byte(src), "")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	return doc
}

// policyRow is the page's <tr> of name, up to its end.
func policyRow(t *testing.T, page []byte, name string) string {
	t.Helper()
	s := string(page)
	i := strings.Index(s, `data-name="`+name+`"`)
	if i < 0 {
		t.Fatalf("the page has no row for %s", name)
	}
	j := strings.Index(s[i:], "</tr>")
	return s[i : i+j]
}

// TestPolicyPageControlTokens: a control token (Google-Extended,
// Applebot-Extended) never fetches, so a group that slows, refuses or
// verifies its preset does nothing to it: its row says what it controls
// (use, not fetching), with the operator's documentation, and no status
// (validation already refuses verified for it: it has no addresses);
// the summary leaves it out.
func TestPolicyPageControlTokens(t *testing.T) {
	doc := policyDoc(t, `version: 1
site: {url: "https://example.org/"}
policy_page: /crawler-policy.html
agents:
  - presets: [ai-training]
    disallow: [/]
    enforce: true
    throttle: {rate: 1/s, burst: 10}
    acknowledge: [google-partial, substring-name]
  - names: ["*"]
    disallow: [/tmp/]
`)
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	tr, errs := Site(validated(t, doc), Options{Now: now})
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	data := tr["crawler-policy.html"].Data
	p := PolicyPage(doc.Value)
	for _, name := range []string{"Google-Extended", "Applebot-Extended"} {
		c := policyCrawler(t, p, name)
		if len(c.Status()) != 0 || c.Fetch != "never" {
			t.Errorf("%s: fetch %q, status %v; a control token never fetches and is neither refused, throttled nor verified", name, c.Fetch, c.Status())
		}
		for _, l := range [][]string{p.Refused, p.Throttled, p.Verified} {
			if slices.Contains(l, name) {
				t.Errorf("the summary names %s among %v", name, l)
			}
		}
		row := policyRow(t, data, name)
		for _, want := range []string{`data-fetch="never" data-status=""`, "never fetches", "use refused", "as documented at https://"} {
			if !strings.Contains(row, want) {
				t.Errorf("%s's row lacks %q:\n%s", name, want, row)
			}
		}
		if strings.Contains(row, "throttled") || strings.Contains(row, "verified") || strings.Contains(row, "403") {
			t.Errorf("%s's row says the server acts on it:\n%s", name, row)
		}
	}
	if g := policyCrawler(t, p, "GPTBot"); strings.Join(g.Status(), " ") != "refused throttled" {
		t.Errorf("GPTBot, a crawler of the same group: status %v", g.Status())
	}
}

// TestPolicyPageFallback: a crawler whose operator documents that it
// obeys another of its crawlers' groups where no group names it (Applebot
// and Googlebot-Image obey Googlebot's) is given the rules it applies, as
// the report gives them (robots.File.MatchEffective on the robots.txt the
// build writes), with the documentation that says so.
func TestPolicyPageFallback(t *testing.T) {
	doc := policyDoc(t, `version: 1
site: {url: "https://example.org/"}
policy_page: /crawler-policy.html
agents:
  - names: [Googlebot]
    disallow: [/drafts/]
    enforce: true
  - names: ["*"]
    disallow: [/tmp/]
`)
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	tr, errs := Site(validated(t, doc), Options{Now: now})
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	f := robots.Parse(tr["robots.txt"].Data)
	data := tr["crawler-policy.html"].Data
	p := PolicyPage(doc.Value)
	for _, c := range []struct{ name, source string }{
		{"Applebot", "https://support.apple.com/en-us/119829"},
		{"Googlebot-Image", "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers"},
		{"Googlebot-News", "https://developers.google.com/search/blog/2009/12/new-user-agent-for-news"},
	} {
		// The report's reading, as the check against it.
		if v, op := f.MatchEffective(c.name, "/drafts/x"); v.Allowed || op == nil {
			t.Fatalf("%s: the report's reading allows /drafts/x or is RFC 9309's", c.name)
		}
		got := policyCrawler(t, p, c.name)
		// The server refuses by the name a request claims: Googlebot's
		// group refuses Googlebot, not the crawlers that obey it.
		if len(got.Status()) != 0 {
			t.Errorf("%s: status %v, want none", c.name, got.Status())
		}
		if strings.Join(got.Rules, "|") != "Disallow: /drafts/" || got.Fetch != "some" {
			t.Errorf("%s: rules %q fetch %s, want Googlebot's (Disallow: /drafts/)", c.name, got.Rules, got.Fetch)
		}
		row := policyRow(t, data, c.name)
		for _, want := range []string{"obeys the Googlebot group", c.source} {
			if !strings.Contains(row, want) {
				t.Errorf("%s's row lacks %q:\n%s", c.name, want, row)
			}
		}
	}
	if g := policyCrawler(t, p, "Googlebot"); strings.Join(g.Status(), " ") != "refused" {
		t.Errorf("Googlebot: status %v", g.Status())
	}
	if g := policyCrawler(t, p, "bingbot"); strings.Join(g.Rules, "|") != "Disallow: /tmp/" {
		t.Errorf("bingbot, with no documented fallback: %q", g.Rules)
	}
}

// TestPolicyPageDated: the page is dated by the crawler catalogue and
// carries a revision of what it says, so a build on another day writes
// the same bytes (a --check in CI stays clean), and a change of the
// manifest's policy changes the revision.
func TestPolicyPageDated(t *testing.T) {
	build := func(src string, now time.Time) []byte {
		t.Helper()
		tr, errs := Site(validated(t, policyDoc(t, src)), Options{Now: now})
		if errs.HasErrors() {
			t.Fatal(errs)
		}
		return tr["about/crawler-policy.html"].Data
	}
	day1 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	day2 := time.Date(2027, 3, 2, 8, 0, 0, 0, time.UTC)
	a, b := build(policySite, day1), build(policySite, day2)
	if !bytes.Equal(a, b) {
		t.Error("two builds on other days write other pages")
	}
	if !bytes.Contains(a, []byte(`<time datetime="`+crawlers.Default().Date+`">`)) {
		t.Errorf("the page is not dated by the catalogue (%s)", crawlers.Default().Date)
	}
	rev := regexp.MustCompile(`id="revision">([0-9a-f]{12})<`)
	ra := rev.FindSubmatch(a)
	c := build(strings.Replace(policySite, "disallow: [/tmp/]", "disallow: [/tmp/, /old/]", 1), day1)
	rc := rev.FindSubmatch(c)
	if ra == nil || rc == nil || bytes.Equal(ra[1], rc[1]) {
		t.Errorf("revisions %q and %q: a change of policy must change it", ra, rc)
	}
}
