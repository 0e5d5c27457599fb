package generate

import (
	"strings"
	"testing"
)

// TestMCPCatalog builds the catalogue of MCP servers: a local card is
// checked (each error at its line and column in the card's file, under
// the manifest path that names it), published beside the catalogue and,
// with legacy_paths, at the earlier paths, byte for byte.
func TestMCPCatalog(t *testing.T) {
	dir := t.TempDir()
	writeSource(t, dir, "files/mcp-card.json", `{"$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
 "name": "org.fict/ask", "version": "1.0.0", "description": "Ask the docs.",
 "remotes": [{"type": "streamable-http", "url": "https://www.fict.org/mcp",
   "headers": [{"name": "Authorization", "isSecret": true, "value": "Bearer s3cr3t"}]}]}
`)
	src := `version: 1
site: {url: "https://www.fict.org/"}
well_known:
  mcp:
    legacy_paths: true
    servers:
      - {identifier: "urn:air:www.fict.org:docs:search", name: Fict docs search, url: "https://www.fict.org/mcp/server-card"}
      - {identifier: "urn:air:www.fict.org:docs:ask", name: Fict ask, card: files/mcp-card.json}
`
	doc := loadUnvalidated(t, src)
	tr, errs := Site(doc, Options{Now: now, Dir: dir})
	want := `files/mcp-card.json:4:69: well_known.mcp.servers[1].card: mcp: /remotes/0/headers/0/value: a secret header's value is published as it is`
	if got := errs.Errors(); tr != nil || len(got) != 1 || !strings.HasPrefix(got[0].String(), want) {
		t.Fatalf("errors: %v (tree %v); want one, %s...", got, tr != nil, want)
	}

	card := `{"$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
 "name": "org.fict/ask", "version": "1.0.0", "description": "Ask the docs.", "title": "Ask Fict",
 "remotes": [{"type": "streamable-http", "url": "https://www.fict.org/mcp"}]}
`
	writeSource(t, dir, "files/mcp-card.json", card)
	tr, errs = Site(load(t, src), Options{Now: now, Dir: dir})
	if errs.HasErrors() || len(errs.Warnings()) != 1 || !strings.Contains(errs.Warnings()[0].String(), `title "Ask Fict" is not the manifest's name "Fict ask"`) {
		t.Fatalf("diagnostics: %v; want the title's warning", errs)
	}
	for _, p := range []string{".well-known/mcp/servers/ask.json", ".well-known/mcp/server-card.json", ".well-known/mcp.json"} {
		if string(tr[p].Data) != card {
			t.Errorf("%s: %q, want the card byte for byte", p, tr[p].Data)
		}
	}
	if c := string(tr[".well-known/mcp/catalog.json"].Data); !strings.Contains(c, `"url": "https://www.fict.org/.well-known/mcp/servers/ask.json"`) ||
		!strings.Contains(c, `"url": "https://www.fict.org/mcp/server-card"`) {
		t.Errorf("catalog.json:\n%s", c)
	}
}
