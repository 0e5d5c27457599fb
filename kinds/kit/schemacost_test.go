package kit

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// nestedOneOf is a schema of n levels of oneOf over two $refs to the
// next level, whose last level accepts leaf: checking a value against it
// takes 2^n checks of the last level.
func nestedOneOf(n int, leaf string) string {
	defs := map[string]any{}
	for i := range n {
		next := fmt.Sprintf("#/$defs/a%d", i+1)
		defs[fmt.Sprintf("a%d", i)] = map[string]any{"oneOf": []any{map[string]any{"$ref": next}, map[string]any{"$ref": next}}}
	}
	defs[fmt.Sprintf("a%d", n)] = map[string]any{"type": leaf}
	b, err := json.Marshal(map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/a0", "$defs": defs})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// A kilobyte of nested oneOf over $refs took 22.8 s and 315 MB on the
// string "hello": it is refused before it is checked.
func TestNestedOneOfRefused(t *testing.T) {
	for _, leaf := range []string{"string", "integer"} {
		text := nestedOneOf(20, leaf)
		s, err := CompileSchema("s.json", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		ps, err := ValidateJSON([]byte(`"hello"`), s)
		var ce *CostError
		if !errors.As(err, &ce) || ps != nil {
			t.Fatalf("%s leaf: %v %v, want a CostError", leaf, ps, err)
		}
		if want := "checking this value would take more than 100000 steps (nested oneOf/anyOf/$ref); simplify the schema"; err.Error() != want {
			t.Errorf("message %q", err)
		}
		t.Logf("%d bytes of schema, %s leaf: refused in %v", len(text), leaf, time.Since(start))
	}
	// A few levels are checked, and their problems reported.
	s, err := CompileSchema("s.json", []byte(nestedOneOf(6, "integer")))
	if err != nil {
		t.Fatal(err)
	}
	if got := problems(mustValidate(t, []byte(`"hello"`), s)); !strings.Contains(got, "expected integer, but got string") {
		t.Errorf("got %q", got)
	}
	if got := problems(mustValidate(t, []byte(`7`), s)); !strings.Contains(got, "valid against schemas at indexes 0 and 1") {
		t.Errorf("got %q", got)
	}
}

// The cost of the shipped schema on a real card, and of ordinary schemas
// on ordinary values, is far below the bound.
func TestOrdinaryCosts(t *testing.T) {
	// The agent card kind's card and schema (kinds/agentcard).
	card, err := os.ReadFile("../agentcard/testdata/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile("../agentcard/schemas/a2a-v0.3.0-agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	a2a, err := CompileShipped("a2a-v0.3.0.json", text, "#/definitions/AgentCard")
	if err != nil {
		t.Fatal(err)
	}
	list, err := CompileSchema("s.json", []byte(`{"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	items := "[" + strings.Repeat(`{"n": 1},`, 9999) + `{"n": 1}]`
	for _, c := range []struct {
		name string
		data []byte
		max  int
	}{
		{"agent card", card, 1000},
		{"10,000 items", []byte(items), MaxSchemaSteps},
	} {
		var inst any
		dec := json.NewDecoder(strings.NewReader(string(c.data)))
		dec.UseNumber()
		if err := dec.Decode(&inst); err != nil {
			t.Fatal(err)
		}
		s := a2a
		if c.name != "agent card" {
			s = list
		}
		w := &costWalk{limit: MaxSchemaSteps}
		w.visit(s, inst, 0)
		t.Logf("%s: %d steps", c.name, w.steps)
		if w.steps > c.max || w.loop {
			t.Errorf("%s: %d steps (loop %v), want at most %d", c.name, w.steps, w.loop, c.max)
		}
		if _, err := ValidateJSON(c.data, s); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// Each way of making the validator work more is counted.
func TestCostsCounted(t *testing.T) {
	// fan is kw over four $refs to the next level, ten levels deep, a
	// resource of its own (its $refs resolve against its $id).
	fanN := func(kw string, n int) string {
		var defs []string
		for i := range n {
			ref := fmt.Sprintf(`{"$ref": "#/$defs/f%d"}`, i+1)
			defs = append(defs, fmt.Sprintf(`"f%d": {"%s": [%s]}`, i, kw, strings.Repeat(ref+",", 3)+ref))
		}
		defs = append(defs, fmt.Sprintf(`"f%d": {"type": "integer"}`, n))
		return `{"$id": "fan.json", "$defs": {` + strings.Join(defs, ", ") + `}, "$ref": "#/$defs/f0"}`
	}
	fan := func(kw string) string { return fanN(kw, 10) }
	// Once, a tree node's fan is within the bound; at each of two nodes,
	// reached by $dynamicRef, it is not.
	node := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "node.json", "$dynamicAnchor": "node", "properties": {"k": {"$dynamicRef": "#node"}}, "allOf": [` + fanN("anyOf", 5) + `]}`
	if s, err := CompileSchema("s.json", []byte(node)); err != nil {
		t.Fatal(err)
	} else if _, err := ValidateJSON([]byte(`{}`), s); err != nil {
		t.Fatalf("one node: %v", err)
	}
	for name, c := range map[string]struct{ schema, value string }{
		"anyOf":       {fan("anyOf"), `1`},
		"allOf":       {fan("allOf"), `1`},
		"oneOf":       {fan("oneOf"), `"x"`},
		"items":       {`{"items": ` + fan("anyOf") + `}`, `[1, 2]`},
		"properties":  {`{"properties": {"a": ` + fan("allOf") + `}}`, `{"a": 1}`},
		"additional":  {`{"additionalProperties": ` + fan("allOf") + `}`, `{"a": 1}`},
		"not":         {strings.ReplaceAll(fan("anyOf"), `"f10": {"type": "integer"}`, `"f10": {"not": {"type": "string"}}`), `1`},
		"big number":  {`{"anyOf": [` + strings.Repeat(`{"type": "integer"},`, 40) + `{"type": "integer"}]}`, `1e1000000`},
		"if":          {`{"if": {"const": 2}, "else": ` + fan("anyOf") + `}`, `1`},
		"dynamicRef":  {node, `{"k": {"k": {}}}`},
		"uniqueItems": {`{"uniqueItems": true}`, "[" + strings.Repeat(`{"a": [`+strings.Repeat("1,", 5000)+`1]},`, 19) + `{}]`},
		"enum":        {strings.ReplaceAll(fanN("anyOf", 2), `"f2": {"type": "integer"}`, `"f2": {"enum": [[`+strings.Repeat("1,", 30000)+`1]]}`), `1`},
	} {
		s, err := CompileSchema("s.json", []byte(c.schema))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, err = ValidateJSON([]byte(c.value), s)
		var ce *CostError
		if !errors.As(err, &ce) {
			t.Errorf("%s: %v, want a CostError", name, err)
		}
	}
}

// A schema that refers to itself on a member is recursion the value
// bounds; on the same value, the compiler refuses it.
func TestSelfReference(t *testing.T) {
	if _, err := CompileSchema("s.json", []byte(`{"anyOf": [{"$ref": "#"}, {"type": "string"}]}`)); err == nil || !strings.Contains(err.Error(), "infinite loop") {
		t.Errorf("a loop compiled: %v", err)
	}
	s, err := CompileSchema("s.json", []byte(`{"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := problems(mustValidate(t, []byte(`{"kids": [{"kids": [{"kids": 1}]}]}`), s)); !strings.Contains(got, "/kids/0/kids/0/kids: expected array") {
		t.Errorf("got %q", got)
	}
}

// The schema is bounded before it is compiled.
func TestSchemaShape(t *testing.T) {
	many := `{"anyOf": [` + strings.Repeat(`{},`, MaxSubschemas) + `{}]}`
	deep := strings.Repeat(`{"not": `, MaxSchemaDepth) + `{}` + strings.Repeat(`}`, MaxSchemaDepth)
	for name, c := range map[string]struct{ text, want string }{
		"many": {many, "the schema has more than 2000 objects"},
		"deep": {deep, "the schema nests more than 128 levels deep"},
	} {
		if _, err := CompileSchema("s.json", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	if _, err := CompileSchema("s.json", []byte(strings.Repeat(`{"not": `, 60)+`{}`+strings.Repeat(`}`, 60))); err != nil {
		t.Errorf("60 deep: %v", err)
	}
}
