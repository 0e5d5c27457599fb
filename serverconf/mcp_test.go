package serverconf

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/discgen/discgen/tree"
)

// mcpTree holds the catalogue of MCP servers and the cards a build
// publishes, at their path and the earlier ones.
func mcpTree() tree.Tree {
	card := []byte(`{"$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json", "name": "org.fict/ask", "version": "1", "description": "Ask."}`)
	return tree.Tree{
		".well-known/mcp/catalog.json":     {Data: []byte(`{"specVersion": "draft", "entries": []}`)},
		".well-known/mcp/servers/ask.json": {Data: card},
		".well-known/mcp/server-card.json": {Data: card},
		".well-known/mcp.json":             {Data: card},
	}
}

// mcpHeaders are the headers the draft names for each file (MCP Server
// Card extension, docs/discovery.md: "CORS Requirements", "Caching").
func mcpHeaders(p string) map[string]string {
	ct := "application/mcp-server-card+json"
	if p == ".well-known/mcp/catalog.json" {
		ct = appJSON
	}
	return map[string]string{
		"Content-Type":                 ct,
		"Access-Control-Allow-Origin":  "*",
		"Access-Control-Allow-Methods": "GET",
		"Access-Control-Allow-Headers": "Content-Type",
	}
}

// TestMCPHeaders: each format writes the draft's headers for the
// catalogue and the cards.
func TestMCPHeaders(t *testing.T) {
	tr := mcpTree()
	for p := range tr {
		want := mcpHeaders(p)["Content-Type"]
		if got, err := ContentType(tr, p); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", p, got, err, want)
		}
	}
	public, _, err := Render(tr, []Kind{Headers})
	if err != nil {
		t.Fatal(err)
	}
	out := public["_headers"].Data
	for _, want := range []string{
		"\n/.well-known/mcp/catalog.json\n  Content-Type: application/json\n  Cache-Control: public, max-age=3600\n",
		"  Access-Control-Allow-Methods: GET\n  Access-Control-Allow-Headers: Content-Type\n",
		"\n/.well-known/mcp.json\n  Content-Type: application/mcp-server-card+json\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("_headers lacks %q:\n%s", want, out)
		}
	}
}

func TestLiveMCPNginx(t *testing.T) {
	checkMCP(t, serveNginx(t, mcpTree(), Access{}))
}

func TestLiveMCPApache(t *testing.T) {
	checkMCP(t, serveApache(t, mcpTree(), Access{}))
}

func TestLiveMCPCaddy(t *testing.T) {
	checkMCP(t, serveCaddy(t, mcpTree(), Access{}))
}

// checkMCP fetches each file as a browser-based MCP client of another
// origin does, asking for a card's media type: 200 and the draft's
// headers, Cache-Control with public and max-age=3600 however the server
// writes it, and an ETag.
func checkMCP(t *testing.T, port int) {
	t.Helper()
	for p := range mcpTree() {
		url := fmt.Sprintf("http://127.0.0.1:%d/%s", port, p)
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", "https://client.example")
		req.Header.Set("Accept", "application/mcp-server-card+json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s: %v", url, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %s", url, resp.Status)
			continue
		}
		for h, want := range mcpHeaders(p) {
			if got := strings.Join(resp.Header.Values(h), ", "); got != want {
				t.Errorf("%s: %s %q, want %q", url, h, got, want)
			}
		}
		if resp.Header.Get("ETag") == "" {
			t.Errorf("%s: no ETag, which the draft's clients revalidate with", url)
		}
		cc := strings.Join(resp.Header.Values("Cache-Control"), ", ")
		if !strings.Contains(cc, "public") || !strings.Contains(cc, "max-age=3600") || strings.Count(cc, "max-age") != 1 {
			t.Errorf("%s: Cache-Control %q, want public and max-age=3600", url, cc)
		}
	}
}
