package serverconf

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/rsl"
	"github.com/discgen/discgen/tdmrep"
	"github.com/discgen/discgen/tree"
)

// rightsSite has a licence and reservations that need the longest match
// (/open/ under the site's, /open/closed/ under /open/), a policy that a
// longer location without one must not keep, a wildcard with an end
// anchor and a UTF-8 path matched decoded.
func rightsSite() Rights {
	rules := []tdmrep.Rule{
		{Location: "/", Reservation: 1, Policy: "https://www.example.org/tdm-policy.json"},
		{Location: "/open/", Reservation: 0},
		{Location: "/open/closed/", Reservation: 1, Policy: "https://rights.example/closed.json"},
		{Location: "/*.pdf$", Reservation: 0},
		{Location: robots.Canonical("/caf%C3%A9/"), Reservation: 0},
	}
	tdmrep.Sort(rules)
	return Rights{License: "https://www.example.org/license.xml", TDM: rules}
}

// rightsOnlyPaths reserves one path: elsewhere no tdm header at all.
func rightsOnlyPaths() Rights {
	return Rights{TDM: []tdmrep.Rule{{Location: "/open/closed/", Reservation: 1}}}
}

func rightsContent() tree.Tree {
	tr := tree.Tree{}
	for _, p := range []string{"x.txt", "open/x.txt", "open/closed/x.txt", "doc.pdf", "doc.pdf.txt", "café/x.txt", "cafe/x.txt", "index.html"} {
		tr[p] = tree.Entry{Data: []byte("x")}
	}
	return tr
}

// rightsWant is what each path must get: tdm-reservation and tdm-policy
// ("" none) as a reader of tdmrep.json reads them, and the Link header.
type rightsWant struct{ reservation, policy string }

// checkRights requests each path and compares the tdm headers with want
// and with what tdmrep.json says there (tdmrep.Lookup: the two must never
// disagree), and the licence Link.
func checkRightsHeaders(t *testing.T, port int, r Rights, want map[string]rightsWant) {
	t.Helper()
	for _, path := range slices.Sorted(maps.Keys(want)) {
		w := want[path]
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %s", path, resp.Status)
			continue
		}
		file := rightsWant{}
		if rule, ok := tdmrep.Lookup(r.TDM, robots.PathOf(path)); ok {
			file = rightsWant{strconv.Itoa(rule.Reservation), rule.Policy}
		}
		if file != w {
			t.Errorf("%s: tdmrep.json says %+v, the test wants %+v", path, file, w)
		}
		for _, h := range []struct{ name, want string }{{"tdm-reservation", w.reservation}, {"tdm-policy", w.policy}} {
			got := resp.Header.Values(h.name)
			if h.want == "" && len(got) != 0 || h.want != "" && (len(got) != 1 || got[0] != h.want) {
				t.Errorf("%s: %s %q, want %q", path, h.name, got, h.want)
			}
		}
		links := resp.Header.Values("Link")
		if r.License != "" && !slices.Contains(links, LicenseLink(r.License)) {
			t.Errorf("%s: Link %q, want the licence %q", path, links, LicenseLink(r.License))
		}
		if r.License == "" && len(links) != 0 {
			t.Errorf("%s: Link %q, want none", path, links)
		}
	}
}

func liveRights(t *testing.T, serve func(*testing.T, tree.Tree, Access, ...tree.Tree) int) {
	r := rightsSite()
	rendered := tree.Tree{
		"robots.txt":              {Data: []byte("User-agent: *\nDisallow:\n\nLicense: https://www.example.org/license.xml\n")},
		".well-known/tdmrep.json": {Data: tdmrep.Marshal(r.TDM)},
		"license.xml":             {Data: []byte("<rsl xmlns=\"https://rslstandard.org/rsl\"><content url=\"/\" server=\"https://x.example/\"/></rsl>\n")},
	}
	const site, open, closed = "https://www.example.org/tdm-policy.json", "", "https://rights.example/closed.json"
	t.Run("site and paths", func(t *testing.T) {
		checkRightsHeaders(t, serve(t, rendered, Access{Rights: r}, rightsContent()), r, map[string]rightsWant{
			"/":                        {"1", site},
			"/robots.txt":              {"1", site}, // a file discgen names
			"/.well-known/tdmrep.json": {"1", site},
			"/license.xml":             {"1", site},
			"/x.txt":                   {"1", site},
			"/open/x.txt":              {"0", open}, // the site's policy is not kept
			"/open/closed/x.txt":       {"1", closed},
			"/doc.pdf":                 {"0", ""},
			"/doc.pdf.txt":             {"1", site}, // the $ stops the match
			"/caf%C3%A9/x.txt":         {"0", ""},
			"/cafe/x.txt":              {"1", site},
		})
	})
	t.Run("paths only", func(t *testing.T) {
		only := rightsOnlyPaths()
		checkRightsHeaders(t, serve(t, rendered, Access{Rights: only}, rightsContent()), only, map[string]rightsWant{
			"/robots.txt":        {},
			"/x.txt":             {},
			"/open/closed/x.txt": {"1", ""},
		})
	})
	t.Run("escapes", func(t *testing.T) {
		// Percent escapes in the URLs: Apache reads "%" in a header value
		// as the start of a format specifier. (validate refuses "$",
		// which nginx reads as a variable.)
		esc := Rights{License: "https://www.example.org/caf%C3%A9/l%20a.xml?v=%25", TDM: []tdmrep.Rule{
			{Location: "/", Reservation: 1, Policy: "https://rights.example/p%20q.json;a"},
		}}
		checkRightsHeaders(t, serve(t, rendered, Access{Rights: esc}, rightsContent()), esc, map[string]rightsWant{
			"/x.txt": {"1", "https://rights.example/p%20q.json;a"},
		})
	})
	t.Run("the document's type", func(t *testing.T) {
		// RSL 1.0's media type for the published document; its
		// extension's for any other XML file.
		doc := r
		doc.Document = "license.xml"
		src := tree.Tree{"other.xml": {Data: []byte("<x/>")}}
		for p, e := range rendered {
			src[p] = e
		}
		port := serve(t, src, Access{Rights: doc})
		for path, want := range map[string]string{"/license.xml": rsl.MediaType, "/other.xml": "application/xml"} {
			resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := resp.Header.Values("Content-Type"); resp.StatusCode != http.StatusOK || len(got) != 1 || got[0] != want {
				t.Errorf("%s: %s, Content-Type %q, want %q", path, resp.Status, got, want)
			}
		}
	})
	t.Run("with the api-catalog link", func(t *testing.T) {
		lic := Rights{License: r.License}
		port := serve(t, aiTree(), Access{Rights: lic}, homePage)
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/", port))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		links := resp.Header.Values("Link")
		if !slices.Contains(links, LicenseLink(lic.License)) && !slices.Contains(links, HomeLinks(aiTree())[0]+", "+LicenseLink(lic.License)) {
			t.Errorf("/: Link %q, want the licence beside the api-catalog", links)
		}
		if !slices.ContainsFunc(links, func(l string) bool {
			return len(l) >= len(HomeLinks(aiTree())[0]) && l[:len(HomeLinks(aiTree())[0])] == HomeLinks(aiTree())[0]
		}) {
			t.Errorf("/: Link %q, want the api-catalog's too", links)
		}
	})
}

func TestLiveRightsNginx(t *testing.T)  { liveRights(t, serveNginx) }
func TestLiveRightsApache(t *testing.T) { liveRights(t, serveApache) }
func TestLiveRightsCaddy(t *testing.T)  { liveRights(t, serveCaddy) }
