package serverconf

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/aipref"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tdmrep"
	"github.com/discgen/discgen/tree"
)

// The cases of the readers' proof (generate's TestServerReadersAgree)
// against the real servers: a usage path and a tdm location with %2F, an
// end anchor, a raw reserved character, and an enforced crawler allowed
// only "/*.pdf$"; requested in every form a client can send, as sent
// (a raw request line, as curl --path-as-is sends it).

// formsRobots is robots.txt for formsAccess, written by hand.
const formsRobots = `User-agent: BadBot
Allow: /*.pdf$
Disallow: /

User-agent: *
Disallow:
Content-Usage: train-ai=n
Content-Usage: /a%2Fb/ train-ai=y
Content-Usage: /*.pdf$ train-ai=y
Content-Usage: /blog/ train-ai=y
Content-Usage: /a=b/ train-ai=y
`

var formsTDM = []tdmrep.Rule{
	{Location: "/a%2Fbc/", Reservation: 0},
	{Location: "/*.html$", Reservation: 0},
	{Location: "/*.pdf$", Reservation: 0},
	{Location: "/a=b/", Reservation: 0, Policy: "https://example.org/open.json"},
	{Location: "/", Reservation: 1, Policy: "https://example.org/p.json"},
}

func formsAccess() Access {
	y := aipref.Prefs{TrainAI: aipref.PrefYes}
	return Access{
		Enforce: []robots.Enforcement{{Agent: "BadBot", Rules: []robots.PathRule{{Path: "/"}, {Allow: true, Path: "/*.pdf$"}}}},
		Usage: &robots.Usage{
			Prefs:        aipref.Prefs{TrainAI: aipref.PrefNo},
			Paths:        []robots.UsagePath{{Path: "/a%2Fb/", Prefs: y}, {Path: "/*.pdf$", Prefs: y}, {Path: "/blog/", Prefs: y}, {Path: "/a=b/", Prefs: y}},
			ContentUsage: true,
		},
		Rights: Rights{TDM: formsTDM},
	}
}

// formsTargets are the request targets: each URL canonical and in the
// forms the servers read differently from the files' readers.
var formsTargets = []string{
	"/a/b/x.html", "/a%2Fb/x.html", "/a%2fb/x.html", "/a%2Fbc/x.html", "/a/bc/x.html",
	"/open/a.pdf", "/open/a.pdf?x=1", "/open/a.pdf?q=.pdf", "/open/a%2Epdf", "/open/a.html", "/open/a.html?x=1",
	"/blog/x.html", "/%62log/x.html", "/bl%6fg/x.html", "/blog//x.html", "//blog/x.html", "/./blog/x.html", "/zz/../blog/x.html",
	"/a=b/x.html", "/a%3Db/x.html", "/a%3db/x.html",
	"/caf%C3%A9/x.html", "/caf%c3%a9/x.html", "/caf\xc3\xa9/x.html",
	"/robots.txt", "/robots.txt?x=1",
	// A directory: the servers answer with its index.html, and nginx and
	// Apache rewrite the path to it; robots.txt readers read "/" and
	// "/blog/", which "/*.html$" does not match.
	"/", "/blog/",
}

func formsContent() tree.Tree {
	tr := tree.Tree{}
	for _, p := range []string{"a/b/x.html", "a/bc/x.html", "open/a.pdf", "open/a.html", "blog/x.html", "a=b/x.html", "café/x.html", "index.html", "blog/index.html"} {
		tr[p] = tree.Entry{Data: []byte("x")}
	}
	return tr
}

// rawGet sends target as written, with the User-Agent ua.
func rawGet(t *testing.T, port int, target, ua string) *http.Response {
	t.Helper()
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUser-Agent: %s\r\nConnection: close\r\n\r\n", target, port, ua)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%q: %v", target, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func liveForms(t *testing.T, server string, serve func(*testing.T, tree.Tree, Access, ...tree.Tree) int) {
	a := formsAccess()
	port := serve(t, tree.Tree{"robots.txt": {Data: []byte(formsRobots)}}, a, formsContent())
	f := robots.Parse([]byte(formsRobots))
	file, _ := tdmrep.Parse(tdmrep.Marshal(formsTDM))
	requests, headers, silent, refusedAllowed := 0, 0, 0, 0
	for _, target := range formsTargets {
		for _, ua := range []string{"otherbot/1.0", "BadBot/2.0"} {
			requests++
			resp := rawGet(t, port, target, ua)
			full := "https://example.org" + target
			allowed := f.Match(ua, full).Allowed
			decoded, _, _ := strings.Cut(target, "?")
			isRobots := strings.EqualFold(decoded, "/robots.txt")
			switch {
			case resp.StatusCode == http.StatusNotFound && server == "Apache" && strings.Contains(strings.ToUpper(target), "%2F"):
				continue // AllowEncodedSlashes Off: nothing served
			case resp.StatusCode == http.StatusForbidden:
				if ua == "otherbot/1.0" || isRobots {
					t.Errorf("%s: %q as %s: refused", server, target, ua)
				} else if allowed {
					if NormalTarget(target, true) {
						t.Errorf("%s: %q as %s: refused where robots.txt allows it", server, target, ua)
					}
					refusedAllowed++
				}
				continue
			case resp.StatusCode != http.StatusOK:
				t.Errorf("%s: %q as %s: status %s", server, target, ua, resp.Status)
				continue
			}
			if ua == "BadBot/2.0" && !allowed && !isRobots {
				t.Errorf("%s: %q served to BadBot, which robots.txt disallows (%s)", server, target, f.Match(ua, full).Rule)
			}
			if !NormalTarget(target, true) && ua == "BadBot/2.0" && !isRobots {
				t.Errorf("%s: %q served to BadBot at a form the server cannot read as robots.txt readers do", server, target)
			}
			// Content-Usage: robots.txt's reading for the "*" group, where
			// the server reads the URL as robots.txt readers do; else none.
			want := ""
			if NormalTarget(target, true) {
				want = aipref.UsageValue(f.Usage("otherbot", full).ContentUsage)
			}
			if got := strings.Join(resp.Header.Values("Content-Usage"), ", "); got != want {
				t.Errorf("%s: %q as %s: Content-Usage %q, want %q", server, target, ua, got, want)
			}
			// tdm: tdmrep.json's first matching rule, where the server
			// reads the URL as TDMRep readers do; else none.
			var wantRes, wantPol string
			if _, rule, ok := a.Rights.At(target); ok {
				wantRes, wantPol = strconv.Itoa(rule.Reservation), rule.Policy
				for _, p := range file {
					if robots.PatternMatches(robots.Canonical(robots.PathOf(target)), robots.Canonical(p.Location)) {
						if p.Rule != rule {
							t.Errorf("%q: the configuration's rule %+v, tdmrep.json's %+v", target, rule, p.Rule)
						}
						break
					}
				}
			}
			if got, pol := resp.Header.Get("tdm-reservation"), resp.Header.Get("tdm-policy"); got != wantRes || pol != wantPol {
				t.Errorf("%s: %q as %s: tdm %q %q, want %q %q", server, target, ua, got, pol, wantRes, wantPol)
			}
			if want == "" && wantRes == "" {
				silent++
			} else {
				headers++
			}
		}
	}
	t.Logf("%s: %d requests (%d targets, 2 agents): %d with headers, each the files'; %d without; %d refusals where robots.txt allows, each at a form the server cannot read as robots.txt readers do; 0 contradictions",
		server, requests, len(formsTargets), headers, silent, refusedAllowed)
}

func TestLiveFormsNginx(t *testing.T)  { liveForms(t, "nginx", serveNginx) }
func TestLiveFormsApache(t *testing.T) { liveForms(t, "Apache", serveApache) }
func TestLiveFormsCaddy(t *testing.T)  { liveForms(t, "Caddy", serveCaddy) }
