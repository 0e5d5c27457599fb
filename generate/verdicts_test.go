package generate

import (
	"testing"
)

// fakeVerdicts is a Verdicts in memory that counts what it is asked.
type fakeVerdicts struct {
	valid map[string]bool
	added []string
	asked int
}

func (f *fakeVerdicts) Valid(k string) bool { f.asked++; return f.valid[k] }
func (f *fakeVerdicts) Add(k string)        { f.added = append(f.added, k) }

// A well-known file found valid is recorded under its key; one whose key
// is known is not checked again (an invalid card passes: its verdict is
// trusted); an invalid one is not recorded; a changed schema changes the
// key.
func TestSchemaVerdicts(t *testing.T) {
	dir := t.TempDir()
	const card = `{"protocolVersion": "0.3.0", "name": "Fict", "description": "An agent", "url": "https://www.fict.org/a2a",
  "version": "1.0.0", "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
  "skills": [{"id": "s", "name": "S", "description": "A skill", "tags": ["t"]}]}`
	writeSource(t, dir, "card.json", card)
	writeSource(t, dir, "bad.json", `{"name": 1}`)
	writeSource(t, dir, "schema.json", `{"type": "object", "required": ["a"]}`)
	writeSource(t, dir, "data.json", `{"a": 1}`)
	src := `version: 1
site: {url: "https://www.fict.org/"}
well_known:
  files:
    - {name: agent-card.json, source: card.json}
    - {name: x-data.json, source: data.json, schema: schema.json}
`
	v := &fakeVerdicts{valid: map[string]bool{}}
	if _, errs := Site(load(t, src), Options{Now: now, Dir: dir, Verdicts: v}); errs.HasErrors() {
		t.Fatalf("valid files: %v", errs)
	}
	if len(v.added) != 2 || v.asked != 2 {
		t.Fatalf("added %d keys after %d questions, want 2 and 2", len(v.added), v.asked)
	}
	cardKey, dataKey := v.added[0], v.added[1]

	// The card's key known: a card that would fail is not checked.
	v = &fakeVerdicts{valid: map[string]bool{verdictKey("a2a-agent-card-v0.3", nil, []byte(`{"name": 1}`)): true}}
	srcBad := `version: 1
site: {url: "https://www.fict.org/"}
well_known:
  files:
    - {name: agent-card.json, source: bad.json}
`
	if _, errs := Site(load(t, srcBad), Options{Now: now, Dir: dir, Verdicts: v}); errs.HasErrors() {
		t.Errorf("a card with a known verdict was checked again: %v", errs)
	}
	// Unknown: checked, refused, not recorded.
	v = &fakeVerdicts{valid: map[string]bool{}}
	if _, errs := Site(load(t, srcBad), Options{Now: now, Dir: dir, Verdicts: v}); !errs.HasErrors() || len(v.added) != 0 {
		t.Errorf("invalid card: errors %v, added %v; want errors and nothing added", errs, v.added)
	}
	// The same data under another schema text is another key.
	writeSource(t, dir, "schema.json", `{"type": "object", "required": ["b"]}`)
	v = &fakeVerdicts{valid: map[string]bool{cardKey: true, dataKey: true}}
	if _, errs := Site(load(t, src), Options{Now: now, Dir: dir, Verdicts: v}); !errs.HasErrors() {
		t.Errorf("a changed schema was not checked again")
	}
}
