package robots

import (
	"strings"
	"testing"
)

// fictSeed is the /robots.txt of the fict.org example in the 1996 draft
// (seed 001, section 4), indentation removed.
const fictSeed = `# /robots.txt for http://www.fict.org/
# comments to webmaster@fict.org

User-agent: unhipbot
Disallow: /

User-agent: webcrawler
User-agent: excite
Disallow: 

User-agent: *
Disallow: /org/plans.html
Allow: /org/
Allow: /serv
Allow: /~mak
Disallow: /
`

// fictPolicy is the same policy as a manifest says it (design section 2).
var fictPolicy = Policy{Groups: []PolicyGroup{
	{Agents: []string{"unhipbot"}, Rules: []PathRule{{Path: "/"}}},
	{Agents: []string{"webcrawler", "excite"}},
	{Agents: []string{"*"}, Rules: []PathRule{
		{Allow: true, Path: "/org/"}, {Allow: true, Path: "/serv"}, {Allow: true, Path: "/~mak"},
		{Path: "/org/plans.html"}, {Path: "/"},
	}},
}}

// fictMatrix is the draft's table: which robots may fetch which URLs.
var fictMatrix = []struct {
	url                      string
	unhip, webcrawler, other bool
}{
	{"http://www.fict.org/", false, true, false},
	{"http://www.fict.org/index.html", false, true, false},
	{"http://www.fict.org/robots.txt", true, true, true},
	{"http://www.fict.org/server.html", false, true, true},
	{"http://www.fict.org/services/fast.html", false, true, true},
	{"http://www.fict.org/services/slow.html", false, true, true},
	{"http://www.fict.org/orgo.gif", false, true, false},
	{"http://www.fict.org/org/about.html", false, true, true},
	{"http://www.fict.org/org/plans.html", false, true, false},
	{"http://www.fict.org/%7Ejim/jim.html", false, true, false},
	{"http://www.fict.org/%7Emak/mak.html", false, true, true},
}

type reading struct {
	name string
	fn   func(f *File, agent, url string) Verdict
}

var readings = []reading{
	{"rfc9309", (*File).Match},
	{"1996", (*File).Match1996},
}

// checkFict checks f against the matrix under one reading; skip names the
// cells the reading is known to answer differently ("other %7Emak").
func checkFict(t *testing.T, f *File, r reading, skip map[string]bool) {
	t.Helper()
	for _, row := range fictMatrix {
		for _, c := range []struct {
			agent string
			want  bool
		}{
			{"UnhipBot/0.1", row.unhip}, {"WebCrawler/3.0", row.webcrawler},
			{"Excite/1.0", row.webcrawler}, {"OtherBot/1.0", row.other},
		} {
			got := r.fn(f, c.agent, row.url)
			key := strings.ToLower(ProductToken(c.agent)) + " " + row.url[len("http://www.fict.org"):]
			if skip[key] {
				if got.Allowed == c.want {
					t.Errorf("%s: %s: expected to differ from the matrix, but agrees", r.name, key)
				}
				continue
			}
			if got.Allowed != c.want {
				t.Errorf("%s: %s %s: allowed=%v (%q line %d), matrix says %v",
					r.name, c.agent, row.url, got.Allowed, got.Rule, got.Line, c.want)
			}
		}
	}
}

func TestFictSeedFile1996(t *testing.T) {
	f := Parse([]byte(fictSeed))
	checkFict(t, f, readings[1], nil)
	// The deciding rule and its line are reported.
	v := f.Match1996("OtherBot", "http://www.fict.org/org/plans.html")
	if v.Rule != "Disallow: /org/plans.html" || v.Line != 12 {
		t.Errorf("deciding rule = %q line %d", v.Rule, v.Line)
	}
}

// Under RFC 9309 (and Google) the seed's own file answers one cell
// differently: the URL /%7Emak/mak.html is compared with its escape intact,
// so "Allow: /~mak" does not match and "Disallow: /" decides. Longest match
// agrees with first match everywhere else on this file.
func TestFictSeedFileRFC9309(t *testing.T) {
	f := Parse([]byte(fictSeed))
	checkFict(t, f, readings[0], map[string]bool{"otherbot /%7Emak/mak.html": true})
	v := f.Match("OtherBot", "http://www.fict.org/org/plans.html")
	if v.Rule != "Disallow: /org/plans.html" || v.Line != 12 {
		t.Errorf("deciding rule = %q line %d", v.Rule, v.Line)
	}
}

// The policy itself, evaluated as RFC 9309 over canonical paths, gives the
// whole matrix.
func TestFictPolicyEvaluate(t *testing.T) {
	checkFict(t, nil, reading{"policy", func(_ *File, a, u string) Verdict { return fictPolicy.Evaluate(a, u) }}, nil)
}

// The emitted file gives the whole matrix under both readings.
func TestFictEmitted(t *testing.T) {
	out, err := Emit(fictPolicy)
	if err != nil {
		t.Fatal(err)
	}
	f := Parse(out)
	for _, r := range readings {
		checkFict(t, f, r, nil)
	}
	want := `User-agent: unhipbot
Disallow: /

User-agent: webcrawler
Disallow:

User-agent: excite
Disallow:

User-agent: *
Disallow: /org/plans.html
Allow: /%7Emak
Allow: /org/
Allow: /serv
Allow: /~mak
Disallow: /
`
	if string(out) != want {
		t.Errorf("emitted:\n%s\nwant:\n%s", out, want)
	}
}
