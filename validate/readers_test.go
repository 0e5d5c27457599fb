package validate_test

import (
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/validate"
)

// readerManifests are two manifests on which readers of robots.txt
// disagreed with RFC 9309 without a warning naming them: Python's protego
// (and npm robots-txt-guard) gave googlebot-video the record of bot (the
// longest listed name part of its own), and protego read that record's
// "Allow: /index.html" as allowing "/";
// npm robots-txt-parser, which matches rules anywhere in the URL, met the
// "Allow: /%7Ejoe" that Emit writes beside "/~joe" inside
// /x.html/a/%7Ejoe/x, as long as "Disallow: /x.html", and allowed it.
var readerManifests = map[string]string{
	"protego": `version: 1
site: {url: "https://example.org/"}
agents:
  - names: [bot]
    allow: ["/d%20e", "/index.html", "/index.html/~joe/b", "/org-plans"]
    disallow: ["/"]
  - names: [figtree]
    allow: ["/~joe/"]
    disallow: ["/"]
  - names: ["*"]
    allow: ["/ab/日本/abc/"]
    disallow: ["/abc/p?x=1/%7emak"]
  - names: ["*"]
    allow: ["/caf%C3%A9/org-plans"]
    disallow: ["/"]
`,
	"robots-txt-parser": `version: 1
site: {url: "https://example.org/"}
agents:
  - names: ["*"]
    allow: []
  - names: [news]
    allow: ["/"]
  - names: [googlebot-news]
    allow: ["/abc/e%2Fe/café", "/d%20e/caf%C3%A9", "/x.html/a/~joe/"]
  - names: [webcrawler]
    allow: ["/abc/", "/~joe"]
    disallow: ["/", "/x.html"]
`,
}

// siteWarnings validates src and returns its warnings as "path: message".
func siteWarnings(t *testing.T, src string) []string {
	t.Helper()
	doc, errs := manifest.LoadSite("m.yaml", []byte(src), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	var out []string
	for _, d := range checkSite(doc, validate.Options{Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}) {
		out = append(out, d.Path+": "+d.Message)
	}
	return out
}

// TestReaderDisagreementsWarned: each of the two disagreements is warned
// at the manifest entry that causes it, naming the reader and what it
// does.
func TestReaderDisagreementsWarned(t *testing.T) {
	for _, c := range []struct {
		manifest, at string
		holds        []string
	}{
		// bot, part of googlebot-video's name: protego gives it bot's record.
		{"protego", "agents[0].names[0]: agent bot is part of the name of ", []string{"Googlebot-Video (Google)", "protego", "robots-txt-guard"}},
		// and reads that record's Allow: /index.html as allowing /.
		{"protego", "agents[0].allow[1]: ", []string{"protego", `"/index.html"`, `"/"`}},
		// The %7E spelling of /~joe is as long as Disallow: /x.html.
		{"robots-txt-parser", "agents[3].allow[1]: ", []string{"robots-txt-parser", "webcrawler", `"/%7Ejoe"`, `"/x.html"`}},
	} {
		ws := siteWarnings(t, readerManifests[c.manifest])
		found := false
		for _, w := range ws {
			if !strings.HasPrefix(w, c.at) {
				continue
			}
			all := true
			for _, h := range c.holds {
				all = all && strings.Contains(w, h)
			}
			found = found || all
		}
		if !found {
			t.Errorf("%s: no warning at %q holding %q; warnings:\n%s", c.manifest, c.at, c.holds, strings.Join(ws, "\n"))
		}
	}
}

// TestEnforcedNameLength: an enforced name too long for the servers'
// User-Agent expression is an error at the name, not a failed build.
func TestEnforcedNameLength(t *testing.T) {
	for _, c := range []struct {
		n    int
		want bool
	}{{1024, false}, {1025, true}} {
		src := "version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n  - names: [" + strings.Repeat("a", c.n) + "]\n    disallow: [/]\n    enforce: true\n"
		doc, errs := manifest.LoadSite("m.yaml", []byte(src), "")
		if doc == nil || errs.HasErrors() {
			t.Fatalf("load: %v", errs)
		}
		got := false
		for _, d := range checkSite(doc, validate.Options{}) {
			if d.Path == "agents[0].names[0]" && strings.Contains(d.Message, "1024 bytes") {
				got = d.Severity == diag.Error
			}
		}
		if got != c.want {
			t.Errorf("a name of %d bytes: error %v, want %v", c.n, got, c.want)
		}
	}
}
