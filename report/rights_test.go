package report

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/sitebuild"
)

// TestBuildRights builds the licence-and-reservation golden case: each
// row shows the licence and the reservation read at its URL, and where
// they come from, in the matrix and on the page.
func TestBuildRights(t *testing.T) {
	res, diags := sitebuild.Build(sitebuild.Options{Manifest: "../publish/testdata/golden/license-tdm/site.yaml", Now: now})
	if res == nil {
		t.Fatal(diags)
	}
	h := generate.SiteRights(res.Model)
	p := Build(Input{Manifest: "site.yaml", Site: res.Doc.Value, Tree: res.Tree, Diags: diags, Rights: &h,
		URLs: []string{"/open-data/x.csv", "/press/"}})
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"/open-data/x.csv": "not reserved (tdm-reservation 0) (tdmrep.json line 12: location /open-data/; the tdm headers say the same)",
		"/press/":          "not reserved (tdm-reservation 0), policy https://www.example.org/press-policy.html (tdmrep.json line 16: location /press/; the tdm headers say the same)",
		"/private/":        "reserved (tdm-reservation 1), policy https://www.example.org/tdm-policy.json (tdmrep.json line 21: location /; the tdm headers say the same)",
	}
	seen := 0
	for _, r := range p.Rows {
		if r.License != "https://www.example.org/license.xml (robots.txt line 8; the Link header)" {
			t.Errorf("%s: licence %q", r.Path, r.License)
		}
		if w, ok := want[r.Path]; ok {
			seen++
			if r.TDM != w {
				t.Errorf("%s: tdm %q, want %q", r.Path, r.TDM, w)
			}
			if !strings.Contains(b.String(), html.EscapeString("TDM: "+w)) {
				t.Errorf("the page does not show %s's reservation", r.Path)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d URLs in the matrix", seen, len(want))
	}
}
