package agentcard

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
)

// The shipped A2A schema is embedded trimmed: the definitions AgentCard
// reaches, without the annotations (description, examples, default,
// title), 5 KB of the 104 KB document. Compiling the whole document took
// most of a build's time though an agent card uses a fifth of it. The
// dated copy stays in schemas/ as it was published; this test derives
// the trimmed file from it and fails when they differ (go test -update
// rewrites it).

var update = flag.Bool("update", false, "rewrite the trimmed shipped schemas")

// annotationKeywords are the keywords trimSchema drops: they never change
// whether a value is valid, nor a message.
var annotationKeywords = map[string]bool{"description": true, "examples": true, "default": true, "title": true}

// trimSchema returns the definitions of a document (draft-07
// "definitions" or 2020-12 "$defs") that root reaches through $ref,
// annotations left out.
func trimSchema(t *testing.T, src []byte, root string) []byte {
	t.Helper()
	doc := decodeSchema(t, src)
	defsKey := "definitions"
	if _, ok := doc["$defs"]; ok {
		defsKey = "$defs"
	}
	defs := doc[defsKey].(map[string]any)
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
				name, ok := strings.CutPrefix(ref, "#/"+defsKey+"/")
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
			case k == "additionalProperties" || k == "not" || k == "additionalItems" || k == "propertyNames":
				out[k] = schema(x)
			case k == "type" || k == "required" || k == "const" || k == "enum" || k == "$schema" ||
				k == "minItems" || k == "maxItems" || k == "minLength" || k == "maxLength" || k == "pattern" ||
				k == "minimum" || k == "maximum" || k == "format":
				out[k] = x
			default:
				t.Fatalf("keyword %q: trimSchema does not know whether it holds schemas", k)
			}
		}
		return out
	}
	keep[root] = nil
	keep[root] = schema(defs[root])
	out, err := json.MarshalIndent(map[string]any{"$schema": doc["$schema"], defsKey: keep}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func decodeSchema(t *testing.T, src []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// fullSchema is the dated copy of a shipped schema as it is checked: for
// the v1.0 schema, with the members the dated proto marks REQUIRED
// required (withProtoRequired).
func fullSchema(t *testing.T, full, proto string) []byte {
	t.Helper()
	src, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	if proto == "" {
		return src
	}
	text, err := os.ReadFile(proto)
	if err != nil {
		t.Fatal(err)
	}
	return withProtoRequired(t, src, text)
}

func TestShippedSchemaTrimmed(t *testing.T) {
	for name, info := range shippedSchemas {
		full := fullSchema(t, info.full, info.proto)
		want := trimSchema(t, full, path.Base(info.ref))
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
	card := readCard(t, "testdata/agent-card.json")
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
	if n := trimmedAgrees(t, A2AAgentCardV03, card); n < 400 {
		t.Errorf("only %d cards checked", n)
	}
}

// TestTrimmedSchemaAgreesV1 is TestTrimmedSchemaAgrees for the v1.0
// schema, whose full form is the dated copy with the proto's required
// members: a v1.0 card using every definition AgentCard reaches, in
// ProtoJSON's names, with one snake_case member as parsers accept.
func TestTrimmedSchemaAgreesV1(t *testing.T) {
	card := readCard(t, "testdata/agent-card-v1.json")
	card["provider"] = map[string]any{"organization": "Fict", "url": "https://www.fict.org/"}
	card["documentation_url"] = "https://www.fict.org/docs/"
	card["iconUrl"] = "https://www.fict.org/icon.png"
	card["capabilities"] = map[string]any{"streaming": false, "pushNotifications": true, "extendedAgentCard": false,
		"extensions": []any{map[string]any{"uri": "https://x.example/", "required": true, "params": map[string]any{"a": 1}}}}
	card["supportedInterfaces"] = append(card["supportedInterfaces"].([]any),
		map[string]any{"url": "https://www.fict.org/a2a/grpc", "protocolBinding": "GRPC", "protocolVersion": "1.0", "tenant": "t"})
	card["securitySchemes"] = map[string]any{
		"key":  map[string]any{"apiKeySecurityScheme": map[string]any{"location": "header", "name": "X-Key"}},
		"http": map[string]any{"httpAuthSecurityScheme": map[string]any{"scheme": "Bearer", "bearerFormat": "JWT"}},
		"oidc": map[string]any{"openIdConnectSecurityScheme": map[string]any{"openIdConnectUrl": "https://www.fict.org/.well-known/openid-configuration"}},
		"mtls": map[string]any{"mtlsSecurityScheme": map[string]any{"description": "client certificates"}},
		"oauth2": map[string]any{"oauth2SecurityScheme": map[string]any{"oauth2MetadataUrl": "https://a.example/", "flows": map[string]any{
			"authorizationCode": map[string]any{"authorizationUrl": "https://a.example/", "tokenUrl": "https://t.example/", "scopes": map[string]any{"r": "read"}, "pkceRequired": true},
		}}},
		"oauth2b": map[string]any{"oauth2SecurityScheme": map[string]any{"flows": map[string]any{
			"clientCredentials": map[string]any{"tokenUrl": "https://t.example/", "scopes": map[string]any{}},
		}}},
		"oauth2c": map[string]any{"oauth2SecurityScheme": map[string]any{"flows": map[string]any{
			"deviceCode": map[string]any{"deviceAuthorizationUrl": "https://d.example/", "tokenUrl": "https://t.example/", "scopes": map[string]any{}},
		}}},
		"oauth2d": map[string]any{"oauth2SecurityScheme": map[string]any{"flows": map[string]any{
			"implicit": map[string]any{"authorizationUrl": "https://a.example/", "scopes": map[string]any{}},
		}}},
		"oauth2e": map[string]any{"oauth2SecurityScheme": map[string]any{"flows": map[string]any{
			"password": map[string]any{"tokenUrl": "https://t.example/", "scopes": map[string]any{}},
		}}},
	}
	card["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{"oauth2": map[string]any{"list": []any{"r"}}}}}
	skill := card["skills"].([]any)[0].(map[string]any)
	skill["examples"] = []any{"What does Disallow do?"}
	skill["inputModes"] = []any{"text/plain"}
	skill["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{}}}
	card["signatures"] = []any{map[string]any{"protected": "eyJ9", "signature": "c2ln", "header": map[string]any{"kid": "k"}}}
	if n := trimmedAgrees(t, A2AAgentCardV10, card); n < 400 {
		t.Errorf("only %d cards checked", n)
	}
}

func readCard(t *testing.T, file string) map[string]any {
	t.Helper()
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var card map[string]any
	if err := json.Unmarshal(good, &card); err != nil {
		t.Fatal(err)
	}
	return card
}

// trimmedAgrees validates card against the full and the trimmed form of
// the shipped schema name, and every card made from it by removing a
// value at any depth or replacing it by a value of each JSON type; it
// fails at the first card they disagree on, and returns the count.
func trimmedAgrees(t *testing.T, name string, card map[string]any) int {
	t.Helper()
	info := shippedSchemas[name]
	full, err := kit.CompileShipped("full.json", fullSchema(t, info.full, info.proto), info.ref)
	if err != nil {
		t.Fatal(err)
	}
	trimmed, _, err := Kind{}.ShippedSchema(name)
	if err != nil {
		t.Fatal(err)
	}
	if ps := mustValidate(t, mustJSON(t, card), trimmed); len(ps) != 0 {
		t.Fatalf("the card to mutate is refused:\n%s", problems(ps))
	}
	replacements := []any{nil, true, json.Number("3"), "x", []any{}, []any{"x"}, map[string]any{}}
	check := func(v any) {
		data, err := json.MarshalIndent(v, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		pa, errA := kit.ValidateJSON(data, full)
		pb, errB := kit.ValidateJSON(data, trimmed)
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
	return n
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
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
		if _, err := kit.CompileShipped(path.Base(info.full), data, info.ref); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
