package jsonschema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	upstream "github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/discgen/discgen/internal/jsonschema"
)

// agreeCases are schemas of every draft, valid and not (a schema the
// meta-schema refuses, a reference to a meta-schema), each with instances
// to validate.
var agreeCases = []struct {
	name, schema string
	instances    []string
}{
	{"draft-04", `{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "required": ["a"],
		"properties": {"a": {"type": "integer", "maximum": 3, "exclusiveMaximum": true}, "b": {"enum": ["x", "y"]}},
		"additionalProperties": false}`,
		[]string{`{"a": 3}`, `{"a": 2, "b": "z", "c": 1}`, `{}`, `[]`, `{"a": 1.5}`}},
	{"draft-06", `{"$schema": "http://json-schema.org/draft-06/schema#", "type": "array", "contains": {"const": 1},
		"items": {"type": "number", "exclusiveMinimum": 0}, "propertyNames": {"maxLength": 2}}`,
		[]string{`[1, 2]`, `[2, 3]`, `[0, 1]`, `"x"`}},
	{"draft-07", `{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"n": {"type": "string", "format": "email"}},
		"if": {"required": ["kind"]}, "then": {"properties": {"mail": {"$ref": "#/definitions/n"}}}, "else": {"maxProperties": 1}}`,
		[]string{`{"kind": 1, "mail": "a@b.example"}`, `{"kind": 1, "mail": 3}`, `{"a": 1, "b": 2}`, `{"a": 1}`}},
	{"draft 2019-09", `{"$schema": "https://json-schema.org/draft/2019-09/schema", "$defs": {"p": {"type": "string", "pattern": "^[a-z]+$"}},
		"type": "object", "patternProperties": {"^x-": {"$ref": "#/$defs/p"}}, "unevaluatedProperties": false, "dependentRequired": {"a": ["b"]}}`,
		[]string{`{"x-a": "abc"}`, `{"x-a": "ABC"}`, `{"y": 1}`, `{"a": 1}`}},
	{"draft 2020-12", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "array",
		"prefixItems": [{"type": "string"}, {"type": "boolean"}], "items": false, "minItems": 1, "uniqueItems": true}`,
		[]string{`["a", true]`, `["a", true, 3]`, `[]`, `[1, "x"]`, `["a", "a"]`}},
	{"no $schema", `{"type": ["string", "null"], "minLength": 2, "oneOf": [{"maxLength": 3}, {"pattern": "z"}]}`,
		[]string{`"ab"`, `"a"`, `null`, `"zzzz"`, `"abz"`, `5`}},
	{"refers to a meta-schema", `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"s": {"$ref": "http://json-schema.org/draft-07/schema#"}}}`,
		[]string{`{"s": {"type": "string"}}`, `{"s": {"type": 3}}`, `{"s": {"minLength": -1}}`}},
	{"refused by the meta-schema", `{"$schema": "http://json-schema.org/draft-07/schema#", "minLength": -1}`, nil},
	{"refused by the draft-04 meta-schema", `{"$schema": "http://json-schema.org/draft-04/schema#", "type": 3}`, nil},
	{"refused by the 2020-12 meta-schema", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"a": {"required": "a"}}}`, nil},
	{"unknown draft", `{"$schema": "https://example.org/not-a-draft", "type": "string"}`, nil},
	{"not JSON", `{"type": `, nil},
}

// outcome is what a library says of a schema and its instances: the
// compile error, then each instance's leaf errors, sorted.
func outcome(compile func() (func(any) error, error), instances []string, leaves func(error) []string) string {
	var b strings.Builder
	validate, err := compile()
	if err != nil {
		fmt.Fprintf(&b, "compile: %v\n", err)
		return b.String()
	}
	for _, in := range instances {
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			fmt.Fprintf(&b, "%s: %v\n", in, err)
			continue
		}
		ls := leaves(validate(v))
		slices.Sort(ls)
		fmt.Fprintf(&b, "%s: %q\n", in, ls)
	}
	return b.String()
}

// TestAgreesWithUpstream compiles schemas of every draft and validates
// instances with this copy and with upstream v5.3.1, and wants the same
// errors: the meta-schemas, compiled on first use here, decide as they do
// when upstream compiles them at initialisation.
func TestAgreesWithUpstream(t *testing.T) {
	a2a, err := os.ReadFile("../../wellknown/schemas/a2a-v0.3.0.json")
	if err != nil {
		t.Fatal(err)
	}
	card, err := os.ReadFile("../../wellknown/testdata/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := append(agreeCases[:len(agreeCases):len(agreeCases)], struct {
		name, schema string
		instances    []string
	}{"A2A v0.3.0", string(a2a), []string{string(card), `{"name": 3, "skills": [{"id": "a"}]}`}})
	// The first compilations run at once, so that -race sees the
	// meta-schemas compiled on first use by concurrent compilers.
	var wg sync.WaitGroup
	for _, c := range cases {
		wg.Go(func() {
			comp := jsonschema.NewCompiler()
			if comp.AddResource("https://discgen.invalid/concurrent.json", strings.NewReader(c.schema)) == nil {
				comp.Compile("https://discgen.invalid/concurrent.json")
			}
		})
	}
	wg.Wait()
	for _, c := range cases {
		url := "https://discgen.invalid/schemas/" + strings.ReplaceAll(c.name, " ", "-") + ".json"
		ref := ""
		if c.name == "A2A v0.3.0" {
			ref = "#/definitions/AgentCard"
		}
		ours := outcome(func() (func(any) error, error) {
			comp := jsonschema.NewCompiler()
			if err := comp.AddResource(url, strings.NewReader(c.schema)); err != nil {
				return nil, err
			}
			s, err := comp.Compile(url + ref)
			if err != nil {
				return nil, err
			}
			return s.Validate, nil
		}, c.instances, func(err error) []string {
			var ve *jsonschema.ValidationError
			if !errors.As(err, &ve) {
				return []string{fmt.Sprint(err)}
			}
			var out []string
			var walk func(e *jsonschema.ValidationError)
			walk = func(e *jsonschema.ValidationError) {
				out = append(out, e.KeywordLocation+" "+e.InstanceLocation+" "+e.Message)
				for _, x := range e.Causes {
					walk(x)
				}
			}
			walk(ve)
			return out
		})
		theirs := outcome(func() (func(any) error, error) {
			comp := upstream.NewCompiler()
			if err := comp.AddResource(url, strings.NewReader(c.schema)); err != nil {
				return nil, err
			}
			s, err := comp.Compile(url + ref)
			if err != nil {
				return nil, err
			}
			return s.Validate, nil
		}, c.instances, func(err error) []string {
			var ve *upstream.ValidationError
			if !errors.As(err, &ve) {
				return []string{fmt.Sprint(err)}
			}
			var out []string
			var walk func(e *upstream.ValidationError)
			walk = func(e *upstream.ValidationError) {
				out = append(out, e.KeywordLocation+" "+e.InstanceLocation+" "+e.Message)
				for _, x := range e.Causes {
					walk(x)
				}
			}
			walk(ve)
			return out
		})
		if ours != theirs {
			t.Errorf("%s:\nthis copy:\n%s\nupstream:\n%s", c.name, ours, theirs)
		}
		if testing.Verbose() {
			t.Logf("%s:\n%s", c.name, ours)
		}
	}
}

// TestAssumeValid: a compiler that assumes schemas valid compiles one its
// meta-schema refuses, and validates a valid one as any compiler does.
func TestAssumeValid(t *testing.T) {
	compile := func(assume bool, src string) (*jsonschema.Schema, error) {
		c := jsonschema.NewCompiler()
		c.AssumeValid = assume
		if err := c.AddResource("https://discgen.invalid/s.json", strings.NewReader(src)); err != nil {
			t.Fatal(err)
		}
		return c.Compile("https://discgen.invalid/s.json")
	}
	bad := `{"$schema": "http://json-schema.org/draft-07/schema#", "minLength": -1}`
	if _, err := compile(false, bad); err == nil {
		t.Error("a schema its meta-schema refuses compiled")
	}
	if _, err := compile(true, bad); err != nil {
		t.Errorf("AssumeValid: %v", err)
	}
	good := `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"a": {"type": "string"}}, "required": ["a"]}`
	for _, assume := range []bool{false, true} {
		s, err := compile(assume, good)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(map[string]any{"a": 1}); err == nil || !strings.Contains(fmt.Sprintf("%#v", err), "expected string, but got number") {
			t.Errorf("AssumeValid %v: %#v", assume, err)
		}
	}
}
