package agentcard

import (
	"encoding/json"
	"strings"
)

// A2A agent cards come in two versions whose shapes differ: v0.3 names
// its endpoint and protocol version at the top (url, protocolVersion,
// "0.3.0"), v1.0 lists them per interface (supportedInterfaces, each with
// its protocolVersion, "1.0"; A2A specification v1.0.1, section 3.6:
// Major.Minor only). A card is checked against the schema of the version
// it declares:
//
//   - a top-level protocolVersion string: v0.3 when its major version is
//     0, v1.0 otherwise (a v1.0 card that keeps the old member is then
//     told, by the v1.0 schema, that the member is not allowed there);
//   - otherwise, a card with supportedInterfaces: v1.0;
//   - otherwise v0.3, whose schema names what is missing.
//
// The v1.0 schema is the one the A2A specification generates from its
// proto (schemas/NOTICE.md), with the members the proto marks REQUIRED
// required; it is compiled the first time a card asks for it, never for
// a site without a card.

// The names of the versioned A2A schemas; A2AAgentCard picks one of them
// by the card's declared version.
const (
	A2AAgentCardV03 = "a2a-agent-card-v0.3"
	A2AAgentCardV10 = "a2a-agent-card-v1.0"
)

// LegacyAgentCard is the well-known name of an A2A agent card before A2A
// v0.3.0; clients now fetch AgentCardName.
const (
	LegacyAgentCard = "agent.json"
	AgentCardName   = "agent-card.json"
)

// ResolveSchema returns the schema a file is checked against: for
// A2AAgentCard, the versioned A2A schema the card data declares; any
// other name unchanged.
func ResolveSchema(name string, data []byte) string {
	if name != A2AAgentCard {
		return name
	}
	if A2ACardVersion(data) == "1.0" {
		return A2AAgentCardV10
	}
	return A2AAgentCardV03
}

// A2ACardVersion says which A2A version a card declares, "0.3" or "1.0",
// by the rule above; data that is not a JSON object is "0.3".
func A2ACardVersion(data []byte) string {
	var top map[string]json.RawMessage // members by their exact names
	if json.Unmarshal(data, &top) != nil {
		return "0.3"
	}
	var v string
	if json.Unmarshal(top["protocolVersion"], &v) == nil {
		if major(v) == "0" {
			return "0.3"
		}
		return "1.0"
	}
	if _, ok := top["supportedInterfaces"]; ok {
		return "1.0"
	}
	return "0.3"
}

// major is the part of a version before its first dot, spaces trimmed.
func major(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, '.'); i >= 0 {
		return v[:i]
	}
	return v
}
