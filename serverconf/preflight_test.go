package serverconf

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/tree"
)

// preflightTree holds the files scripts of other origins read (the MCP
// catalogue and cards, the OAuth metadata) and one they do not.
func preflightTree() tree.Tree {
	tr := mcpTree()
	for p, e := range oauthTree() {
		tr[p] = e
	}
	tr["robots.txt"] = tree.Entry{Data: []byte("User-agent: *\nDisallow:\n")}
	return tr
}

// preflightHeader is the header a browser-based client of each file
// sends, which its preflight asks for: MCP clients send
// MCP-Protocol-Version with their discovery requests.
func preflightHeader(p string) string {
	if strings.HasPrefix(p, ".well-known/oauth-") {
		return "mcp-protocol-version"
	}
	return "content-type"
}

// TestPreflightRendered: each format that can set a status answers OPTIONS
// at a cross-origin file with 204 and the CORS headers, and at no other
// file; _headers sends Access-Control-Max-Age with the file's headers.
func TestPreflightRendered(t *testing.T) {
	tr := preflightTree()
	want := map[Kind][]string{
		Nginx:    {"location = /.well-known/mcp/catalog.json {\n", "    if ($request_method = OPTIONS) {\n", "        return 204;\n", "        add_header Access-Control-Max-Age \"86400\";\n"},
		Htaccess: {"%{REQUEST_METHOD} == 'OPTIONS'", "Redirect 204", "Header always set Access-Control-Max-Age \"86400\""},
		Caddy:    {"\tmethod OPTIONS\n", "\trespond 204\n", "\tpath /.well-known/oauth-protected-resource\n"},
		Headers:  {"\n/.well-known/oauth-protected-resource\n", "  Access-Control-Max-Age: 86400\n", "  Access-Control-Allow-Headers: Content-Type, MCP-Protocol-Version\n"},
	}
	for k, subs := range want {
		public, separate, err := Render(tr, []Kind{k})
		if err != nil {
			t.Fatal(err)
		}
		name, _ := k.File()
		out := string(public[name].Data) + string(separate[name].Data)
		for _, s := range subs {
			if !strings.Contains(out, s) {
				t.Errorf("%s lacks %q:\n%s", k, s, out)
			}
		}
		if n := strings.Count(out, "Access-Control-Max-Age"); k == Nginx && n != 6 || k == Headers && n != 6 {
			t.Errorf("%s: %d Access-Control-Max-Age, want one for each of the 6 cross-origin files:\n%s", k, n, out)
		}
	}
}

func TestLivePreflightNginx(t *testing.T) {
	checkPreflight(t, serveNginx(t, preflightTree(), Access{}))
}

func TestLivePreflightApache(t *testing.T) {
	dir, site, _ := liveSite(t, Htaccess, preflightTree(), Access{})
	checkPreflight(t, livetest.Apache(t, dir, site, []string{"dir", "alias"}, "DirectoryIndex index.html\n"))
}

func TestLivePreflightCaddy(t *testing.T) {
	checkPreflight(t, serveCaddy(t, preflightTree(), Access{}))
}

// checkPreflight sends each file the preflight a browser sends before a
// GET with a header of its own: 204, no body, and the CORS headers that
// let the GET follow; robots.txt, which no script of another origin
// reads, gets no preflight answer. The GETs still answer as before.
func checkPreflight(t *testing.T, port int) {
	t.Helper()
	for p := range preflightTree() {
		url := fmt.Sprintf("http://127.0.0.1:%d/%s", port, p)
		req, err := http.NewRequest(http.MethodOptions, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", "https://client.example")
		req.Header.Set("Access-Control-Request-Method", "GET")
		req.Header.Set("Access-Control-Request-Headers", preflightHeader(p))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s: %v", url, err)
			continue
		}
		resp.Body.Close()
		if p == "robots.txt" {
			if resp.StatusCode == http.StatusNoContent || resp.Header.Get("Access-Control-Max-Age") != "" {
				t.Errorf("%s: %s with Access-Control-Max-Age %q; no preflight answer wanted", url, resp.Status, resp.Header.Get("Access-Control-Max-Age"))
			}
			continue
		}
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("OPTIONS %s: %s, want 204 No Content", url, resp.Status)
			continue
		}
		if got := resp.Header.Values("Access-Control-Allow-Origin"); len(got) != 1 || got[0] != "*" {
			t.Errorf("OPTIONS %s: Access-Control-Allow-Origin %q, want one *", url, got)
		}
		if got := resp.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(got, "GET") {
			t.Errorf("OPTIONS %s: Access-Control-Allow-Methods %q, want GET", url, got)
		}
		allowed := strings.ToLower(strings.Join(resp.Header.Values("Access-Control-Allow-Headers"), ", "))
		if !strings.Contains(allowed, preflightHeader(p)) {
			t.Errorf("OPTIONS %s: Access-Control-Allow-Headers %q lacks %s", url, allowed, preflightHeader(p))
		}
		if got := resp.Header.Values("Access-Control-Max-Age"); len(got) != 1 || got[0] != "86400" {
			t.Errorf("OPTIONS %s: Access-Control-Max-Age %q, want one 86400", url, got)
		}
	}
	checkMCP(t, port)
	checkOAuth(t, port)
}
