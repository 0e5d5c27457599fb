package kit

import (
	"fmt"
	"strings"
	"testing"
)

func problems(ps []JSONProblem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintln(&b, p)
	}
	return b.String()
}

// mustValidate is ValidateJSON for a schema and value within its bound.
func mustValidate(t *testing.T, data []byte, s *Schema) []JSONProblem {
	t.Helper()
	ps, err := ValidateJSON(data, s)
	if err != nil {
		t.Fatalf("ValidateJSON: %v", err)
	}
	return ps
}

func TestPositionsOfKeysNeedingEscapes(t *testing.T) {
	data := []byte("{\"a/b\": {\"c~d\": [1, {\"é x\": true}]}}")
	p, err := PositionsOf(data)
	if err != nil {
		t.Fatal(err)
	}
	for ptr, off := range map[string]int{"": 0, "/a~1b": 8, "/a~1b/c~0d": 16, "/a~1b/c~0d/0": 17, "/a~1b/c~0d/1/é x": 29} {
		if got := p.OffsetOf(ptr); got != off {
			t.Errorf("%q at %d, want %d", ptr, got, off)
		}
	}
	// The validator's locations are URL-escaped too.
	if got := pointerOf("/a~1b/c~0d/1/%C3%A9%20x"); got != "/a~1b/c~0d/1/é x" {
		t.Errorf("pointerOf: %q", got)
	}
}

func TestCompileSchema(t *testing.T) {
	s, err := CompileSchema("my.schema.json", []byte(`{"type": "object", "required": ["gpc"], "properties": {"gpc": {"type": "boolean"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := problems(mustValidate(t, []byte("{\n \"gpc\": 1}"), s)); got != "2:9: /gpc: expected boolean, but got number\n" {
		t.Errorf("got %q", got)
	}
	for name, text := range map[string]string{
		"remote ref": `{"$ref": "https://example.org/other.json"}`,
		"file ref":   `{"$ref": "other.json"}`,
		"not json":   `{"type": `,
		"too large":  `{"description": "` + strings.Repeat("x", MaxSchemaBytes) + `"}`,
	} {
		if _, err := CompileSchema("s.json", []byte(text)); err == nil {
			t.Errorf("%s: compiled", name)
		} else if strings.Contains(err.Error(), "discgen.invalid") {
			t.Errorf("%s: message names the registration URL: %v", name, err)
		}
	}
}

func TestManyProblemsAreBounded(t *testing.T) {
	s, err := CompileSchema("s.json", []byte(`{"type": "array", "items": {"type": "string"}}`))
	if err != nil {
		t.Fatal(err)
	}
	data := "[" + strings.Repeat("1,", 500) + "1]"
	ps := mustValidate(t, []byte(data), s)
	if len(ps) != MaxJSONProblems+1 || !strings.Contains(ps[MaxJSONProblems].Message, "401 more problems") {
		t.Errorf("%d problems, last %v", len(ps), ps[len(ps)-1])
	}
}

// TestDeepNestingIsRefused: a file nested past MaxJSONDepth is one
// problem at the place it goes too deep, before any schema work.
func TestDeepNestingIsRefused(t *testing.T) {
	s, err := CompileSchema("s.json", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(strings.Repeat("[", 1<<20-2) + strings.Repeat("]", 1))
	ps := mustValidate(t, data, s)
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "nested more than 10000 levels") || ps[0].Line != 1 || ps[0].Col != MaxJSONDepth+2 {
		t.Errorf("problems %v", ps)
	}
}
