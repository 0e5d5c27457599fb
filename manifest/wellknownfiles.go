package manifest

// The files of design section 13: small files that sites publish by hand,
// each written from the manifest and checked against its specification.

// AppLinks names the app association files, each a JSON file relative to
// the manifest: Apple's apple-app-site-association and Android's Digital
// Asset Links statement list (assetlinks.json).
type AppLinks struct {
	Apple   string `json:"apple,omitempty"`
	Android string `json:"android,omitempty"`
}

// MCP is the catalogue of a site's MCP servers, /.well-known/mcp/catalog.json
// (kinds/mcp). LegacyPaths also publishes the one local server card at
// the paths earlier drafts named (/.well-known/mcp.json and
// /.well-known/mcp/server-card.json).
type MCP struct {
	Servers     []MCPServer `json:"servers"`
	LegacyPaths bool        `json:"legacy_paths,omitempty"`
}

// MCPServer is one entry of the catalogue: its discovery identifier, a
// name for people, and either the URL of a server card served elsewhere
// or Card, a server card file relative to the manifest that discgen
// checks and publishes.
type MCPServer struct {
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	URL        string `json:"url,omitempty"`
	Card       string `json:"card,omitempty"`
}
