package serverconf

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/discgen/discgen/tree"
)

// sectionTree holds the files of design section 13 as a build writes them.
func sectionTree() tree.Tree {
	return tree.Tree{
		"ads.txt":                                       {Data: []byte("google.com, pub-1234567890123456, DIRECT, f08c47fec0942fa0\n")},
		"app-ads.txt":                                   {Data: []byte("placeholder.example.com, placeholder, DIRECT, placeholder\n")},
		".well-known/apple-app-site-association":        {Data: []byte(`{"webcredentials": {"apps": ["ABCDE12345.org.fict.app"]}}`)},
		".well-known/assetlinks.json":                   {Data: []byte(`[]`)},
		".well-known/gpc.json":                          {Data: []byte(`{"gpc": true}`)},
		".well-known/traffic-advice":                    {Data: []byte(`[{"user_agent": "prefetch-proxy", "fraction": 0.5}]`)},
		".well-known/atproto-did":                       {Data: []byte("did:plc:ewvi7nxzyoun6zhxrhs64oiz")},
		".well-known/http-message-signatures-directory": {Data: []byte(`{"keys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB", "kid": "fFSIqACAdZT1hI1UKd3RlrMVpjTald1WwlJtBezXa88"}]}`)},
	}
}

// sectionTypes is the media type each consumer needs.
var sectionTypes = map[string]string{
	"ads.txt":                                       "text/plain; charset=utf-8",
	"app-ads.txt":                                   "text/plain; charset=utf-8",
	".well-known/apple-app-site-association":        "application/json",
	".well-known/assetlinks.json":                   "application/json",
	".well-known/gpc.json":                          "application/json",
	".well-known/traffic-advice":                    "application/trafficadvice+json",
	".well-known/atproto-did":                       "text/plain; charset=utf-8",
	".well-known/http-message-signatures-directory": "application/http-message-signatures-directory+json",
}

var changePassword = []Redirect{{From: ".well-known/change-password", To: "/account/password", Status: 302}}

func TestSectionMediaTypes(t *testing.T) {
	tr := sectionTree()
	if len(tr) != len(sectionTypes) {
		t.Fatalf("%d files, %d types", len(tr), len(sectionTypes))
	}
	for p, want := range sectionTypes {
		if got, err := ContentType(tr, p); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", p, got, err, want)
		}
	}
}

func TestRedirectsRendered(t *testing.T) {
	public, separate, err := RenderAccess(sectionTree(), []Kind{Nginx, Htaccess, Caddy, Headers}, Access{Redirects: changePassword})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		tr   tree.Tree
		want string
	}{
		{"nginx/discgen.conf", separate, "location = /.well-known/change-password {\n    return 302 \"/account/password\";\n}\n"},
		{".htaccess", public, "<IfModule mod_alias.c>\n    RedirectMatch 302 \"^/[.]well-known/change-password$\" \"/account/password\"\n</IfModule>\n"},
		{"caddy/discgen.caddy", separate, "redir /.well-known/change-password \"/account/password\" 302\n"},
		{RedirectsFile, public, "\n/.well-known/change-password /account/password 302\n"},
	} {
		e, ok := c.tr[c.file]
		if !ok {
			t.Errorf("%s not rendered", c.file)
			continue
		}
		if !strings.Contains(string(e.Data), c.want) {
			t.Errorf("%s lacks %q:\n%s", c.file, c.want, e.Data)
		}
	}
	if strings.Contains(string(public["_headers"].Data), "change-password") {
		t.Errorf("_headers names change-password:\n%s", public["_headers"].Data)
	}
	// Without a redirect, no redirect (_redirects holds the 404 for
	// missing well-known paths alone: wellknownmissing_test.go).
	public, separate, err = RenderAccess(sectionTree(), []Kind{Nginx, Headers}, Access{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(public[RedirectsFile].Data), " 30") || strings.Contains(string(separate["nginx/discgen.conf"].Data), "return 30") {
		t.Errorf("a redirect rendered without one asked")
	}
}

func TestRedirectsRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		tr   tree.Tree
		r    Redirect
		want string
	}{
		{"nginx variable", sectionTree(), Redirect{".well-known/change-password", "/a$1", 302}, `holds '$'`},
		{"caddy placeholder", sectionTree(), Redirect{".well-known/change-password", "/{path}", 302}, `holds '{'`},
		{"space", sectionTree(), Redirect{".well-known/change-password", "/a b", 302}, `holds ' '`},
		{"scheme", sectionTree(), Redirect{".well-known/change-password", "javascript:alert(1)", 302}, "neither a path"},
		{"scheme-relative", sectionTree(), Redirect{".well-known/change-password", "//evil.org/", 302}, "neither a path"},
		{"not a redirect", sectionTree(), Redirect{".well-known/change-password", "/pw", 200}, "200 is not a redirect status"},
		{"a file too", sectionTree(), Redirect{".well-known/gpc.json", "/pw", 302}, "a redirect and a file of the tree at once"},
		{"bad path", sectionTree(), Redirect{".well-known/a b", "/pw", 302}, "is not among the characters every format reads literally"},
		{"_redirects in the tree", tree.Tree{"_redirects": {Data: []byte("x")}}, Redirect{".well-known/change-password", "/pw", 302}, "_redirects: the tree already holds this file"},
	} {
		_, _, err := RenderAccess(c.tr, []Kind{Headers, Nginx}, Access{Redirects: []Redirect{c.r}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// The real servers serve each file of section 13 with a 200, no redirect
// and its media type, and answer /.well-known/change-password with a 302
// to the manifest's target.

func TestLiveSectionNginx(t *testing.T) {
	port := serveNginx(t, sectionTree(), Access{Redirects: changePassword})
	checkSection(t, port)
}

func TestLiveSectionApache(t *testing.T) {
	checkSection(t, serveApache(t, sectionTree(), Access{Redirects: changePassword}))
}

func TestLiveSectionCaddy(t *testing.T) {
	port := serveCaddy(t, sectionTree(), Access{Redirects: changePassword})
	checkSection(t, port)
}

// checkSection fetches each file as its consumer does, following no
// redirect, and change-password expecting one.
func checkSection(t *testing.T, port int) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for p, want := range sectionTypes {
		url := fmt.Sprintf("http://127.0.0.1:%d/%s", port, p)
		resp, err := client.Get(url)
		if err != nil {
			t.Errorf("%s: %v", url, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != want {
			t.Errorf("%s: %s, Content-Type %q; want 200 and %q", url, resp.Status, resp.Header.Get("Content-Type"), want)
		}
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/.well-known/change-password", port)
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || !strings.HasSuffix(loc, "/account/password") {
		t.Errorf("%s: %s, Location %q; want 302 to /account/password", url, resp.Status, loc)
	}
	// Only the exact path redirects.
	resp, err = client.Get(url + "/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 == 3 {
		t.Errorf("%s/x: %s, a redirect", url, resp.Status)
	}
}
