package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func problems(r Result) string {
	var b strings.Builder
	for _, p := range r.Problems {
		if p.Warning {
			b.WriteString("warning: ")
		}
		fmt.Fprintln(&b, p)
	}
	return b.String()
}

const head = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

func TestRead(t *testing.T) {
	for _, c := range []struct {
		name, in string
		kind     Kind
		want     string
	}{
		{"urlset", head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.fict.org/</loc></url>
  <url><loc> https://www.fict.org/a </loc><lastmod>2026-11-01</lastmod></url>
</urlset>
`, URLSet, ""},
		{"index", head + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://www.fict.org/s1.xml</loc></sitemap>
</sitemapindex>`, Index, ""},
		{"bad locs", head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>/relative</loc></url>
  <url><lastmod>2026-11-01</lastmod></url>
  <url><loc>https://www.fict.org/` + strings.Repeat("a", 2100) + `</loc></url>
</urlset>`, URLSet, `3:8: <loc> "/relative" is not an absolute http(s) URL
4:3: an entry without <loc>
5:8: the <loc> is 2048 characters or more; the protocol allows fewer than 2048
`},
		{"no namespace", `<urlset><url><loc>https://www.fict.org/</loc></url></urlset>`, URLSet, "warning: 1:1: <urlset> is not in the namespace http://www.sitemaps.org/schemas/sitemap/0.9\n"},
		{"url in index", head + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.fict.org/</loc></url>
</sitemapindex>`, Index, "3:3: a <url> in a sitemap index: an index lists <sitemap> entries only\n"},
		{"html", "<!doctype html>\n<html><body>Not found</body></html>", "", "2:1: the root element is <html>, not <urlset> (a sitemap) or <sitemapindex> (an index)\n"},
		{"broken", head + "<urlset>\n  <url><loc>x</url>\n</urlset>", URLSet, "warning: 2:1: <urlset> is not in the namespace http://www.sitemaps.org/schemas/sitemap/0.9\n3:14: not XML: element <loc> closed by </url>\n"},
		{"empty", "", "", "1:1: empty: no urlset or sitemapindex element\n"},
		{"deep", "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">" + strings.Repeat("<a>", 20), URLSet, "1:106: elements nest more than 16 deep\n"},
		{"entity", head + `<!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa">]><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&a;</loc></url></urlset>`, URLSet, ""},
		{"latin1", `<?xml version="1.0" encoding="ISO-8859-1"?><urlset/>`, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Read(strings.NewReader(c.in))
			got := problems(r)
			if c.name == "entity" || c.name == "latin1" {
				if !r.Failed() {
					t.Errorf("accepted: %q", got)
				}
				return
			}
			if r.Kind != c.kind || got != c.want {
				t.Errorf("kind %q, problems:\n%s\nwant %q:\n%s", r.Kind, got, c.kind, c.want)
			}
		})
	}
}

// urlset writes a sitemap of n URLs.
func urlset(n int) []byte {
	var b bytes.Buffer
	b.WriteString(head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range n {
		fmt.Fprintf(&b, "<url><loc>https://www.fict.org/p/%d</loc></url>\n", i)
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func TestLimits(t *testing.T) {
	if r := Read(bytes.NewReader(urlset(MaxEntries))); r.Failed() || r.Entries != MaxEntries {
		t.Errorf("%d URLs: %d entries, %s", MaxEntries, r.Entries, problems(r))
	}
	r := Read(bytes.NewReader(urlset(MaxEntries + 1)))
	want := fmt.Sprintf("%d:1: more than 50000 <url> entries, the protocol's limit: split the file and list the parts in a sitemap index\n", MaxEntries+3)
	if got := problems(r); got != want {
		t.Errorf("%d URLs: %q, want %q", MaxEntries+1, got, want)
	}
	// Over 50 MB uncompressed, gzipped to a few hundred KB: reading
	// stops at the limit.
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(head + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.fict.org/</loc><x>`))
	zw.Write(bytes.Repeat([]byte("a"), MaxBytes))
	zw.Write([]byte("</x></url></urlset>"))
	zw.Close()
	r = Read(&z)
	if got := problems(r); !strings.Contains(got, "larger than 52428800 bytes uncompressed") {
		t.Errorf("50 MB: %q", got)
	}
	// A gzipped sitemap within the limits is read.
	z.Reset()
	zw = gzip.NewWriter(&z)
	zw.Write(urlset(3))
	zw.Close()
	if r := Read(&z); r.Failed() || r.Entries != 3 {
		t.Errorf("gzip: %d entries, %s", r.Entries, problems(r))
	}
	// Problems are bounded.
	var b bytes.Buffer
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for range 300 {
		b.WriteString("<url><loc>x</loc></url>")
	}
	b.WriteString("</urlset>")
	r = Read(&b)
	if len(r.Problems) != MaxProblems+1 || !strings.Contains(r.Problems[MaxProblems].Msg, "200 more problems") {
		t.Errorf("%d problems, last %v", len(r.Problems), r.Problems[len(r.Problems)-1])
	}
}

func TestWalk(t *testing.T) {
	files := map[string]string{
		"https://www.fict.org/index.xml": head + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://www.fict.org/a.xml</loc></sitemap>
  <sitemap><loc>https://www.fict.org/nested.xml</loc></sitemap>
  <sitemap><loc>https://cdn.example/c.xml</loc></sitemap>
  <sitemap><loc>https://www.fict.org/missing.xml</loc></sitemap>
</sitemapindex>`,
		"https://www.fict.org/a.xml":      string(urlset(2)),
		"https://www.fict.org/nested.xml": head + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.fict.org/a.xml</loc></sitemap></sitemapindex>`,
	}
	open := func(u string) (io.ReadCloser, string, error) {
		if strings.HasPrefix(u, "https://cdn.example/") {
			return nil, "", nil
		}
		s, ok := files[u]
		if !ok {
			return nil, u, errors.New("status 404 Not Found, want 200")
		}
		return io.NopCloser(strings.NewReader(s)), u, nil
	}
	fs := Walk("https://www.fict.org/index.xml", open)
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %s %v %s", f.URL, f.Result.Kind, f.Err, strings.TrimSpace(problems(f.Result))))
	}
	want := []string{
		"https://www.fict.org/index.xml sitemapindex <nil> 4:12: lists https://www.fict.org/nested.xml, itself a sitemap index: an index may list sitemaps only (sitemaps.org), and crawlers skip the nested one",
		"https://www.fict.org/a.xml urlset <nil> ",
		"https://www.fict.org/nested.xml sitemapindex <nil> ",
		"https://www.fict.org/missing.xml  status 404 Not Found, want 200 ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if fs := Walk("https://cdn.example/c.xml", open); fs != nil {
		t.Errorf("a URL not looked at: %v", fs)
	}
}

func TestRefs(t *testing.T) {
	refs := []Ref{
		{"https://www.fict.org/sitemap.xml", "robots.txt:1"},
		{"/sitemap.xml", "robots.txt:2"},
		{"https://cdn.example/sitemap.xml", "robots.txt:3"},
		{"https://WWW.fict.org/sitemap.xml", "robots.txt:4"},
	}
	var got []string
	for _, p := range Refs("https://www.fict.org/", refs) {
		got = append(got, fmt.Sprintf("%d %v %s", p.Index, p.Warning, p.Msg))
	}
	want := []string{
		`1 false Sitemap "/sitemap.xml" is not an absolute http(s) URL`,
		"2 true Sitemap https://cdn.example/sitemap.xml is on cdn.example, not the site's host www.fict.org: crawlers read it only if cdn.example's own robots.txt names it",
		"3 true Sitemap https://WWW.fict.org/sitemap.xml is named twice (first at robots.txt:1): drop this line",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
