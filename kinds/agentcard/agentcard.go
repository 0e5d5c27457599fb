// Package agentcard is the kind of the A2A agent card,
// /.well-known/agent-card.json (A2A specification v1.0.1, section 8.2; v0.3.0
// before it): a JSON document an A2A client fetches to learn an agent's
// endpoint, skills and security schemes. A site gives its card as an
// entry of well_known.files (content or source), not from a key of its
// own: the kind has no value to check or render (Given is always false),
// and what it adds is the check of such an entry against the A2A JSON
// Schema of the version the card declares (version.go), which discgen
// ships (schemas/, their sources and licences in schemas/NOTICE.md;
// kit.SchemaShipper), a warning for the card's name before A2A v0.3.0,
// agent.json (kit.EntryChecker), and the same check of a hand-written
// card for lint (kit.Linter: discgen lint --type agent-card.json).
//
// An entry named agent-card.json, wherever it stands under
// /.well-known/, or agent.json is checked against the card's schema
// unless it names another; any entry may name a2a-agent-card (the
// version by the card), a2a-agent-card-v0.3 or a2a-agent-card-v1.0.
package agentcard

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"sync"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// A2AAgentCard is the name of the shipped A2A agent card schema, whose
// version the card picks (ResolveSchema).
const A2AAgentCard = "a2a-agent-card"

//go:embed schemas/a2a-v0.3.0-agent-card.json schemas/a2a-v1.0.1-agent-card.json
var shipped embed.FS

// shippedSchemas maps a schema name to its embedded file and the schema
// within it. The embedded file is the dated copy (full) trimmed to what
// ref reaches, without annotations (TestShippedSchemaTrimmed derives it):
// compiling the whole 104 KB A2A document cost a build several
// milliseconds for the fifth of it a card uses.
// A v1.0 file also names the dated proto its required members come from
// (version.go).
var shippedSchemas = map[string]struct{ file, full, ref, about, proto string }{
	A2AAgentCardV03: {file: "schemas/a2a-v0.3.0-agent-card.json", full: "schemas/a2a-v0.3.0.json", ref: "#/definitions/AgentCard", about: "A2A v0.3.0"},
	A2AAgentCardV10: {file: "schemas/a2a-v1.0.1-agent-card.json", full: "schemas/a2a-v1.0.1.json", ref: "#/$defs/AgentCard", about: "A2A v1.0.1", proto: "schemas/a2a-v1.0.1.proto"},
}

// compiled holds each shipped schema, compiled the first time a card
// asks for it: never for a site without a card.
var compiled = func() map[string]func() (*kit.Schema, error) {
	m := map[string]func() (*kit.Schema, error){}
	for name, info := range shippedSchemas {
		m[name] = sync.OnceValues(func() (*kit.Schema, error) {
			data, err := shipped.ReadFile(info.file)
			if err != nil {
				return nil, err
			}
			return kit.CompileShipped(path.Base(info.full), data, info.ref)
		})
	}
	return m
}()

// Kind is the A2A agent card.
type Kind struct{}

func (Kind) Name() string                                    { return "agent-card.json" }
func (Kind) Key() string                                     { return "well_known.files" }
func (Kind) Path() string                                    { return ".well-known/" + AgentCardName }
func (Kind) MediaType() string                               { return "application/json" }
func (Kind) Given(*manifest.Site) bool                       { return false }
func (Kind) Check(*manifest.Site, kit.Build) []kit.Finding   { return nil }
func (Kind) Render(*manifest.Site, kit.Build) ([]byte, bool) { return nil, false }

// Schemas lists the names of the schemas discgen ships, sorted.
func (Kind) Schemas() []string {
	out := []string{A2AAgentCard}
	for n := range shippedSchemas {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// DefaultSchema returns the shipped schema a well-known file of this name
// is checked against when its entry names none: agent-card.json (A2A),
// wherever it stands, and agent.json, the card's name before A2A v0.3.0
// (LegacyAgentCard). It returns "" for other names.
func (Kind) DefaultSchema(name string) string {
	if path.Base(name) == AgentCardName || name == LegacyAgentCard {
		return A2AAgentCard
	}
	return ""
}

// ResolveSchema returns the schema a file is checked against: for
// A2AAgentCard, the versioned A2A schema the card data declares; any
// other name unchanged.
func (Kind) ResolveSchema(name string, data []byte) string { return ResolveSchema(name, data) }

// ShippedSchema returns the compiled schema of a versioned name and the
// A2A version it is.
func (Kind) ShippedSchema(version string) (*kit.Schema, string, error) {
	c, ok := compiled[version]
	if !ok {
		return nil, "", fmt.Errorf("%q is not a schema discgen ships", version)
	}
	s, err := c()
	return s, shippedSchemas[version].about, err
}

// CheckEntry warns of an agent card at /.well-known/agent.json, the name
// before A2A v0.3.0: clients fetch /.well-known/agent-card.json (A2A
// v1.0.1, section 8.2; its IANA registration), and find nothing at the
// old name.
func (Kind) CheckEntry(name string) []kit.Finding {
	if name != LegacyAgentCard {
		return nil
	}
	return []kit.Finding{{Warning: true, Message: fmt.Sprintf("/.well-known/%s is the A2A agent card's name before A2A v0.3.0; clients fetch /.well-known/%s: rename the entry to name: %s (keep the old name as a second entry only for old clients)",
		LegacyAgentCard, AgentCardName, AgentCardName)}}
}

// Lint checks a hand-written agent card against the A2A schema of the
// version it declares, each problem at its line and column, the message
// naming the schema as a build does ("(schema A2A v1.0.1)").
func (k Kind) Lint(data []byte) []diag.Diagnostic {
	s, about, err := k.ShippedSchema(ResolveSchema(A2AAgentCard, data))
	var ps []kit.JSONProblem
	if err == nil {
		ps, err = kit.ValidateJSON(data, s)
	}
	if err != nil {
		return []diag.Diagnostic{{Pos: diag.Pos{Line: 1, Col: 1}, Severity: diag.Error, Code: kit.CodeJSON, Message: err.Error()}}
	}
	ds := kit.JSONDiagnostics(ps, kit.CodeJSON)
	for i := range ds {
		ds[i].Message += " (schema " + about + ")"
	}
	return ds
}
