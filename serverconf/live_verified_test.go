package serverconf

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/tree"
)

// verifiedFixture reads the ranges files of testdata/verified, which give
// loopback addresses to crawlers: GPTBot 127.0.0.2, Googlebot 127.0.0.3,
// and the CDN 127.0.0.5. 127.0.0.4 is nobody's.
func verifiedFixture(t *testing.T, cdn bool) *Verified {
	t.Helper()
	read := func(name string) *crawlers.RangeList {
		data, err := os.ReadFile(filepath.Join("testdata", "verified", name))
		if err != nil {
			t.Fatal(err)
		}
		rl, err := crawlers.ParseRanges(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return rl
	}
	v := &Verified{ID: "example_org_test", Crawlers: []VerifiedCrawler{
		{Name: "GPTBot", Source: "testdata/verified/gptbot.json", Prefixes: read("gptbot.json").Prefixes},
		{Name: "Googlebot", Source: "testdata/verified/googlebot.json", Prefixes: read("googlebot.json").Prefixes},
	}}
	if cdn {
		v.CDN = &VerifiedCDN{Name: "testcdn", Header: "X-Verified-Bot", Prefixes: read("cdn.json").Prefixes}
	}
	return v
}

// getFrom asks for path with the user agent ua and extra headers, from the
// loopback address from, and returns the status.
func getFrom(t *testing.T, port int, from, ua, path string, header map[string]string) int {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		}}}
	req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d%s", port, path), nil)
	req.Header.Set("User-Agent", ua)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s from %s: %v", path, from, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

const (
	uaGPT       = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"
	uaGoogle    = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaBrowser   = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
	uaBaidu     = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
	uaLookalike = "Mozilla/5.0 (compatible; NotGPTBotX/1.0)"
)

// checkVerified asks as each client from each address and compares the
// status with what the ranges mean.
func checkVerified(t *testing.T, port int, cdn, enforce bool) {
	t.Helper()
	type req struct {
		from, ua, path string
		header         map[string]string
		status         int
	}
	cases := []req{
		{"127.0.0.2", uaGPT, "/open.txt", nil, 200},                                         // claimed and verified
		{"127.0.0.3", uaGPT, "/open.txt", nil, 403},                                         // claimed from Googlebot's address
		{"127.0.0.4", uaGPT, "/open.txt", nil, 403},                                         // claimed from nobody's
		{"127.0.0.1", uaGPT, "/open.txt", nil, 403},                                         // ... the server's own included
		{"127.0.0.4", uaGPT, "/robots.txt", nil, 200},                                       // robots.txt from everyone
		{"127.0.0.3", uaGoogle, "/open.txt", nil, 200},                                      // the other crawler, verified
		{"127.0.0.2", uaGoogle, "/open.txt", nil, 403},                                      // ... and claimed from GPTBot's address
		{"127.0.0.4", uaGoogle, "/robots.txt", nil, 200},                                    //
		{"127.0.0.4", uaBrowser, "/open.txt", nil, 200},                                     // an honest browser
		{"127.0.0.4", uaBaidu, "/open.txt", nil, 200},                                       // a crawler no group verifies
		{"127.0.0.4", uaLookalike, "/open.txt", nil, 200},                                   // a name that holds GPTBot, not as a token
		{"127.0.0.4", "gptbot", "/open.txt", nil, 403},                                      // the bare token, any case
		{"127.0.0.4", uaGPT, "/open.txt", map[string]string{"X-Verified-Bot": "true"}, 403}, // header from outside the CDN
	}
	if enforce {
		cases = append(cases,
			req{"127.0.0.2", uaGPT, "/private/x.txt", nil, 403},     // verified, and served as the rules say
			req{"127.0.0.2", uaGPT, "/private/pub/x.txt", nil, 200}, //
			req{"127.0.0.4", uaBrowser, "/private/x.txt", nil, 200}, //
		)
	}
	if cdn {
		cases = append(cases,
			req{"127.0.0.5", uaGPT, "/open.txt", map[string]string{"X-Verified-Bot": "true"}, 200}, // the CDN vouches
			req{"127.0.0.5", uaGPT, "/open.txt", map[string]string{"X-Verified-Bot": "false"}, 403},
			req{"127.0.0.5", uaGPT, "/open.txt", nil, 403},
			req{"127.0.0.5", uaBrowser, "/open.txt", nil, 200},
			req{"127.0.0.5", uaGPT, "/robots.txt", nil, 200},
		)
	} else {
		cases = append(cases, req{"127.0.0.5", uaGPT, "/open.txt", map[string]string{"X-Verified-Bot": "true"}, 403}) // no CDN trusted
	}
	for _, c := range cases {
		if got := getFrom(t, port, c.from, c.ua, c.path, c.header); got != c.status {
			t.Errorf("%s from %s as %q %v: status %d, want %d", c.path, c.from, c.ua, c.header, got, c.status)
		}
	}
}

func liveVerified(t *testing.T, serve func(*testing.T, tree.Tree, Access, ...tree.Tree) int) {
	rendered, content := accessTree()
	t.Run("ranges", func(t *testing.T) {
		checkVerified(t, serve(t, rendered, Access{Verified: verifiedFixture(t, false)}, content), false, false)
	})
	t.Run("ranges+cdn", func(t *testing.T) {
		checkVerified(t, serve(t, rendered, Access{Verified: verifiedFixture(t, true)}, content), true, false)
	})
	t.Run("ranges+enforce", func(t *testing.T) {
		enf, _ := accessPolicy.Enforcements()
		checkVerified(t, serve(t, rendered, Access{Enforce: enf, Verified: verifiedFixture(t, false)}, content), false, true)
	})
}

func TestLiveVerifiedNginx(t *testing.T)  { liveVerified(t, serveNginxVerified) }
func TestLiveVerifiedApache(t *testing.T) { liveVerified(t, serveApacheVerified) }
func TestLiveVerifiedCaddy(t *testing.T)  { liveVerified(t, serveCaddy) }

// serveNginxVerified is serveNginx with the http-level file included in
// the http block, as docs/commands.md says.
func serveNginxVerified(t *testing.T, src tree.Tree, a Access, extra ...tree.Tree) int {
	t.Helper()
	livetest.NeedsNginx(t)
	dir, site, conf := liveSite(t, Nginx, src, a, extra...)
	var http []string
	if !a.Verified.empty() {
		http = append(http, filepath.Join(dir, "conf", filepath.FromSlash(NginxVerifiedFile)))
	}
	return livetest.Nginx(t, dir, site, conf, http...)
}

// serveApacheVerified is serveApache with apache/discgen-verified.conf
// included in the server's configuration, as the README says.
func serveApacheVerified(t *testing.T, src tree.Tree, a Access, extra ...tree.Tree) int {
	t.Helper()
	dir, site, _ := liveSite(t, Htaccess, src, a, extra...)
	inc := ""
	if !a.Verified.empty() {
		inc = "Include " + filepath.Join(dir, "conf", filepath.FromSlash(ApacheVerifiedFile)) + "\n"
	}
	return livetest.Apache(t, dir, site, []string{"dir", "authz_host"}, "DirectoryIndex index.html\n"+inc)
}
