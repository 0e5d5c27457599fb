package serverconf

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tdmrep"
	"github.com/discgen/discgen/tree"
)

// reservedEscapes are the escapes of characters a server decodes into one
// that may also stand raw in a path.
var reservedEscapes = []string{"%2F", "%3D", "%40", "%21", "%2C", "%26", "%3A", "%2B", "%24", "%28", "%29", "%3B", "%2A", "%27", "%5B", "%5D"}

// A usage path or a tdm location with an escaped reserved character says
// nothing of the URL with the raw character (RFC 9309 and TDMRep keep the
// escape), so no server rule may match that URL: the rule is left out of
// every format, with a warning naming it, and no regular expression of the
// configuration matches the decoded path.
func TestReservedEscapeLeftOut(t *testing.T) {
	for _, esc := range reservedEscapes {
		p := "/a" + esc + "b/"
		a := Access{
			Usage: &robots.Usage{
				Prefs:        aipref.Prefs{TrainAI: aipref.PrefNo},
				Paths:        []robots.UsagePath{{Path: p, Prefs: aipref.Prefs{TrainAI: aipref.PrefYes}}},
				ContentUsage: true,
			},
			Rights: Rights{TDM: []tdmrep.Rule{{Location: p, Reservation: 0}, {Location: "/", Reservation: 1}}},
		}
		kinds := []Kind{Headers, Htaccess, Nginx, Caddy}
		public, separate, err := RenderAccess(tree.Tree{"robots.txt": {Data: []byte("User-agent: *\nDisallow:\n")}}, kinds, a)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		decoded := strings.ReplaceAll(p, esc, string(byteOf(esc)))
		pcre, _ := pathRegexp(robots.Canonical(p), false)
		re2, _ := pathRegexp(robots.Canonical(p), true)
		for name, e := range map[string]tree.Entry{HeadersFile: public[HeadersFile], HtaccessFile: public[HtaccessFile], NginxFile: separate[NginxFile], CaddyFile: separate[CaddyFile]} {
			s := string(e.Data)
			for _, bad := range []string{pcre, re2, "\n" + p + "*", "\n" + decoded + "*"} {
				if strings.Contains(s, bad) {
					t.Errorf("%s: %s holds %q, which a server matches against %s", p, name, bad, decoded)
				}
			}
		}
		w := strings.Join(Warnings(kinds, a), "\n")
		if !strings.Contains(w, "_headers") || !strings.Contains(w, fmt.Sprintf("%q", p)) || !strings.Contains(w, esc) {
			t.Errorf("%s: no warning names _headers, the path and %s: %q", p, esc, w)
		}
	}
}

func byteOf(esc string) byte {
	var v byte
	fmt.Sscanf(esc[1:], "%02X", &v)
	return v
}

// NormalTarget and the regular expressions the configurations carry
// (rawGuard, apacheGuard) say the same of every target: each escape of
// every byte in both cases of hex, each raw byte, empty and dot
// segments, queries.
func TestNormalTargetGuardAgrees(t *testing.T) {
	var targets []string
	for v := 0; v < 256; v++ {
		targets = append(targets, fmt.Sprintf("/a%%%02Xb", v), fmt.Sprintf("/a%%%02xb", v))
		if v != '?' && v != '#' && v != ' ' {
			targets = append(targets, "/a"+string([]byte{byte(v)})+"b")
		}
	}
	targets = append(targets, "/", "/a", "/a/b/", "//", "/a//b", "/./a", "/a/.", "/a/..", "/a/../b", "/a/.b", "/a/..b/",
		"/a?x", "/a?x//y", "/a?%2F", "/a.pdf?x=1", "/~u/%C3%A9", "/caf%C3%A9/", "/a%2", "/a%zz")
	for _, query := range []bool{false, true} {
		g := regexp.MustCompile(rawGuard(query))
		ga := regexp.MustCompile(apacheGuard(query))
		for _, tg := range targets {
			want := NormalTarget(tg, query)
			latin := latin1(tg)
			if got := !g.MatchString(latin); got != want {
				t.Errorf("query %v: %q: rawGuard says normal %v, NormalTarget %v", query, tg, got, want)
			}
			if got := !ga.MatchString(latin1("GET " + tg + " HTTP/1.1")); got != want {
				t.Errorf("query %v: %q: apacheGuard says normal %v, NormalTarget %v", query, tg, got, want)
			}
		}
	}
	for tg, want := range map[string]bool{"/a/b": true, "/caf%C3%A9": true, "/a%20b": true, "/a%3Fb": true, "/%7Eu": false, "/a%2Fb": false, "/a%3db": false, "/a//b": false, "/a/./b": false, "/a=b": true} {
		if NormalTarget(tg, false) != want {
			t.Errorf("NormalTarget(%q) = %v", tg, !want)
		}
	}
}

// latin1 maps each byte to the code point of the same value, so that Go's
// regexp, which reads UTF-8, matches bytes as PCRE does without UTF mode.
func latin1(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// A location left out for its escape still needs the guard: without it, a
// request for the URL with the escape got the site's rule, where
// tdmrep.json says the location's.
func TestReservedEscapeOnlyPathGuarded(t *testing.T) {
	r := Rights{TDM: []tdmrep.Rule{{Location: "/-~ua%2Cb", Reservation: 0, Policy: "https://rights.example/x"}, {Location: "/", Reservation: 0}}}
	if _, _, ok := r.At("/-~ua%2Cb"); ok {
		t.Errorf("At(/-~ua%%2Cb) sends a tdm header")
	}
	_, separate, err := RenderAccess(tree.Tree{}, []Kind{Nginx, Caddy}, Access{Rights: r})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{NginxFile, CaddyFile} {
		if !strings.Contains(string(separate[f].Data), rawGuard(false)) {
			t.Errorf("%s has no guard:\n%s", f, separate[f].Data)
		}
	}
}
