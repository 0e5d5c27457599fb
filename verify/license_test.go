package verify

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
	"github.com/discgen/discgen/tree"
)

// TestVerifyRightsHeaders serves the sample tree with the licence and
// tdm headers right, wrong and missing, and checks what verify says.
func TestVerifyRightsHeaders(t *testing.T) {
	rights := &serverconf.Rights{License: "https://www.example.org/license.xml", TDM: []tdmrep.Rule{
		{Location: "/autodisc/", Reservation: 0},
		{Location: "/", Reservation: 1, Policy: "https://www.example.org/p.json"},
	}}
	serve := func(res func(path string) (string, string), link string) func(http.ResponseWriter, *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			if link != "" {
				w.Header().Add("Link", link)
			}
			if v, p := res(r.URL.Path); v != "" {
				w.Header().Set("tdm-reservation", v)
				if p != "" {
					w.Header().Set("tdm-policy", p)
				}
			}
			return false
		}
	}
	right := func(p string) (string, string) {
		rule, _ := tdmrep.Lookup(rights.TDM, p)
		return strconv.Itoa(rule.Reservation), rule.Policy
	}
	link := serverconf.LicenseLink(rights.License)
	rs := run(t, false, sampleTree(), serve(right, link), Options{Rights: rights})
	if p := problems(rs); len(p) != 1 || !strings.Contains(p["/.well-known/security.txt"], "https") {
		t.Errorf("right headers: problems %v", p)
	}
	for _, r := range rs {
		if len(r.Notes) > 0 {
			t.Errorf("%s: notes %q", r.Path, r.Notes)
		}
	}

	// The site's values everywhere: /autodisc/ is not reserved, and has no
	// policy; and a licence Link to another document.
	wrong := func(p string) (string, string) { return "1", "https://www.example.org/p.json" }
	p := problems(run(t, false, sampleTree(), serve(wrong, `<https://other.example/l.xml>; rel="license"`), Options{Rights: rights}))
	for _, w := range []string{
		`tdm-reservation "1", want "0" as tdmrep.json says for /autodisc/`,
		`tdm-policy "https://www.example.org/p.json", want none as tdmrep.json says for /autodisc/`,
		`Link "<https://other.example/l.xml>; rel=\"license\"", want the licence`,
	} {
		if !strings.Contains(p["/autodisc/index.txt"], w) {
			t.Errorf("wrong headers: no %q in %q", w, p["/autodisc/index.txt"])
		}
	}
	if strings.Contains(p["/robots.txt"], "tdm-") {
		t.Errorf("right at /robots.txt, but: %q", p["/robots.txt"])
	}

	rs = run(t, false, sampleTree(), nil, Options{Rights: rights})
	notes := 0
	for _, r := range rs {
		for _, n := range r.Notes {
			if strings.Contains(n, "no tdm-reservation header") || strings.Contains(n, "no licence Link header") {
				notes++
			}
		}
	}
	if notes != 2*len(rs) || len(problems(rs)) != 1 {
		t.Errorf("missing headers: %d notes for %d files, problems %v", notes, len(rs), problems(rs))
	}
}

// TestVerifyRightsDocumentType checks that verify expects the published
// RSL document as application/rsl+xml (RSL 1.0), and any other XML file by
// its extension.
func TestVerifyRightsDocumentType(t *testing.T) {
	tr := sampleTree()
	tr["licenses/site.xml"] = tree.Entry{Data: []byte("<rsl/>")}
	tr["other.xml"] = tree.Entry{Data: []byte("<x/>")}
	rights := &serverconf.Rights{Document: "licenses/site.xml"}
	serve := func(doc string) func(http.ResponseWriter, *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			switch r.URL.Path {
			case "/licenses/site.xml":
				w.Header().Set("Content-Type", doc)
				w.Write(tr["licenses/site.xml"].Data)
			case "/other.xml":
				w.Header().Set("Content-Type", "application/xml")
				w.Write(tr["other.xml"].Data)
			default:
				return false
			}
			return true
		}
	}
	p := problems(run(t, true, tr, serve("application/rsl+xml"), Options{Rights: rights}))
	if len(p) != 0 {
		t.Errorf("served right: problems %v", p)
	}
	p = problems(run(t, true, tr, serve("application/xml"), Options{Rights: rights}))
	if len(p) != 1 || p["/licenses/site.xml"] != "Content-Type application/xml, want application/rsl+xml" {
		t.Errorf("served by extension: problems %v", p)
	}
}
