package agentcard

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The v1.0 schema A2A generates from its proto requires nothing: proto3
// has no required fields, and the generator ignores the proto's
// (google.api.field_behavior) = REQUIRED. withProtoRequired adds them:
// each definition named after a message gets "required", the JSON names
// (lowerCamelCase, as ProtoJSON writes them) of its REQUIRED fields.

var (
	protoMessage  = regexp.MustCompile(`^message (\w+) \{`)
	protoRequired = regexp.MustCompile(`^\s+(?:optional |repeated )?(?:map<\w+,\s*[\w.]+>|[\w.]+) (\w+) = \d+ \[[^\]]*\(google\.api\.field_behavior\) = REQUIRED`)
	// protoBehaviour finds the option on a line protoRequired must read.
	protoBehaviour = regexp.MustCompile(`\(google\.api\.field_behavior\)\s*=\s*REQUIRED`)
)

// requiredFields reads the REQUIRED fields of each top-level message of
// a proto file (a2a.proto nests no message), by message name.
func requiredFields(t *testing.T, proto []byte) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	msg := ""
	sc := bufio.NewScanner(bytes.NewReader(proto))
	for sc.Scan() {
		line := sc.Text()
		if m := protoMessage.FindStringSubmatch(line); m != nil {
			msg = m[1]
			continue
		}
		if strings.HasPrefix(line, "}") {
			msg = ""
			continue
		}
		if m := protoRequired.FindStringSubmatch(line); m != nil {
			if msg == "" {
				t.Fatalf("REQUIRED outside a message: %s", line)
			}
			out[msg] = append(out[msg], jsonName(m[1]))
		} else if protoBehaviour.MatchString(line) {
			t.Fatalf("a field marked REQUIRED that the pattern does not read: %s", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// jsonName is a proto field's ProtoJSON name: underscores dropped, the
// letter after each upper-cased.
func jsonName(field string) string {
	var b strings.Builder
	up := false
	for _, r := range field {
		switch {
		case r == '_':
			up = true
		case up:
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func withProtoRequired(t *testing.T, src, proto []byte) []byte {
	t.Helper()
	doc := decodeSchema(t, src)
	defs := doc["$defs"].(map[string]any)
	for msg, fields := range requiredFields(t, proto) {
		def, ok := defs[msg].(map[string]any)
		if !ok {
			t.Fatalf("message %s has no definition in the schema", msg)
		}
		props, _ := def["properties"].(map[string]any)
		for _, f := range fields {
			if props[f] == nil {
				t.Fatalf("%s.%s is not a property of its definition", msg, f)
			}
		}
		slices.Sort(fields)
		req := make([]any, len(fields))
		for i, f := range fields {
			req[i] = f
		}
		def["required"] = req
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRequiredFields(t *testing.T) {
	text, err := os.ReadFile(shippedSchemas[A2AAgentCardV10].proto)
	if err != nil {
		t.Fatal(err)
	}
	req := requiredFields(t, text)
	for msg, want := range map[string][]string{
		"AgentCard":      {"name", "description", "supportedInterfaces", "version", "capabilities", "defaultInputModes", "defaultOutputModes", "skills"},
		"AgentInterface": {"url", "protocolBinding", "protocolVersion"},
		"AgentSkill":     {"id", "name", "description", "tags"},
		// scopes is a map<string, string>, REQUIRED in these three flows
		// and optional in the deprecated implicit and password ones.
		"AuthorizationCodeOAuthFlow": {"authorizationUrl", "tokenUrl", "scopes"},
		"ClientCredentialsOAuthFlow": {"tokenUrl", "scopes"},
		"DeviceCodeOAuthFlow":        {"deviceAuthorizationUrl", "tokenUrl", "scopes"},
	} {
		if !slices.Equal(req[msg], want) {
			t.Errorf("%s: %q, want %q", msg, req[msg], want)
		}
	}
	for _, msg := range []string{"AgentCapabilities", "ImplicitOAuthFlow", "PasswordOAuthFlow"} {
		if _, ok := req[msg]; ok {
			t.Errorf("%s has no required field: %q", msg, req[msg])
		}
	}
}

func TestA2ACardVersion(t *testing.T) {
	for data, want := range map[string]string{
		`{"protocolVersion": "0.3.0", "url": "https://x.example/"}`:                   "0.3",
		`{"protocolVersion": " 0.2.5"}`:                                               "0.3",
		`{"supportedInterfaces": [], "name": "x"}`:                                    "1.0",
		`{"supportedInterfaces": [], "protocolVersion": "0.3.0"}`:                     "0.3",
		`{"protocolVersion": "1.0", "name": "x"}`:                                     "1.0",
		`{"ProtocolVersion": "1.0", "name": "x"}`:                                     "0.3",
		`{"protocolVersion": 1, "supportedInterfaces": [{"protocolVersion": "1.0"}]}`: "1.0",
		`{"name": "x"}`:                 "0.3",
		`[{"supportedInterfaces": []}]`: "0.3",
		`{"supportedInterfaces": [], `:  "0.3",
		``:                              "0.3",
	} {
		if got := A2ACardVersion([]byte(data)); got != want {
			t.Errorf("%s: %s, want %s", data, got, want)
		}
	}
	for name, want := range map[string]string{A2AAgentCard: A2AAgentCardV10, "x.json": "x.json", A2AAgentCardV03: A2AAgentCardV03} {
		if got := ResolveSchema(name, []byte(`{"supportedInterfaces": []}`)); got != want {
			t.Errorf("ResolveSchema(%s): %s, want %s", name, got, want)
		}
	}
}

// TestAgentCardV1 checks a v1.0 card against the shipped v1.0 schema:
// the valid card passes, and each problem of a bad one is at its line and
// column, the required members the proto names among them.
func TestAgentCardV1(t *testing.T) {
	s, _, err := Kind{}.ShippedSchema(A2AAgentCardV10)
	if err != nil {
		t.Fatalf("ShippedSchema: %v", err)
	}
	good, err := os.ReadFile("testdata/agent-card-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	if ps := mustValidate(t, good, s); len(ps) != 0 {
		t.Errorf("valid card refused:\n%s", problems(ps))
	}
	bad := "{\n  \"name\": 3,\n  \"url\": \"https://x.example/\",\n  \"supportedInterfaces\": [\n    {\"url\": \"https://x.example/a2a\", \"protocolBinding\": \"JSONRPC\"}\n  ],\n  \"capabilities\": {\"streaming\": \"yes\"}\n}\n"
	want := `1:1: additionalProperties 'url' not allowed
1:1: missing properties: 'defaultInputModes', 'defaultOutputModes', 'description', 'skills', 'version'
2:11: /name: expected string, but got number
5:5: /supportedInterfaces/0: missing properties: 'protocolVersion'
7:33: /capabilities/streaming: expected boolean, but got string
`
	if got := problems(mustValidate(t, []byte(bad), s)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}

	// A flow whose proto marks scopes REQUIRED is refused without it, at
	// the flow; the deprecated implicit flow, whose scopes are optional,
	// is not.
	card := readCard(t, "testdata/agent-card-v1.json")
	card["securitySchemes"] = map[string]any{"o": map[string]any{"oauth2SecurityScheme": map[string]any{"flows": map[string]any{}}}}
	flows := card["securitySchemes"].(map[string]any)["o"].(map[string]any)["oauth2SecurityScheme"].(map[string]any)["flows"].(map[string]any)
	for flow, members := range map[string]map[string]any{
		"authorizationCode": {"authorizationUrl": "https://a.example/", "tokenUrl": "https://t.example/"},
		"clientCredentials": {"tokenUrl": "https://t.example/"},
		"deviceCode":        {"deviceAuthorizationUrl": "https://d.example/", "tokenUrl": "https://t.example/"},
		"implicit":          {"authorizationUrl": "https://a.example/"},
	} {
		clear(flows)
		flows[flow] = members
		data, err := json.MarshalIndent(card, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got := problems(mustValidate(t, data, s))
		want := ""
		if flow != "implicit" {
			at := bytes.Index(data, []byte(`"`+flow+`": {`)) + len(flow) + 4
			line := 1 + bytes.Count(data[:at], []byte("\n"))
			col := at - bytes.LastIndexByte(data[:at], '\n')
			want = fmt.Sprintf("%d:%d: /securitySchemes/o/oauth2SecurityScheme/flows/%s: missing properties: 'scopes'\n", line, col, flow)
		}
		if got != want {
			t.Errorf("%s without scopes:\n%s\nwant:\n%s", flow, got, want)
		}
	}
}
