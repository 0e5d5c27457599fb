package wellknown

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/discgen/discgen/diag"
)

// FuzzLintAdsTxt: the ads.txt lint never panics, and puts every finding
// on a line of the file.
func FuzzLintAdsTxt(f *testing.F) {
	for _, s := range []string{
		"google.com, pub-1, DIRECT, f08c47fec0942fa0\nCONTACT=a@b.org\n",
		AdsTxtPlaceholder + "\n",
		"# MANAGERDOMAIN=x.org\nMANAGERDOMAIN=m.org,US\nMANAGERDOMAIN=n.org,US\n",
		"\ufeffa.com,1,RESELLER;ext\r\nx=y\n,,,,\n\x00\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := strings.Count(s, "\n") + 1
		for _, d := range LintAdsTxt([]byte(s)) {
			if d.Line < 0 || d.Line > n || d.Line > 0 && d.Col < 1 {
				t.Fatalf("%q: finding at %d:%d outside the file's %d lines: %s", s, d.Line, d.Col, n, d.Message)
			}
		}
	})
}

// FuzzAdsTxtRoundTrip: a record and variables CheckAdsTxt accepts render to
// a file the lint finds no error in.
func FuzzAdsTxtRoundTrip(f *testing.F) {
	f.Add("google.com", "pub-1234", "direct", "f08c47fec0942fa0", "ads@fict.org", "m.fict.org,FR")
	f.Add("a-b.org", "12", "RESELLER", "", "https://x.org/a?b=c", "m.org")
	f.Fuzz(func(t *testing.T, domain, account, rel, cert, contact, manager string) {
		a := AdsTxt{Records: []AdsRecord{{domain, account, rel, cert}}, Contact: []string{contact}, ManagerDomain: []string{manager}}
		for _, v := range []string{domain, account, rel, cert, contact, manager} {
			// Invalid UTF-8, line breaks and controls are refused in every
			// manifest value before these checks (validate.lineSafe).
			if !utf8.ValidString(v) || strings.ContainsAny(v, "\r\n\x00") || strings.IndexFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0xfeff }) >= 0 {
				return
			}
		}
		for _, fd := range CheckAdsTxt(a) {
			if !fd.Warning {
				return
			}
		}
		data := RenderAdsTxt(a, "ads.txt")
		for _, d := range LintAdsTxt(data) {
			if d.Severity == diag.Error {
				t.Fatalf("rendered %q: %s", data, d.Message)
			}
		}
	})
}

// FuzzSectionJSON: the JSON checks never panic and put every problem
// inside the file.
func FuzzSectionJSON(f *testing.F) {
	for _, s := range []string{goodAASA, goodAssetLinks, `{"gpc": "true"}`, `[{"user_agent": "*", "fraction": 2}]`, `[`, `{"applinks": {"details": [{"components": [{"?": {}}]}]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := strings.Count(s, "\n") + 1
		for _, check := range []func([]byte) []JSONProblem{CheckAppleAssociation, CheckAssetLinks, CheckGPCJSON, CheckTrafficAdviceJSON} {
			for _, p := range check([]byte(s)) {
				if p.Line < 1 || p.Line > n || p.Col < 1 {
					t.Fatalf("%q: problem at %d:%d outside the file: %s", s, p.Line, p.Col, p.Message)
				}
			}
		}
	})
}
