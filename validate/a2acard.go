package validate

import (
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/wellknown"
)

// legacyAgentCard warns of an A2A agent card at /.well-known/agent.json,
// the name before A2A v0.3.0: clients fetch
// /.well-known/agent-card.json (A2A v1.0.1, section 8.2; its IANA
// registration), and find nothing at the old name.
func (v *checker) legacyAgentCard(np string, f manifest.WellKnownFile) {
	if f.Name != wellknown.LegacyAgentCard {
		return
	}
	v.warn(np, "/.well-known/%s is the A2A agent card's name before A2A v0.3.0; clients fetch /.well-known/%s: rename the entry to name: %s (keep the old name as a second entry only for old clients)",
		wellknown.LegacyAgentCard, wellknown.AgentCardName, wellknown.AgentCardName)
}
