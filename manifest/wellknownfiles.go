package manifest

// The files of design section 13 (ads.txt, gpc.json, traffic-advice,
// atproto-did, change-password, the app association files) are kinds that
// own their manifest values (kinds.go): their types are in their
// packages under kinds/, not here.

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
