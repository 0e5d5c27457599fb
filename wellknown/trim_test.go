package wellknown

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"strings"
	"testing"
)

// The shipped A2A schema is embedded trimmed: the definitions AgentCard
// reaches, without the annotations (description, examples, default,
// title), 5 KB of the 104 KB document. Compiling the whole document took
// most of a build's time though an agent card uses a fifth of it. The
// dated copy stays in schemas/ as it was published; this test derives
// the trimmed file from it and fails when they differ (go test -update
// rewrites it).

// annotationKeywords are the keywords trimSchema drops: they never change
// whether a value is valid, nor a message.
var annotationKeywords = map[string]bool{"description": true, "examples": true, "default": true, "title": true}

// trimSchema returns the definitions of a draft-07 document that root
// reaches through $ref, annotations left out.
func trimSchema(t *testing.T, src []byte, root string) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	defs := doc["definitions"].(map[string]any)
	keep := map[string]any{}
	var schema func(v any) any
	schemas := func(v any) any { // a list of schemas, or one
		l, ok := v.([]any)
		if !ok {
			return schema(v)
		}
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = schema(s)
		}
		return out
	}
	schema = func(v any) any {
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := map[string]any{}
		for k, x := range m {
			switch {
			case annotationKeywords[k]:
			case k == "$ref":
				ref := x.(string)
				name, ok := strings.CutPrefix(ref, "#/definitions/")
				if !ok || defs[name] == nil {
					t.Fatalf("unexpected $ref %q", ref)
				}
				if _, done := keep[name]; !done {
					keep[name] = nil
					keep[name] = schema(defs[name])
				}
				out[k] = x
			case k == "properties" || k == "patternProperties" || k == "definitions":
				props := map[string]any{}
				for p, s := range x.(map[string]any) {
					props[p] = schema(s)
				}
				out[k] = props
			case k == "items" || k == "anyOf" || k == "allOf" || k == "oneOf":
				out[k] = schemas(x)
			case k == "additionalProperties" || k == "not" || k == "additionalItems":
				out[k] = schema(x)
			case k == "type" || k == "required" || k == "const" || k == "enum" || k == "$schema" ||
				k == "minItems" || k == "maxItems" || k == "minLength" || k == "maxLength" || k == "pattern" ||
				k == "minimum" || k == "maximum":
				out[k] = x
			default:
				t.Fatalf("keyword %q: trimSchema does not know whether it holds schemas", k)
			}
		}
		return out
	}
	keep[root] = nil
	keep[root] = schema(defs[root])
	out, err := json.MarshalIndent(map[string]any{"$schema": doc["$schema"], "definitions": keep}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func TestShippedSchemaTrimmed(t *testing.T) {
	for name, info := range shippedSchemas {
		full, err := os.ReadFile(info.full)
		if err != nil {
			t.Fatal(err)
		}
		want := trimSchema(t, full, strings.TrimPrefix(info.ref, "#/definitions/"))
		if *update {
			if err := os.WriteFile(info.file, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := shipped.ReadFile(info.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %s is not %s trimmed to %s; run go test -update", name, info.file, info.full, info.ref)
		}
	}
}

// TestTrimmedSchemaAgrees validates cards against the full dated copy and
// the trimmed one, and wants the same problems: the valid card, and the
// card with each value, at every depth, removed or replaced by a value of
// each JSON type, with security schemes and signatures added so that
// every definition AgentCard reaches is used.
func TestTrimmedSchemaAgrees(t *testing.T) {
	info := shippedSchemas[A2AAgentCard]
	fullText, err := os.ReadFile(info.full)
	if err != nil {
		t.Fatal(err)
	}
	full, err := compile(schemaBase+"full.json", fullText, info.ref)
	if err != nil {
		t.Fatal(err)
	}
	trimmed, _, err := Shipped(A2AAgentCard)
	if err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile("testdata/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	var card map[string]any
	if err := json.Unmarshal(good, &card); err != nil {
		t.Fatal(err)
	}
	card["provider"] = map[string]any{"organization": "Fict", "url": "https://www.fict.org/"}
	card["capabilities"] = map[string]any{"streaming": false, "extensions": []any{map[string]any{"uri": "https://x.example/", "required": true, "params": map[string]any{}}}}
	card["additionalInterfaces"] = []any{map[string]any{"url": "https://www.fict.org/a2a/grpc", "transport": "GRPC"}}
	card["securitySchemes"] = map[string]any{
		"key":  map[string]any{"type": "apiKey", "in": "header", "name": "X-Key"},
		"http": map[string]any{"type": "http", "scheme": "bearer"},
		"oidc": map[string]any{"type": "openIdConnect", "openIdConnectUrl": "https://www.fict.org/.well-known/openid-configuration"},
		"mtls": map[string]any{"type": "mutualTLS"},
		"oauth2": map[string]any{"type": "oauth2", "flows": map[string]any{
			"authorizationCode": map[string]any{"authorizationUrl": "https://a.example/", "tokenUrl": "https://t.example/", "scopes": map[string]any{"r": "read"}},
			"clientCredentials": map[string]any{"tokenUrl": "https://t.example/", "scopes": map[string]any{}},
			"implicit":          map[string]any{"authorizationUrl": "https://a.example/", "scopes": map[string]any{}},
			"password":          map[string]any{"tokenUrl": "https://t.example/", "scopes": map[string]any{}},
		}},
	}
	card["security"] = []any{map[string]any{"oauth2": []any{"r"}}}
	card["signatures"] = []any{map[string]any{"protected": "eyJ9", "signature": "c2ln"}}
	replacements := []any{nil, true, json.Number("3"), "x", []any{}, []any{"x"}, map[string]any{}}
	check := func(v any) {
		data, err := json.MarshalIndent(v, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		pa, errA := ValidateJSON(data, full)
		pb, errB := ValidateJSON(data, trimmed)
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v, %v", data, errA, errB)
		}
		if a, b := problems(pa), problems(pb); a != b {
			t.Fatalf("%s\nfull schema:\n%s\ntrimmed:\n%s", data, a, b)
		}
	}
	check(card)
	n := 0
	// mutate calls check on the card with each value below v replaced
	// in turn; set puts a value back in v's place.
	var mutate func(v any, set func(any))
	mutate = func(v any, set func(any)) {
		for _, r := range replacements {
			set(r)
			check(card)
			n++
		}
		set(v)
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				delete(v, k)
				check(card)
				mutate(x, func(y any) { v[k] = y })
			}
		case []any:
			for i, x := range v {
				mutate(x, func(y any) { v[i] = y })
			}
		}
	}
	for k, x := range card {
		delete(card, k)
		check(card)
		mutate(x, func(y any) { card[k] = y })
	}
	if n < 400 {
		t.Errorf("only %d cards checked", n)
	}
}

// TestShippedSchemasValid compiles each shipped schema as a manifest's
// schema file is compiled, checked against its draft's meta-schema:
// Shipped skips that check at every build.
func TestShippedSchemasValid(t *testing.T) {
	for name, info := range shippedSchemas {
		data, err := shipped.ReadFile(info.file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := compile(schemaBase+path.Base(info.full), data, info.ref); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
