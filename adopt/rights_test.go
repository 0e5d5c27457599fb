package adopt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A top-level License line was dropped before: it is the site's licence
// now, written back after every group. One inside a group is carried with
// a warning; a relative one and a second one are left out, each at its
// line.
func TestRobotsLicense(t *testing.T) {
	in := "License: https://www.example.org/license.xml\n\nUser-agent: GPTBot\nLicense: /relative.xml\nDisallow: /x\n\nUser-agent: *\nDisallow:\nLicense: https://www.example.org/second.xml\nLicense: https://www.example.org/l.xml?$x\n"
	res, err := Robots("robots.txt", []byte(in), Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Site.License == nil || res.Site.License.URL != "https://www.example.org/license.xml" {
		t.Fatalf("license = %+v\n%s", res.Site.License, res.YAML)
	}
	if !strings.Contains(string(res.YAML), "license:\n  url: https://www.example.org/license.xml\n") {
		t.Errorf("manifest:\n%s", res.YAML)
	}
	for _, g := range res.Site.Agents {
		if len(g.Extensions) > 0 {
			t.Errorf("a License line became an extension of %v", g.Names)
		}
	}
	diags := fmt.Sprint(res.Diags)
	for _, w := range []string{
		"robots.txt:4:1: warning: License: /relative.xml is not an absolute http(s) URL",
		"robots.txt:9:1: warning: License: https://www.example.org/second.xml: a second License line",
		"robots.txt:10:1: warning: License: https://www.example.org/l.xml?$x holds a character discgen does not write into a Link header",
	} {
		if !strings.Contains(diags, w) {
			t.Errorf("no %q in\n%s", w, diags)
		}
	}
	if res.Diags.HasErrors() {
		t.Errorf("errors: %v", res.Diags.Errors())
	}
}

// A hand-written tdmrep.json becomes tdm: a rule a shorter one before it
// hides is left out (a reader never reaches it), the rest carried.
func TestDirTDMRep(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".well-known"), 0o755)
	os.WriteFile(filepath.Join(dir, "robots.txt"), []byte("User-agent: *\nDisallow:\n\nSitemap: https://www.example.org/sitemap.xml\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".well-known", "tdmrep.json"), []byte(`[
  {"location": "/", "tdm-reservation": 1, "tdm-policy": "https://www.example.org/p.json"},
  {"location": "/open/", "tdm-reservation": 0},
  {"location": "/images/", "tdm-reservation": 0}
]
`), 0o644)
	res, err := Dir(dir, Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	tdm := res.Site.TDM
	if tdm == nil || tdm.Reservation == nil || !*tdm.Reservation || tdm.Policy != "https://www.example.org/p.json" || len(tdm.Paths) != 0 {
		t.Fatalf("tdm = %+v\n%s", tdm, res.YAML)
	}
	diags := fmt.Sprint(res.Diags)
	if !strings.Contains(diags, "tdmrep.json:3:1: warning: location /open/ comes after /, which a reader matches first wherever both match: the rule is never read, left out") {
		t.Errorf("diagnostics:\n%s", diags)
	}
	if res.Site.WellKnown != nil {
		t.Errorf("tdmrep.json also kept as a well-known file: %+v", res.Site.WellKnown)
	}
}
