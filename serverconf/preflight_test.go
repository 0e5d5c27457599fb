package serverconf

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

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
	checkPreflight(t, serveApache(t, preflightTree(), Access{}))
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

// subPathTree holds a protected resource's metadata at the sub-path
// RFC 9728 §3.1 builds from a resource with a path
// (https://www.fict.org/mcp), as an entry of well_known.files writes it.
func subPathTree() tree.Tree {
	return tree.Tree{
		".well-known/oauth-protected-resource/mcp": {Data: []byte(`{"resource": "https://www.fict.org/mcp", "authorization_servers": ["https://auth.fict.org"]}`)},
	}
}

// TestSubPathProtectedResource: the sub-path document is served as the
// root one is, application/json with its CORS headers, not as a file
// without an extension (application/octet-stream).
func TestSubPathProtectedResource(t *testing.T) {
	tr := subPathTree()
	if got, err := ContentType(tr, ".well-known/oauth-protected-resource/mcp"); err != nil || got != appJSON {
		t.Errorf("%q, %v; want %q", got, err, appJSON)
	}
	public, _, err := Render(tr, []Kind{Headers})
	if err != nil {
		t.Fatal(err)
	}
	if want := "\n/.well-known/oauth-protected-resource/mcp\n  Content-Type: application/json\n"; !strings.Contains(string(public["_headers"].Data), want) {
		t.Errorf("_headers lacks %q:\n%s", want, public["_headers"].Data)
	}
}

func TestLiveSubPathPreflightNginx(t *testing.T) {
	checkSubPath(t, serveNginx(t, subPathTree(), Access{}))
}

func TestLiveSubPathPreflightApache(t *testing.T) {
	checkSubPath(t, serveApache(t, subPathTree(), Access{}))
}

func TestLiveSubPathPreflightCaddy(t *testing.T) {
	checkSubPath(t, serveCaddy(t, subPathTree(), Access{}))
}

// checkSubPath sends the sub-path document a preflight and a GET as a
// browser-based MCP client does.
func checkSubPath(t *testing.T, port int) {
	t.Helper()
	url := fmt.Sprintf("http://127.0.0.1:%d/.well-known/oauth-protected-resource/mcp", port)
	for _, method := range []string{http.MethodOptions, http.MethodGet} {
		req, err := http.NewRequest(method, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", "https://client.example")
		if method == http.MethodOptions {
			req.Header.Set("Access-Control-Request-Method", "GET")
			req.Header.Set("Access-Control-Request-Headers", "mcp-protocol-version")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want, ct := http.StatusOK, appJSON
		if method == http.MethodOptions {
			want, ct = http.StatusNoContent, ""
		}
		if resp.StatusCode != want {
			t.Errorf("%s %s: %s, want %d", method, url, resp.Status, want)
			continue
		}
		if ct != "" && resp.Header.Get("Content-Type") != ct {
			t.Errorf("%s %s: Content-Type %q, want %q", method, url, resp.Header.Get("Content-Type"), ct)
		}
		if got := resp.Header.Get("Access-Control-Allow-Headers"); !strings.Contains(strings.ToLower(got), "mcp-protocol-version") {
			t.Errorf("%s %s: Access-Control-Allow-Headers %q", method, url, got)
		}
	}
}
