package agentcard

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

func problems(ps []kit.JSONProblem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintln(&b, p)
	}
	return b.String()
}

// mustValidate is kit.ValidateJSON for a schema and value within its
// bound.
func mustValidate(t *testing.T, data []byte, s *kit.Schema) []kit.JSONProblem {
	t.Helper()
	ps, err := kit.ValidateJSON(data, s)
	if err != nil {
		t.Fatalf("ValidateJSON: %v", err)
	}
	return ps
}

// TestAgentCard checks the shipped A2A schema accepts a valid card and
// puts each problem of a bad one at its line and column.
func TestAgentCard(t *testing.T) {
	s, _, err := Kind{}.ShippedSchema(A2AAgentCardV03)
	if err != nil {
		t.Fatalf("ShippedSchema: %v", err)
	}
	good, err := os.ReadFile("testdata/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	if ps := mustValidate(t, good, s); len(ps) != 0 {
		t.Errorf("valid card refused:\n%s", problems(ps))
	}
	bad := "{\n  \"name\": 3,\n  \"skills\": [\n    {\"id\": \"a\"}\n  ],\n  \"capabilities\": {\"streaming\": \"yes\"}\n}\n"
	want := `1:1: missing properties: 'defaultInputModes', 'defaultOutputModes', 'description', 'protocolVersion', 'url', 'version'
2:11: /name: expected string, but got number
4:5: /skills/0: missing properties: 'description', 'name', 'tags'
6:33: /capabilities/streaming: expected boolean, but got string
`
	if got := problems(mustValidate(t, []byte(bad), s)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := problems(mustValidate(t, []byte("{\n  \"name\": \"x\",\n  oops\n}"), s)); !strings.HasPrefix(got, "3:3: not JSON: ") {
		t.Errorf("syntax error: %q", got)
	}
	for data, want := range map[string]string{"{} {}": "1:4: not JSON: more than one JSON value", "{},": "1:3: not JSON: more than one", "\n\n  [1,]": "3:6: not JSON: ", "": "1:1: not JSON: "} {
		if got := problems(mustValidate(t, []byte(data), s)); !strings.HasPrefix(got, want) {
			t.Errorf("%q: %q, want %q...", data, got, want)
		}
	}
}

func TestDefaultSchema(t *testing.T) {
	for name, want := range map[string]string{"agent-card.json": A2AAgentCard, "a2a/agent-card.json": A2AAgentCard, "agent.json": A2AAgentCard, "a2a/agent.json": "", "gpc.json": ""} {
		if got := (Kind{}).DefaultSchema(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestSchemas: the names an entry may give, each compiled as a version
// of the A2A schema, and nothing given by a site.
func TestSchemas(t *testing.T) {
	var k kit.Kind = Kind{}
	sh, ok := k.(kit.SchemaShipper)
	if !ok {
		t.Fatal("not a kit.SchemaShipper")
	}
	if got := sh.Schemas(); !slices.Equal(got, []string{A2AAgentCard, A2AAgentCardV03, A2AAgentCardV10}) {
		t.Errorf("Schemas = %q", got)
	}
	for _, v := range []string{A2AAgentCardV03, A2AAgentCardV10} {
		if s, about, err := sh.ShippedSchema(v); s == nil || err != nil || !strings.HasPrefix(about, "A2A v") {
			t.Errorf("%s: %v %q %v", v, s, about, err)
		}
	}
	if _, _, err := sh.ShippedSchema(A2AAgentCard); err == nil {
		t.Errorf("%s compiles without a version", A2AAgentCard)
	}
	if k.Given(&manifest.Site{WellKnown: &manifest.WellKnown{Files: []manifest.WellKnownFile{{Name: AgentCardName}}}}) {
		t.Error("given by a site: a card is an entry of well_known.files, which would then be written twice")
	}
}

// TestCheckEntry: the name before A2A v0.3.0 draws a warning, the
// current one nothing.
func TestCheckEntry(t *testing.T) {
	if fs := (Kind{}).CheckEntry(LegacyAgentCard); len(fs) != 1 || !fs[0].Warning || !strings.Contains(fs[0].Message, "rename the entry to name: agent-card.json") {
		t.Errorf("agent.json: %v", fs)
	}
	if fs := (Kind{}).CheckEntry(AgentCardName); fs != nil {
		t.Errorf("agent-card.json: %v", fs)
	}
}
