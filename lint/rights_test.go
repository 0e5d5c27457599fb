package lint

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/robots"
)

func TestRobotsLicenses(t *testing.T) {
	// Line 5 stands after its group's rules, but RFC 9309 reads the group
	// up to the next User-agent line (line 7): it is in the group as much
	// as line 3 is. Line 10, after the last group and a blank line, is in
	// none (where discgen writes it).
	data := []byte("License: https://example.org/a.xml\nUser-agent: a\nLicense: /license.xml\nDisallow: /x\nLicense: https://example.org/k.xml\n\nUser-agent: b\nDisallow: /y\n\nLicense: https://example.org/l.xml\n")
	var got []string
	for _, d := range File(data, Robots, Options{}) {
		got = append(got, d.String())
	}
	want := []string{
		":3:1: L001: License \"/license.xml\" is not an absolute http(s) URL: RSL 1.0 readers need the licence's full URL, with scheme and host",
		":3:1: warning: L003: License is inside a group: RSL 1.0 makes it global, but a reader may take it for this group's crawlers alone; put it after the last group, a blank line between (a License line before the first User-agent line is in no group either, but Ruby's webrobots cannot parse the file then)",
		":3:1: warning: L002: a second License line (the first is line 1): a reader that takes one licence may take either; give the site's licence once",
		":5:1: warning: L003: License is inside a group: RSL 1.0 makes it global, but a reader may take it for this group's crawlers alone; put it after the last group, a blank line between (a License line before the first User-agent line is in no group either, but Ruby's webrobots cannot parse the file then)",
		":5:1: warning: L002: a second License line (the first is line 1): a reader that takes one licence may take either; give the site's licence once",
		":10:1: warning: L002: a second License line (the first is line 1): a reader that takes one licence may take either; give the site's licence once",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTDMRepDetected(t *testing.T) {
	if k := Detect("site/.well-known/tdmrep.json", []byte("[]")); k != TDMRep {
		t.Fatalf("Detect = %s", k)
	}
	ds := File([]byte(`[{"location": "/", "tdm-reservation": 1}, {"location": "/open/", "tdm-reservation": 0, "tdm-policy": "policy"}]`), TDMRep, Options{})
	var got []string
	for _, d := range ds {
		got = append(got, d.String())
	}
	want := ":1:102: T001: tdm-policy \"policy\" is not an absolute http(s) URL\n" +
		":1:43: warning: T001: location \"/open/\" overlaps \"/\" at 1:2, which comes first: a reader takes the first match, so the shorter location decides where both match; list the more specific first"
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

// License lines past the lines lint checks are not checked either: a file
// of License lines alone drew three findings a line, past any bound.
func TestRobotsLicensesBound(t *testing.T) {
	data := []byte("User-agent: *\nDisallow: /\n" + strings.Repeat("License: x\n", robots.MaxLintLines+10))
	cut := 0
	last := 0
	codes := map[string]int{}
	for _, d := range File(data, Robots, Options{}) {
		if d.Code == robots.CodeTooManyLines {
			cut = d.Line
			continue
		}
		codes[d.Code]++
		last = max(last, d.Line)
	}
	// L001 and L002 on each line: a thousand of each listed, and one line
	// with the count of the others.
	if codes[CodeLicenseRelative] != robots.MaxListed+1 || codes[CodeLicenseRepeated] != robots.MaxListed+1 {
		t.Errorf("findings by code: %v, want %d of L001 and L002", codes, robots.MaxListed+1)
	}
	if want := robots.MaxLintLines + 1; cut != want {
		t.Fatalf("the bound is reported on line %d, want %d", cut, want)
	}
	if last >= cut {
		t.Errorf("a finding on line %d, past the bound on line %d", last, cut)
	}
}
