package generate

import (
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"go.yaml.in/yaml/v3"
)

// TestDataRecordsReadings checks that the records format means the same to
// a seed 001 reader (first match in file order) and an RFC 9309 reader
// (longest match), for random datasets and disallowed paths drawn from a
// small alphabet so that paths often extend one another.
func TestDataRecordsReadings(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seg := []string{"d", "da", "data", "x", "x.csv"}
	randPath := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteString("/" + seg[rng.IntN(len(seg))])
		}
		if rng.IntN(3) == 0 {
			b.WriteString("/")
		}
		return b.String()
	}
	for i := range 2000 {
		var ds []manifest.Dataset
		for range 1 + rng.IntN(4) {
			ds = append(ds, manifest.Dataset{Path: randPath()})
		}
		var dis []string
		for range rng.IntN(4) {
			dis = append(dis, randPath())
		}
		data := dataRecords(ds, dis)
		f := robots.Parse(data)
		for range 30 {
			u := randPath() + seg[rng.IntN(len(seg))]
			v9309, v1996 := f.Match("anybot", u), f.Match1996("anybot", u)
			if v9309.Allowed != v1996.Allowed {
				t.Fatalf("case %d: %s is %v under RFC 9309 (%s) but %v under seed 001 (%s) in\n%s",
					i, u, v9309.Allowed, v9309.Rule, v1996.Allowed, v1996.Rule, data)
			}
		}
	}
}

func TestDataRecords(t *testing.T) {
	got := string(dataRecords([]manifest.Dataset{
		{Path: "/data/stats", Name: "stats", Title: "Statistics"},
		{Path: "/data/caf%c3%a9s.csv", Title: "Cafés"},
		{Path: "/data/%7eraw.csv"},
	}, []string{"/data/", "/data/stats/drafts/"}))
	want := `User-agent: *
# Cafés
Allow: /data/caf%C3%A9s.csv
Disallow: /data/stats/drafts/
Allow: /data/~raw.csv
# stats: Statistics
Allow: /data/stats
Disallow: /data/
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDataYAMLReadsBack checks the yaml format against values a YAML
// reader could take for something other than the string written: every
// value reads back as the same string, YAML 1.1 booleans (which R's yaml
// package still reads as logicals) are quoted, and no line is folded.
func TestDataYAMLReadsBack(t *testing.T) {
	tricky := []string{
		"yes", "No", "ON", "off", "y", "n", "true", "null", "~", "", "012", "0x1F", "1e3", "1_000",
		".inf", "-.NaN", "2026-01-01", "12:30:00", "1:20", "- item", "key: value", "a #b", "#start",
		"'single'", `"double"`, "[flow]", "{map}", "&anchor", "*alias", "!tag", "|", ">", "@at", "`tick",
		"%percent", "Cafés de la ville", "トマト", " leading space", "trailing space ", "=", "<<",
		strings.Repeat("a long value with spaces ", 12),
	}
	var ds []manifest.Dataset
	for i, s := range tricky {
		ds = append(ds, manifest.Dataset{Path: "/d/" + string(rune('a'+i%26)), Name: s, Title: s, Description: s, Type: "text/csv", License: s})
	}
	site, _ := url.Parse("https://data.example/")
	data, err := dataYAML(ds, site)
	if err != nil {
		t.Fatal(err)
	}
	var back []map[string]any
	if err := yaml.Unmarshal(data, &back); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(back) != len(ds) {
		t.Fatalf("read %d entries, want %d", len(back), len(ds))
	}
	for i, s := range tricky {
		e := back[i]
		for _, key := range []string{"name", "title", "description", "license"} {
			v, present := e[key]
			if s == "" {
				if present {
					t.Errorf("entry %d: empty %s written as %#v", i, key, v)
				}
				continue
			}
			if v != s {
				t.Errorf("entry %d: %s reads back as %#v, want %q", i, key, v, s)
			}
		}
		if e["path"] != "https://data.example/d/"+string(rune('a'+i%26)) || e["type"] != "text/csv" {
			t.Errorf("entry %d: path %v, type %v", i, e["path"], e["type"])
		}
	}
	lines := strings.Split(string(data), "\n")
	for _, b := range []string{"yes", "No", "ON", "off", "y", "n"} {
		if slices.Contains(lines, "  name: "+b) || slices.Contains(lines, "- name: "+b) {
			t.Errorf("%q is written plain; a YAML 1.1 reader takes it for a boolean", b)
		}
	}
	want := 1 // the empty string after the last newline
	for _, s := range tricky {
		want += 2 // path, media_type
		if s != "" {
			want += 4
		}
	}
	if len(lines) != want {
		t.Errorf("%d lines, want %d (one a field): a value was folded or split\n%s", len(lines), want, data)
	}
}

func TestResolveURI(t *testing.T) {
	site, _ := url.Parse("https://www.fict.org/")
	space, _ := url.Parse("https://www.fict.org/~jim/")
	for _, c := range []struct {
		base      *url.URL
		ref, want string
	}{
		{site, "/news.atom", "https://www.fict.org/news.atom"},
		{site, "news.atom", "https://www.fict.org/news.atom"},
		{space, "feed.atom", "https://www.fict.org/~jim/feed.atom"},
		{space, "../~bob/x.png", "https://www.fict.org/~bob/x.png"},
		{space, "/%7Ejim/ic%c3%b4ne.png", "https://www.fict.org/~jim/ic%C3%B4ne.png"},
		{space, "größe.png", "https://www.fict.org/~jim/gr%C3%B6%C3%9Fe.png"},
		{space, "a%2fb", "https://www.fict.org/~jim/a%2Fb"},
		{space, "x?q=caf%c3%a9&y=%7e", "https://www.fict.org/~jim/x?q=caf%C3%A9&y=~"},
		{space, "x#top", "https://www.fict.org/~jim/x#top"},
		{site, "https://cdn.example/a/./b/../c.png", "https://cdn.example/a/c.png"},
		{site, "//cdn.example/i.png", "https://cdn.example/i.png"},
		{site, "HTTPS://CDN.Example/I.png", "https://cdn.example/I.png"},
	} {
		if got := resolveURI(c.base, c.ref); got != c.want {
			t.Errorf("resolveURI(%s, %q) = %q, want %q", c.base, c.ref, got, c.want)
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
