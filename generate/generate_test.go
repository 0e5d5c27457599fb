package generate

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/seal"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/validate"
)

var now = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// load loads and validates a site manifest given inline.
func load(t *testing.T, src string) *model.Site {
	t.Helper()
	doc, errs := manifest.LoadSite("site.yaml", []byte(src), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	return validated(t, doc)
}

// loadUnvalidated loads a site manifest given inline and returns its
// model unvalidated, for the tests of the checks rendering makes of files
// beside the manifest (Options.Dir), which validation without a
// directory leaves to it.
func loadUnvalidated(t *testing.T, src string) *model.Site {
	t.Helper()
	doc, errs := manifest.LoadSite("site.yaml", []byte(src), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	return unvalidated(doc)
}

// validated validates a loaded site manifest and returns its model.
func validated(t *testing.T, doc *manifest.Doc[manifest.Site]) *model.Site {
	t.Helper()
	m, errs := validate.Site(doc, validate.Options{Now: now})
	if m == nil {
		t.Fatalf("validate: %v", errs)
	}
	return m
}

// unvalidated returns the model of a site manifest validation would
// refuse, for the tests of what rendering does without relying on
// validation; only a test may make one (internal/layout).
func unvalidated(doc *manifest.Doc[manifest.Site]) *model.Site {
	return model.NewSite(seal.New(), doc)
}

// TestWellKnownSameFile renders two well-known names that name one file.
// Validation refuses them; rendering must not rely on it.
func TestWellKnownSameFile(t *testing.T) {
	doc, lerrs := manifest.LoadSite("site.yaml", []byte(`version: 1
site: {url: "https://www.example.org/"}
well_known:
  files:
    - {name: gpc.json, content: '{"gpc": true}'}
    - {name: gpc%2Ejson, content: '{"gpc": false}'}
`), "")
	if doc == nil || lerrs.HasErrors() {
		t.Fatalf("load: %v", lerrs)
	}
	tr, errs := Site(unvalidated(doc), Options{Now: now})
	if tr != nil || len(errs.Errors()) != 1 {
		t.Fatalf("tree %v, errors %v: want one error and no tree", tr, errs)
	}
	if got := errs.Errors()[0].String(); !strings.HasPrefix(got, "site.yaml:6:14: well_known.files[1].name: ") {
		t.Errorf("error %q is not at the second name", got)
	}
}

func TestTenantTree(t *testing.T) {
	doc, errs := manifest.LoadTenant("t.yaml", []byte(`version: 1
path: /~al%69ce/
description: Alice
delegations:
  - path: caf%c3%a9/
    inline:
      description: Her café
      delegations:
        - path: menu
          inline: {icons: [m.png]}
`))
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	m, errs := validate.Tenant(doc, mustParse(t, "~*"), validate.AllFiles(), validate.Options{Now: now})
	if m == nil {
		t.Fatalf("validate: %v", errs)
	}
	site := mustURL(t, "https://isp.example/")
	tr, errs := Tenant(m, site)
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	want := map[string]string{
		"autodisc/index.txt":               "description.txt\nsubdirectories.txt\n",
		"autodisc/description.txt":         "Alice\n",
		"autodisc/subdirectories.txt":      "caf%C3%A9/\n",
		"café/autodisc/index.txt":          "description.txt\nsubdirectories.txt\n",
		"café/autodisc/description.txt":    "Her café\n",
		"café/autodisc/subdirectories.txt": "menu/\n",
		"café/menu/autodisc/index.txt":     "icons.txt\n",
		"café/menu/autodisc/icons.txt":     "https://isp.example/~alice/caf%C3%A9/menu/m.png\n",
	}
	for _, p := range tr.Paths() {
		if string(tr[p].Data) != want[p] {
			t.Errorf("%s = %q, want %q", p, tr[p].Data, want[p])
		}
	}
	if len(tr) != len(want) {
		t.Errorf("paths %v, want %d", tr.Paths(), len(want))
	}
}

func mustParse(t *testing.T, s string) pathspace.Space {
	t.Helper()
	sp, err := pathspace.Parse(pathspace.Root(), s)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func TestRobotsSymlink(t *testing.T) {
	doc := load(t, `version: 1
site: {url: "https://www.example.org/"}
agents: [{names: ["*"], disallow: [/private/]}]
delegations:
  - path: /team/
    inline: {agents: [{names: [teambot], disallow: [/team/x/]}]}
`)
	for _, link := range []bool{false, true} {
		tr, errs := Site(doc, Options{Now: now, RobotsSymlink: link})
		if errs.HasErrors() {
			t.Fatal(errs)
		}
		root, copy := tr["autodisc/robots.txt"], tr["robots.txt"]
		switch {
		case link && (root.Link != "../robots.txt" || root.Data != nil):
			t.Errorf("with the option, autodisc/robots.txt is %+v, want a link to ../robots.txt", root)
		case !link && (root.Link != "" || string(root.Data) != string(copy.Data)):
			t.Errorf("without the option, autodisc/robots.txt is %+v, want a copy of %q", root, copy.Data)
		}
		// A delegatee's robots.txt is its own file either way.
		if team := tr["team/autodisc/robots.txt"]; team.Link != "" || !strings.Contains(string(team.Data), "User-agent: teambot") {
			t.Errorf("team/autodisc/robots.txt is %+v", team)
		}
		if idx := string(tr["autodisc/index.txt"].Data); idx != "robots.txt\nsubdirectories.txt\n" {
			t.Errorf("index.txt is %q", idx)
		}
	}
}

// TestInlineUnderFile renders inline delegatees whose directories are
// files of the same tree: an error at the delegation, and no tree.
func TestInlineUnderFile(t *testing.T) {
	doc := load(t, `version: 1
site: {url: "https://www.example.org/"}
agents: [{names: ["*"], disallow: [/private/]}]
delegations:
  - path: /robots.txt/
    inline: {description: not a directory}
  - path: /docs/
    inline:
      description: Docs
      delegations:
        - path: autodisc/index.txt
          inline: {description: nor this}
`)
	tr, errs := Site(doc, Options{Now: now})
	errs.Sort()
	var got []string
	for _, e := range errs.Errors() {
		got = append(got, e.String())
	}
	want := []string{
		"site.yaml:5:11: delegations[0].path: the delegatee's files go in robots.txt/autodisc/, but robots.txt is a file",
		"site.yaml:11:17: delegations[1].inline.delegations[0].path: the delegatee's files go in docs/autodisc/index.txt/autodisc/, but docs/autodisc/index.txt is a file",
	}
	if tr != nil || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tree %v, errors\n%s\nwant no tree and\n%s", tr.Paths(), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	tdoc, lerrs := manifest.LoadTenant("t.yaml", []byte("version: 1\npath: /~alice/\ndescription: Alice\ndelegations:\n  - {path: autodisc/index.txt/, inline: {description: x}}\n"))
	if tdoc == nil || lerrs.HasErrors() {
		t.Fatal(lerrs)
	}
	tm, verrs := validate.Tenant(tdoc, mustParse(t, "~*"), validate.AllFiles(), validate.Options{Now: now})
	if tm == nil {
		t.Fatal(verrs)
	}
	tt, terrs := Tenant(tm, mustURL(t, "https://isp.example/"))
	if tt != nil || len(terrs.Errors()) != 1 || !strings.HasPrefix(terrs.Errors()[0].String(), "t.yaml:5:12: delegations[0].path: the delegatee's files go in autodisc/index.txt/autodisc/, but autodisc/index.txt is a file") {
		t.Errorf("tenant tree %v, errors %v", tt.Paths(), terrs)
	}
}

// A robots.txt past the 500 KiB crawlers read is written, with a warning
// at the agents; a small one draws none.
func TestRobotsSizeWarning(t *testing.T) {
	for _, c := range []struct {
		rules int
		warn  bool
	}{{10, false}, {20000, true}} {
		var b strings.Builder
		b.WriteString("version: 1\nsite: {url: \"https://www.example.org/\"}\nagents:\n  - names: [\"*\"]\n    disallow:\n")
		for i := range c.rules {
			fmt.Fprintf(&b, "      - /a-rather-long-directory-name/number-%06d/\n", i)
		}
		doc := load(t, b.String())
		tr, errs := Site(doc, Options{Now: now})
		if tr == nil {
			t.Fatalf("%d rules: no tree: %v", c.rules, errs)
		}
		warned := false
		for _, d := range errs.Warnings() {
			warned = warned || strings.HasPrefix(d.String(), "site.yaml:4:3: warning: agents: robots.txt is ")
		}
		if warned != c.warn || (len(tr["robots.txt"].Data) > 500<<10) != c.warn {
			t.Errorf("%d rules: %d bytes, warned %v: %v", c.rules, len(tr["robots.txt"].Data), warned, errs)
		}
	}
}

// TestSitemapURLsPercentEncoded: Sitemap lines are written like icon URIs,
// non-ASCII percent-encoded as UTF-8 and escapes normalised, never raw.
func TestSitemapURLsPercentEncoded(t *testing.T) {
	doc := load(t, `version: 1
site: {url: "https://www.example.org/"}
icons: [/café.png]
sitemaps:
  - https://www.example.org/café.xml
  - https://WWW.Example.org/a%7eb/%c3%a9.xml?x=é
`)
	tr, errs := Site(doc, Options{Now: now})
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	robotsTxt := string(tr["robots.txt"].Data)
	for _, want := range []string{
		"Sitemap: https://www.example.org/caf%C3%A9.xml\n",
		"Sitemap: https://www.example.org/a~b/%C3%A9.xml?x=%C3%A9\n",
	} {
		if !strings.Contains(robotsTxt, want) {
			t.Errorf("robots.txt lacks %q:\n%s", want, robotsTxt)
		}
	}
	if icons := string(tr["autodisc/icons.txt"].Data); icons != "https://www.example.org/caf%C3%A9.png\n" {
		t.Errorf("icons.txt = %q", icons)
	}
	for i, c := range robotsTxt {
		if c > 0x7f {
			t.Fatalf("robots.txt holds the non-ASCII %q at byte %d:\n%s", c, i, robotsTxt)
		}
	}
}
