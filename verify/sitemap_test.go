package verify

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/discgen/discgen/tree"
)

const smHead = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// sitemapSite serves the files of a site with sitemaps; a missing one is
// a 404.
func sitemapSite(t *testing.T, files map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old.xml" {
			http.Redirect(w, r, "/pages.xml", http.StatusMovedPermanently)
			return
		}
		if r.URL.Path == "/away.xml" {
			http.Redirect(w, r, "https://elsewhere.example/s.xml", http.StatusFound)
			return
		}
		s, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/xml")
		io.WriteString(w, s)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func sitemapResults(t *testing.T, srv *httptest.Server, robots string) []string {
	t.Helper()
	opt := Options{Origin: srv.URL, Client: srv.Client(), Staging: true,
		Roots: []Root{{Prefix: "/", Tree: tree.Tree{"robots.txt": {Data: []byte(robots)}}}}}
	rs, err := Sitemaps(context.Background(), opt, "https://www.fict.org/")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s %d problems=%q notes=%q", r.Path, r.Status, r.Problems, r.Notes))
	}
	return out
}

func TestVerifySitemaps(t *testing.T) {
	srv := sitemapSite(t, map[string]string{
		"/sitemap.xml": smHead + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://www.fict.org/pages.xml</loc></sitemap>
  <sitemap><loc>https://www.fict.org/nested.xml</loc></sitemap>
  <sitemap><loc>https://www.fict.org/gone.xml</loc></sitemap>
</sitemapindex>
`,
		"/pages.xml":  smHead + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.fict.org/</loc></url></urlset>`,
		"/nested.xml": smHead + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.fict.org/pages.xml</loc></sitemap></sitemapindex>`,
		"/soft404":    "<!doctype html>\n<title>Not found</title>",
	})
	got := sitemapResults(t, srv, `User-agent: *
Disallow:
Sitemap: https://www.fict.org/sitemap.xml
Sitemap: https://www.fict.org/missing.xml
Sitemap: https://www.fict.org/sitemap.xml
Sitemap: https://cdn.example/s.xml
Sitemap: https://www.fict.org/soft404
Sitemap: https://www.fict.org/old.xml
Sitemap: https://www.fict.org/away.xml
`)
	want := []string{
		`/sitemap.xml 200 problems=["4:12: lists https://www.fict.org/nested.xml, itself a sitemap index: an index may list sitemaps only (sitemaps.org), and crawlers skip the nested one"] notes=[]`,
		`/pages.xml 200 problems=[] notes=[]`,
		`/nested.xml 200 problems=[] notes=[]`,
		`/gone.xml 404 problems=["status 404 Not Found, want 200"] notes=[]`,
		`/missing.xml 404 problems=["status 404 Not Found, want 200"] notes=[]`,
		`https://www.fict.org/sitemap.xml 0 problems=[] notes=["Sitemap https://www.fict.org/sitemap.xml is named twice (first at robots.txt line 3): drop this line"]`,
		`https://cdn.example/s.xml 0 problems=[] notes=["Sitemap https://cdn.example/s.xml is on cdn.example, not the site's host www.fict.org: crawlers read it only if cdn.example's own robots.txt names it" "on another host than the site's: not fetched"]`,
		`/soft404 200 problems=["2:1: the root element is <title>, not <urlset> (a sitemap) or <sitemapindex> (an index)"] notes=[]`,
		`/old.xml 200 problems=[] notes=[]`,
		`/away.xml 0 problems=["redirects to https://elsewhere.example/s.xml, outside ` + srv.URL + `: not followed (allow it with --allow-redirect)"] notes=[]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestVerifySitemapLimit: a served sitemap of 50,001 URLs fails at the
// entry past the limit; one of 50,000 passes.
func TestVerifySitemapLimit(t *testing.T) {
	urlset := func(n int) string {
		var b strings.Builder
		b.WriteString(smHead + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for i := range n {
			fmt.Fprintf(&b, "<url><loc>https://www.fict.org/p/%d</loc></url>\n", i)
		}
		b.WriteString("</urlset>\n")
		return b.String()
	}
	srv := sitemapSite(t, map[string]string{"/big.xml": urlset(50_001), "/ok.xml": urlset(50_000)})
	got := sitemapResults(t, srv, "Sitemap: https://www.fict.org/big.xml\nSitemap: https://www.fict.org/ok.xml\n")
	want := []string{
		`/big.xml 200 problems=["50003:1: more than 50000 <url> entries, the protocol's limit: split the file and list the parts in a sitemap index"] notes=[]`,
		`/ok.xml 200 problems=[] notes=[]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
