package serverconf

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tree"
)

// liveTokens is TestTokenMatchingPresets with the servers' own regular
// expression engines (PCRE in nginx and Apache, RE2 in Caddy): for each
// preset, a configuration that enforces Disallow: / for its agents and
// verifies them against a range no loopback address is in, and a request
// with every crawler's user agent, Baiduspider's, Sogou's and Internet
// Explorer's with SLCC1: 403 exactly when the user agent claims one of the
// preset's agents as a token (the oracle claims), else 200.
func liveTokens(t *testing.T, serve func(*testing.T, tree.Tree, Access, ...tree.Tree) int) {
	names := tokenNames(t)
	var uas []string
	for _, n := range names {
		uas = append(uas, uaShapes(n)...)
	}
	uas = append(uas, ieSLCC1)
	rendered, content := accessTree()
	cat := crawlers.Default()
	for _, p := range cat.Presets() {
		t.Run(p, func(t *testing.T) {
			agents, _ := cat.Preset(p)
			var enf []robots.Enforcement
			v := &Verified{ID: "tokens"}
			for _, a := range agents {
				enf = append(enf, robots.Enforcement{Agent: a.Name, Rules: []robots.PathRule{{Path: "/"}}})
				v.Crawlers = append(v.Crawlers, VerifiedCrawler{Name: a.Name, Source: "test", Prefixes: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
			}
			for _, use := range []struct {
				name string
				a    Access
			}{{"enforce", Access{Enforce: enf}}, {"verified", Access{Verified: v}}} {
				port := serve(t, rendered, use.a, content)
				refused := 0
				for _, ua := range uas {
					want := 200
					for _, a := range agents {
						if productClaims(ua, a.Name) {
							want = 403
							break
						}
					}
					req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/open.txt", port), nil)
					req.Header.Set("User-Agent", ua)
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						t.Fatal(err)
					}
					resp.Body.Close()
					if resp.StatusCode != want {
						t.Errorf("%s: %q: status %d, want %d", use.name, ua, resp.StatusCode, want)
					}
					if want == 403 {
						refused++
					}
				}
				if refused == 0 || refused == len(uas) {
					t.Fatalf("%s: %d of %d refused: the test tells nothing apart", use.name, refused, len(uas))
				}
				if strings.Contains(p, "search") && use.name == "enforce" {
					t.Logf("%s: %d user agents, %d refused", use.name, len(uas), refused)
				}
			}
		})
	}
}

func TestLiveTokensNginx(t *testing.T)  { liveTokens(t, serveNginxVerified) }
func TestLiveTokensApache(t *testing.T) { liveTokens(t, serveApacheVerified) }
func TestLiveTokensCaddy(t *testing.T)  { liveTokens(t, serveCaddy) }
