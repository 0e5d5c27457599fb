package serverconf

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/discgen/discgen/tree"
)

// oauthTree holds the OAuth metadata documents as a build writes them.
func oauthTree() tree.Tree {
	return tree.Tree{
		".well-known/oauth-protected-resource":   {Data: []byte(`{"resource": "https://www.fict.org/mcp", "authorization_servers": ["https://www.fict.org"]}`)},
		".well-known/oauth-authorization-server": {Data: []byte(`{"issuer": "https://www.fict.org", "response_types_supported": ["code"]}`)},
	}
}

// TestOAuthMediaTypes: both documents are application/json (RFC 9728
// §3.2, RFC 8414 §3.2), the type their kind declares; the protected
// resource's has no extension and no entry of its own in the table.
func TestOAuthMediaTypes(t *testing.T) {
	tr := oauthTree()
	for p := range tr {
		if got, err := ContentType(tr, p); err != nil || got != appJSON {
			t.Errorf("%s: %q, %v; want %q", p, got, err, appJSON)
		}
	}
}

func TestLiveOAuthNginx(t *testing.T) {
	checkOAuth(t, serveNginx(t, oauthTree(), Access{}))
}

func TestLiveOAuthApache(t *testing.T) {
	checkOAuth(t, serveApache(t, oauthTree(), Access{}))
}

func TestLiveOAuthCaddy(t *testing.T) {
	checkOAuth(t, serveCaddy(t, oauthTree(), Access{}))
}

// checkOAuth fetches each document as a browser-based client of another
// origin does: 200, application/json, Access-Control-Allow-Origin: *, the
// bytes built.
func checkOAuth(t *testing.T, port int) {
	t.Helper()
	for p, e := range oauthTree() {
		url := fmt.Sprintf("http://127.0.0.1:%d/%s", port, p)
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", "https://client.example")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s: %v", url, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != appJSON || resp.Header.Get("Access-Control-Allow-Origin") != "*" || string(body) != string(e.Data) {
			t.Errorf("%s: %s, Content-Type %q, Access-Control-Allow-Origin %q, %d bytes; want 200, %q, \"*\" and the %d bytes built",
				url, resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get("Access-Control-Allow-Origin"), len(body), appJSON, len(e.Data))
		}
	}
}
