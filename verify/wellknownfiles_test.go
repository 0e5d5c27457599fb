package verify

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
)

func sectionTree() tree.Tree {
	return tree.Tree{
		"ads.txt":                                       {Data: []byte("google.com, pub-1234567890123456, DIRECT, f08c47fec0942fa0\n")},
		".well-known/apple-app-site-association":        {Data: []byte(`{"webcredentials": {"apps": ["ABCDE12345.org.fict.app"]}}`)},
		".well-known/assetlinks.json":                   {Data: []byte(`[]`)},
		".well-known/traffic-advice":                    {Data: []byte(`[{"user_agent": "prefetch-proxy", "fraction": 0.5}]`)},
		".well-known/atproto-did":                       {Data: []byte("did:plc:ewvi7nxzyoun6zhxrhs64oiz")},
		".well-known/http-message-signatures-directory": {Data: []byte(`{"keys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB", "kid": "fFSIqACAdZT1hI1UKd3RlrMVpjTald1WwlJtBezXa88"}]}`)},
	}
}

var changePassword = []serverconf.Redirect{{From: ".well-known/change-password", To: "/account/password", Status: 302}}

// sectionServer serves sectionTree with the right media types and the
// change-password redirect, except where bad answers a path first.
func sectionServer(bad func(w http.ResponseWriter, r *http.Request) bool) func(w http.ResponseWriter, r *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		if bad != nil && bad(w, r) {
			return true
		}
		switch r.URL.Path {
		case "/.well-known/change-password":
			http.Redirect(w, r, "/account/password", http.StatusFound)
			return true
		case "/.well-known/apple-app-site-association", "/.well-known/assetlinks.json":
			w.Header().Set("Content-Type", "application/json")
		case "/.well-known/traffic-advice":
			w.Header().Set("Content-Type", "application/trafficadvice+json")
		case "/.well-known/http-message-signatures-directory":
			w.Header().Set("Content-Type", "application/http-message-signatures-directory+json")
		default:
			return false
		}
		w.Write(sectionTree()[strings.TrimPrefix(r.URL.Path, "/")].Data)
		return true
	}
}

func TestSectionFiles(t *testing.T) {
	rs := run(t, true, sectionTree(), sectionServer(nil), Options{Redirects: changePassword})
	if got := problems(rs); len(got) > 0 {
		t.Errorf("a right server: %v", got)
	}
	if len(rs) != len(sectionTree())+1 || rs[len(rs)-1].Path != "/.well-known/change-password" || rs[len(rs)-1].Status != 302 {
		t.Errorf("results %+v: want one per file and change-password's", rs)
	}

	var followed atomic.Int32
	for _, c := range []struct {
		name string
		bad  func(w http.ResponseWriter, r *http.Request) bool
		path string
		want string
	}{
		{"aasa redirected", func(w http.ResponseWriter, r *http.Request) bool {
			switch r.URL.Path {
			case "/.well-known/apple-app-site-association":
				http.Redirect(w, r, "/aasa.json", http.StatusMovedPermanently)
				return true
			case "/aasa.json":
				followed.Add(1)
			}
			return false
		}, "/.well-known/apple-app-site-association", `status 301 Moved Permanently to "/aasa.json": iOS follows no redirect`},
		{"assetlinks redirected", func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/.well-known/assetlinks.json" {
				http.Redirect(w, r, "/.well-known/assetlinks.json/", http.StatusFound)
				return true
			}
			return false
		}, "/.well-known/assetlinks.json", "Android follows no redirect"},
		{"aasa as octet-stream", func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/.well-known/apple-app-site-association" {
				w.Header().Set("Content-Type", "application/octet-stream")
				w.Write(sectionTree()[".well-known/apple-app-site-association"].Data)
				return true
			}
			return false
		}, "/.well-known/apple-app-site-association", "Content-Type application/octet-stream, want application/json"},
		{"traffic-advice as json", func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/.well-known/traffic-advice" {
				w.Header().Set("Content-Type", "application/json")
				w.Write(sectionTree()[".well-known/traffic-advice"].Data)
				return true
			}
			return false
		}, "/.well-known/traffic-advice", "Content-Type application/json, want application/trafficadvice+json"},
		{"atproto-did as html", func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/.well-known/atproto-did" {
				w.Header().Set("Content-Type", "text/html")
				w.Write(sectionTree()[".well-known/atproto-did"].Data)
				return true
			}
			return false
		}, "/.well-known/atproto-did", "Content-Type text/html, want text/plain; charset=utf-8"},
		{"key directory as json", func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/.well-known/http-message-signatures-directory" {
				w.Header().Set("Content-Type", "application/json")
				w.Write(sectionTree()[".well-known/http-message-signatures-directory"].Data)
				return true
			}
			return false
		}, "/.well-known/http-message-signatures-directory", "Content-Type application/json, want application/http-message-signatures-directory+json"},
		{"key directory redirected", func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/.well-known/http-message-signatures-directory" {
				http.Redirect(w, r, "/keys.json", http.StatusFound)
				return true
			}
			return false
		}, "/.well-known/http-message-signatures-directory", "a Web Bot Auth verifier follows no redirect"},
		{"change-password a page", func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/.well-known/change-password" {
				w.Write([]byte("x"))
				return true
			}
			return false
		}, "/.well-known/change-password", "status 200 OK, want a redirect (302) to /account/password"},
		{"change-password permanent", func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/.well-known/change-password" {
				http.Redirect(w, r, "/account/password", http.StatusMovedPermanently)
				return true
			}
			return false
		}, "/.well-known/change-password", "status 301 Moved Permanently: a change-password URL redirects with 302, 303 or 307"},
		{"change-password elsewhere", func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/.well-known/change-password" {
				http.Redirect(w, r, "/login", http.StatusSeeOther)
				return true
			}
			return false
		}, "/.well-known/change-password", "/login, want /account/password"},
	} {
		got := problems(run(t, true, sectionTree(), sectionServer(c.bad), Options{Redirects: changePassword}))
		if len(got) != 1 || !strings.Contains(got[c.path], c.want) {
			t.Errorf("%s: problems %v, want one at %s containing %q", c.name, got, c.path, c.want)
		}
	}
	if n := followed.Load(); n != 0 {
		t.Errorf("the apple-app-site-association redirect was followed %d times", n)
	}
}

// TestOAuthCORS: the OAuth metadata documents are read by browser-based
// clients of other origins, so a response without
// Access-Control-Allow-Origin: * fails; another file does not need it.
func TestOAuthCORS(t *testing.T) {
	tr := tree.Tree{
		".well-known/oauth-protected-resource":   {Data: []byte(`{"resource": "https://www.fict.org"}`)},
		".well-known/oauth-authorization-server": {Data: []byte(`{"issuer": "https://www.fict.org"}`)},
		".well-known/gpc.json":                   {Data: []byte(`{"gpc": true}`)},
	}
	serve := func(acao map[string][]string) func(w http.ResponseWriter, r *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			e, ok := tr[strings.TrimPrefix(r.URL.Path, "/")]
			if !ok {
				return false
			}
			w.Header().Set("Content-Type", "application/json")
			for _, v := range acao[r.URL.Path] {
				w.Header().Add("Access-Control-Allow-Origin", v)
			}
			if r.Method == http.MethodOptions {
				w.Header().Set("Access-Control-Allow-Headers", "Content-Type, MCP-Protocol-Version")
				w.WriteHeader(http.StatusNoContent)
				return true
			}
			w.Write(e.Data)
			return true
		}
	}
	all := map[string][]string{"/.well-known/oauth-protected-resource": {"*"}, "/.well-known/oauth-authorization-server": {"*"}}
	if got := problems(run(t, true, tr, serve(all), Options{})); len(got) > 0 {
		t.Errorf("a right server: %v", got)
	}
	got := problems(run(t, true, tr, serve(map[string][]string{
		"/.well-known/oauth-authorization-server": {"https://www.fict.org"},
	}), Options{}))
	want := map[string]string{
		"/.well-known/oauth-protected-resource":   "no Access-Control-Allow-Origin, want *: a browser-based OAuth client (an MCP client in a web page) cannot read it from another origin",
		"/.well-known/oauth-authorization-server": `Access-Control-Allow-Origin "https://www.fict.org", want *: a browser-based OAuth client (an MCP client in a web page) cannot read it from another origin`,
	}
	if len(got) != len(want) || got["/.well-known/oauth-protected-resource"] != want["/.well-known/oauth-protected-resource"] || got["/.well-known/oauth-authorization-server"] != want["/.well-known/oauth-authorization-server"] {
		t.Errorf("problems %v\nwant %v", got, want)
	}
}

// TestMCPCORS: the MCP catalogue and every card discgen publishes are
// read by browser-based MCP clients of other origins, so each response
// without Access-Control-Allow-Origin: * fails.
func TestMCPCORS(t *testing.T) {
	card := []byte(`{"name": "org.fict/ask"}`)
	tr := tree.Tree{
		".well-known/mcp/catalog.json":     {Data: []byte(`{"specVersion": "draft", "entries": []}`)},
		".well-known/mcp/servers/ask.json": {Data: card},
		".well-known/mcp.json":             {Data: card},
	}
	serve := func(cors bool) func(w http.ResponseWriter, r *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			p := strings.TrimPrefix(r.URL.Path, "/")
			e, ok := tr[p]
			if !ok {
				return false
			}
			ct, _ := serverconf.ContentType(tr, p)
			w.Header().Set("Content-Type", ct)
			if cors {
				w.Header().Set("Access-Control-Allow-Origin", "*")
			}
			if r.Method == http.MethodOptions {
				w.Header().Set("Access-Control-Allow-Headers", "Content-Type")
				w.WriteHeader(http.StatusNoContent)
				return true
			}
			w.Write(e.Data)
			return true
		}
	}
	if got := problems(run(t, true, tr, serve(true), Options{})); len(got) > 0 {
		t.Errorf("a right server: %v", got)
	}
	got := problems(run(t, true, tr, serve(false), Options{}))
	const want = "no Access-Control-Allow-Origin, want *: a browser-based MCP client cannot read it from another origin"
	for p := range tr {
		if got["/"+p] != want {
			t.Errorf("/%s: %q, want %q", p, got["/"+p], want)
		}
	}
}
