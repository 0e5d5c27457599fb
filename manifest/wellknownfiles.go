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

// AdsTxt is /ads.txt or /app-ads.txt (IAB Tech Lab ads.txt 1.1): its
// records and its variables.
type AdsTxt struct {
	Records                []AdsRecord `json:"records"`
	Contact                Lines       `json:"contact,omitempty"`
	Subdomain              Lines       `json:"subdomain,omitempty"`
	InventoryPartnerDomain Lines       `json:"inventorypartnerdomain,omitempty"`
	OwnerDomain            string      `json:"ownerdomain,omitempty"`
	ManagerDomain          Lines       `json:"managerdomain,omitempty"`
}

// AdsRecord is one record of ads.txt: an advertising system, the
// publisher's account in it, the relationship and the certification
// authority ID.
type AdsRecord struct {
	Domain       string `json:"domain"`
	Account      string `json:"account"`
	Relationship string `json:"relationship"`
	Cert         string `json:"cert,omitempty"`
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
