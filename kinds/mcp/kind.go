// Package mcp is the kind of a site's catalogue of MCP servers and the
// server cards it publishes, after the Model Context Protocol's Server
// Card extension (SEP-2127), docs/discovery.md of
// github.com/modelcontextprotocol/experimental-ext-server-card at commit
// 3b2d974 (2026-07-13, "Protocol Revision: draft"), the last revision
// that names the catalogue's well-known URI:
//
//   - the MCP Catalog, /.well-known/mcp/catalog.json: {"specVersion":
//     "draft", "entries": [...]}, each entry an identifier (an AI Catalog
//     URN, urn:air:{publisher}:{namespace}:{name}), "type":
//     "application/mcp-server-card+json" and the url of the server's card.
//     An entry carries no name for people: the card's title is the one
//     clients show. It is served as application/json with
//     Access-Control-Allow-Origin: *, Access-Control-Allow-Methods: GET and
//     Access-Control-Allow-Headers: Content-Type (the draft's "CORS
//     Requirements") and Cache-Control: public, max-age=3600 ("Caching").
//   - an MCP Server Card, application/mcp-server-card+json, whose shape is
//     the extension's schema.json of the same commit: $schema (the v1
//     server-card schema URL), name (reverse DNS with one "/"), version
//     and description (1 to 100 characters) required; title, websiteUrl,
//     icons, repository, remotes (sse or streamable-http, an http(s) URL
//     or a {variable} template, headers) and _meta optional. The draft's
//     security considerations have a card hold no credentials: a header
//     marked isSecret whose value holds no {variable} is refused.
//
// The manifest's well_known.mcp.servers lists the servers: identifier,
// name (for people: discgen's messages, and a warning when a local card's
// title differs) and either url, a card served elsewhere (the draft
// reserves <streamable-http-url>/server-card, which the MCP server answers
// itself), or card, a card file beside the manifest that discgen checks
// and publishes at /.well-known/mcp/servers/<name>.json, <name> the last
// segment of the identifier; the catalogue's entry then points there. The
// draft lets a card live at any URI the catalogue names; discgen keeps the
// cards it writes in the well-known directory it already owns and answers
// (a missing one is a 404, never a single-page application's page).
//
// well_known.mcp.legacy_paths also publishes the one local card at the
// paths earlier proposals named and clients still read:
// /.well-known/mcp/server-card.json and /.well-known/mcp.json (the draft
// no longer recommends either). It takes exactly one server with a card.
//
// The revision of 2026-07-20 (commit 1491bd2, and 8924e08 of 2026-07-24)
// moved domain discovery to the cross-protocol AI Catalog,
// /.well-known/ai-catalog.json (application/ai-catalog+json, specVersion
// "1.0"), whose MCP entries are the same; following it is a change of
// this package.
//
// lint --type mcp reads either document: a catalogue (an object with
// entries or specVersion) or a server card (/.well-known/mcp.json, a
// file of /.well-known/mcp/servers/).
package mcp

import (
	"encoding/json"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// The paths, types and headers of the draft.
const (
	CatalogPath = ".well-known/mcp/catalog.json"
	// CardDir holds the cards discgen publishes, one <name>.json each.
	CardDir = ".well-known/mcp/servers/"
	// CardType is a server card's media type, the type of each entry.
	CardType = "application/mcp-server-card+json"
	// SpecVersion is the catalogue's specVersion in the draft followed.
	SpecVersion = "draft"
	// SchemaURL is the $schema a server card names.
	SchemaURL = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"

	cacheControl = "public, max-age=3600"
	allowMethods = "GET"
	allowHeaders = "Content-Type"
)

// The paths earlier proposals named for a site's one server card, in the
// order well_known.mcp.legacy_paths writes them.
const (
	LegacyCardPath = ".well-known/mcp/server-card.json"
	LegacyMCPPath  = ".well-known/mcp.json"
)

// Value is the manifest's well_known.mcp, the catalogue of a site's MCP
// servers. LegacyPaths also publishes the one local server card at the
// paths earlier drafts named (/.well-known/mcp.json and
// /.well-known/mcp/server-card.json).
type Value struct {
	Servers     []Server `json:"servers"`
	LegacyPaths bool     `json:"legacy_paths,omitempty"`
}

// Server is one entry of the catalogue: its discovery identifier, a name
// for people, and either the URL of a server card served elsewhere or
// Card, a server card file relative to the manifest that discgen checks
// and publishes.
type Server struct {
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	URL        string `json:"url,omitempty"`
	Card       string `json:"card,omitempty"`
}

// Kind is the catalogue and the cards it publishes.
type Kind struct{}

func value(site *manifest.Site) *Value { return kit.Value[Value](site, Kind{}.Key()) }

// NewValue returns a new empty well_known.mcp (kit.Owner).
func (Kind) NewValue() any { return new(Value) }

func (Kind) Name() string                   { return "mcp" }
func (Kind) Key() string                    { return "well_known.mcp" }
func (Kind) Path() string                   { return CatalogPath }
func (Kind) MediaType() string              { return "application/json" }
func (Kind) Given(site *manifest.Site) bool { return value(site) != nil }

// CrossOriginReader names the reader that needs CORS.
func (Kind) CrossOriginReader() string { return "a browser-based MCP client" }

// Serving gives the catalogue and each card the draft's headers.
func (Kind) Serving(p string) (kit.Serving, bool) {
	s := kit.Serving{MediaType: CardType, CacheControl: cacheControl, AllowMethods: allowMethods, AllowHeaders: allowHeaders}
	switch {
	case p == CatalogPath:
		s.MediaType = "application/json"
	case p == LegacyCardPath || p == LegacyMCPPath:
	case strings.HasPrefix(p, CardDir) && strings.HasSuffix(p, ".json") && !strings.Contains(p[len(CardDir):], "/"):
	default:
		return kit.Serving{}, false
	}
	return s, true
}

// CheckShape checks a hand-written catalogue.
func (Kind) CheckShape(data []byte) []kit.JSONProblem { return CheckCatalog(data) }

// Lint lints a catalogue, or a server card (a JSON object with neither
// entries nor specVersion).
func (Kind) Lint(data []byte) []diag.Diagnostic {
	var doc map[string]json.RawMessage
	if json.Unmarshal(data, &doc) == nil && doc["entries"] == nil && doc["specVersion"] == nil {
		return kit.JSONDiagnostics(CheckCard(data), kit.CodeJSON)
	}
	return kit.JSONDiagnostics(CheckCatalog(data), kit.CodeJSON)
}

// Companions returns the local cards, each at its path under CardDir and,
// with legacy_paths, at the earlier paths too.
func (Kind) Companions(site *manifest.Site) []kit.Companion {
	m := value(site)
	if m == nil {
		return nil
	}
	var out []kit.Companion
	for i, s := range m.Servers {
		if s.Card == "" {
			continue
		}
		paths := []string{CardDir + slug(s.Identifier) + ".json"}
		if m.LegacyPaths {
			paths = append(paths, LegacyCardPath, LegacyMCPPath)
		}
		name := s.Name
		out = append(out, kit.Companion{
			Key:    manifest.Key(manifest.Index("well_known.mcp.servers", i), "card"),
			Source: s.Card,
			Paths:  paths,
			Check:  func(data []byte) []kit.JSONProblem { return checkCardNamed(data, name) },
		})
	}
	return out
}

// slug is the last segment of an identifier, which names a local card's
// file.
func slug(identifier string) string {
	return identifier[strings.LastIndex(identifier, ":")+1:]
}
