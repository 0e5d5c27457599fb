package serverconf

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/tdmrep"
	"github.com/discgen/discgen/tree"
)

// liveDirectoryRedirect requests directories without their final slash,
// which each server answers with a redirect to the directory (mod_dir's
// DirectorySlash, nginx's and Caddy's own), and wants on the redirect the
// headers a file there gets: the licence Link, tdm-reservation and
// tdm-policy as tdmrep.json says at that path, and Content-Usage as
// robots.txt's preferences say. Apache put the last two in mod_headers'
// table for successful responses only, so its 301 carried the Link alone.
func liveDirectoryRedirect(t *testing.T, serve func(*testing.T, tree.Tree, Access, ...tree.Tree) int) {
	r := rightsSite()
	rendered := tree.Tree{
		"robots.txt":              {Data: []byte("User-agent: *\nDisallow:\n\nLicense: https://www.example.org/license.xml\n")},
		".well-known/tdmrep.json": {Data: tdmrep.Marshal(r.TDM)},
	}
	content := rightsContent()
	for p, e := range usageContent() {
		content[p] = e
	}
	// Caddy redirects to a directory only where it serves an index.
	for _, d := range []string{"open", "open/closed", "blog", "blog/private"} {
		content[d+"/index.html"] = tree.Entry{Data: []byte("x")}
	}
	port := serve(t, rendered, Access{Rights: r, Usage: usageSite}, content)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	// Content-Usage as robots.txt's preferences (usageSite) say at each
	// path: /blog/'s from /blog/private on, the site's elsewhere.
	usage := map[string]string{
		"/open":         "train-ai=n, search=y",
		"/open/closed":  "train-ai=n, search=y",
		"/blog":         "train-ai=n, search=y",
		"/blog/private": "train-ai=y, search=y",
	}
	for _, path := range slices.Sorted(maps.Keys(usage)) {
		resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		resp.Body.Close()
		if resp.StatusCode < 300 || resp.StatusCode > 308 || !strings.HasSuffix(resp.Header.Get("Location"), path+"/") {
			t.Errorf("%s: %s, Location %q: want a redirect to %s/", path, resp.Status, resp.Header.Get("Location"), path)
			continue
		}
		var res, pol string
		if rule, ok := tdmrep.Lookup(r.TDM, path); ok {
			res, pol = strconv.Itoa(rule.Reservation), rule.Policy
		}
		for _, h := range []struct{ name, want string }{
			{"tdm-reservation", res}, {"tdm-policy", pol}, {"Content-Usage", usage[path]},
		} {
			got := resp.Header.Values(h.name)
			if h.want == "" && len(got) != 0 || h.want != "" && (len(got) != 1 || got[0] != h.want) {
				t.Errorf("%s (%d): %s %q, want %q", path, resp.StatusCode, h.name, got, h.want)
			}
		}
		if links := resp.Header.Values("Link"); !slices.Contains(links, LicenseLink(r.License)) {
			t.Errorf("%s (%d): Link %q, want the licence", path, resp.StatusCode, links)
		}
	}
}

func TestLiveDirectoryRedirectNginx(t *testing.T)  { liveDirectoryRedirect(t, serveNginx) }
func TestLiveDirectoryRedirectApache(t *testing.T) { liveDirectoryRedirect(t, serveApache) }
func TestLiveDirectoryRedirectCaddy(t *testing.T)  { liveDirectoryRedirect(t, serveCaddy) }

// TestHtaccessHeadersOnRedirects: every line of the .htaccess that sets or
// unsets a tdm or Content-Usage header writes mod_headers' "always"
// table, which a redirect (mod_dir's 301 for a directory without its
// slash) gets too, as it does the licence Link.
func TestHtaccessHeadersOnRedirects(t *testing.T) {
	public, _, err := RenderAccess(tree.Tree{"robots.txt": {Data: []byte("User-agent: *\nDisallow:\n")}}, []Kind{Htaccess}, Access{Rights: rightsSite(), Usage: usageSite})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range strings.Split(string(public[HtaccessFile].Data), "\n") {
		f := strings.Fields(l)
		if len(f) < 3 || f[0] != "Header" {
			continue
		}
		name := f[2]
		if f[1] == "always" && len(f) > 3 {
			name = f[3]
		}
		switch strings.ToLower(name) {
		case "tdm-reservation", "tdm-policy", "content-usage", "link":
			n++
			if f[1] != "always" {
				t.Errorf("not in the always table: %s", strings.TrimSpace(l))
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d header lines read", n)
	}
}
