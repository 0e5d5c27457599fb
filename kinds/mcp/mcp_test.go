package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// catalog is the kind the registry lists.
var catalog Kind

func site(m *Value) *manifest.Site {
	s := &manifest.Site{}
	s.Site.URL = "https://www.fict.org/"
	kit.SetValue(s, catalog.Key(), m)
	return s
}

const cardURL = "https://www.fict.org/mcp/server-card"

// TestRender: the catalogue of the draft's revision, byte for byte: a
// card served elsewhere by its url, a local card by the URL discgen
// publishes it at.
func TestRender(t *testing.T) {
	s := site(&Value{Servers: []Server{
		{Identifier: "urn:air:www.fict.org:docs:search", Name: "Fict docs search", URL: cardURL},
		{Identifier: "urn:air:www.fict.org:docs:ask", Name: "Fict ask", Card: "files/mcp-card.json"},
	}})
	if fs := catalog.Check(s, kit.Build{}); len(fs) != 0 {
		t.Fatalf("findings: %v", fs)
	}
	data, ok := catalog.Render(s, kit.Build{})
	want := `{
  "specVersion": "draft",
  "entries": [
    {
      "identifier": "urn:air:www.fict.org:docs:search",
      "type": "application/mcp-server-card+json",
      "url": "https://www.fict.org/mcp/server-card"
    },
    {
      "identifier": "urn:air:www.fict.org:docs:ask",
      "type": "application/mcp-server-card+json",
      "url": "https://www.fict.org/.well-known/mcp/servers/ask.json"
    }
  ]
}
`
	if !ok || string(data) != want {
		t.Errorf("catalog.json:\n%s\nwant:\n%s", data, want)
	}
	cs := catalog.Companions(s)
	if len(cs) != 1 || cs[0].Key != "well_known.mcp.servers[1].card" || cs[0].Source != "files/mcp-card.json" ||
		strings.Join(cs[0].Paths, " ") != ".well-known/mcp/servers/ask.json" {
		t.Errorf("companions: %+v", cs)
	}
	value(s).LegacyPaths = true
	cs = catalog.Companions(s)
	if len(cs) != 1 || strings.Join(cs[0].Paths, " ") != ".well-known/mcp/servers/ask.json .well-known/mcp/server-card.json .well-known/mcp.json" {
		t.Errorf("companions with legacy_paths: %+v", cs)
	}
}

// TestCheck: each problem of the manifest's value at its field.
func TestCheck(t *testing.T) {
	s := site(&Value{LegacyPaths: true, Servers: []Server{
		{Identifier: "urn:air:www.fict.org:docs:search", Name: "Search", URL: cardURL, Card: "a.json"},
		{Identifier: "urn:air:www.fict.org:docs:search", Name: "Search again", URL: cardURL},
		{Identifier: "fict-search", Name: "Bare", URL: "http://www.fict.org/mcp/server-card"},
		{Identifier: "urn:air:www.fict.org:ask", Name: "Ask", Card: "../card.json"},
		{Identifier: "urn:air:other.example:x:ask", Name: "Ask too", Card: "b.json"},
		{Identifier: "urn:air:www.fict.org:x:y", Name: "No card"},
		{Identifier: "urn:isbn:0451450523", Name: "Relative", URL: "/mcp/server-card"},
		{Identifier: "urn:air:www.fict.org:x:z", Name: "", URL: "https://user:pw@www.fict.org/card#x"},
	}})
	var got []string
	for _, f := range catalog.Check(s, kit.Build{}) {
		w := ""
		if f.Warning {
			w = "warning: "
		}
		got = append(got, f.Field+": "+w+f.Message)
	}
	want := []string{
		`servers[0]: give either url (a card served elsewhere) or card (a file discgen publishes), not both`,
		`servers[1].identifier: "urn:air:www.fict.org:docs:search" is servers[0]'s identifier already: each server has its own`,
		`servers[2].identifier: warning: "fict-search" is not an AI Catalog URN (urn:air:{publisher}:{namespace}:{name}, such as urn:air:www.fict.org:mcp:search): clients may not take it as the server's identifier`,
		`servers[2].url: warning: "http://www.fict.org/mcp/server-card" is plain http: the draft allows http for local development only; give the card's https URL`,
		`servers[3].card: "../card.json" leaves the manifest's directory; give a path inside it`,
		`servers[4].identifier: "urn:air:other.example:x:ask" ends in "ask" as servers[3]'s does: a local card is published at /.well-known/mcp/servers/ask.json, so each needs its own last segment`,
		`servers[5]: give url (a card served elsewhere) or card (a file discgen publishes)`,
		`servers[6].identifier: warning: "urn:isbn:0451450523" is not an AI Catalog URN (urn:air:{publisher}:{namespace}:{name}, such as urn:air:www.fict.org:mcp:search): clients may not take it as the server's identifier`,
		`servers[6].url: "/mcp/server-card" is not an absolute URL: a client fetches the card from the catalogue's entry as it is (https://...)`,
		`servers[7].name: a name for people is required`,
		`servers[7].url: "https://user:pw@www.fict.org/card#x" holds a user name or password; give the URL without them`,
		`legacy_paths: the earlier paths hold one server card, and 3 servers give a card: give one, or leave legacy_paths out`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUpstreamExamples: the card check agrees with the draft's schema on
// the upstream examples (testdata/servercard/SOURCE.md).
func TestUpstreamExamples(t *testing.T) {
	for _, dir := range []string{"valid", "invalid"} {
		files, err := filepath.Glob(filepath.Join("testdata", "servercard", dir, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v, %d files", dir, err, len(files))
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			errs := 0
			for _, p := range CheckCard(data) {
				if !p.IsWarning() {
					errs++
				}
			}
			if dir == "valid" && errs > 0 || dir == "invalid" && errs == 0 {
				t.Errorf("%s: %v", f, CheckCard(data))
			}
		}
	}
}

// TestCardChecks: each problem of a card at its place.
func TestCardChecks(t *testing.T) {
	const schema = `"$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"`
	for _, c := range []struct{ name, doc, want string }{
		{"not an object", `[]`, `1:1: the file must be a server card, a JSON object, not a list`},
		{"secret published", `{` + schema + `, "name": "org.fict/ask", "version": "1", "description": "Ask.",
"remotes": [{"type": "streamable-http", "url": "https://www.fict.org/mcp",
 "headers": [{"name": "Authorization", "isSecret": true, "value": "Bearer abc123"}]}]}`,
			`3:67: /remotes/0/headers/0/value: a secret header's value is published as it is: a card is public (the draft's security considerations); give a {variable} the user fills in`},
		{"transport", `{` + schema + `, "name": "org.fict/ask", "version": "1", "description": "Ask.",
"remotes": [{"type": "stdio", "url": "ftp://www.fict.org/mcp"}]}`,
			"2:22: /remotes/0/type: \"stdio\" is not a remote transport: sse or streamable-http\n2:38: /remotes/0/url: \"ftp://www.fict.org/mcp\" is not an http(s) URL or a {variable} template"},
		{"plain http", `{` + schema + `, "name": "org.fict/ask", "version": "1", "description": "Ask.",
"remotes": [{"type": "sse", "url": "http://www.fict.org/sse"}]}`,
			`2:36: /remotes/0/url: warning: "http://www.fict.org/sse" is plain http: the draft allows it for local development only`},
		{"lengths", `{` + schema + `, "name": "a/", "version": 1, "description": "", "title": "` + strings.Repeat("t", 101) + `"}`,
			"1:98: /name: \"a/\" is not a server name in reverse-DNS form with one \"/\" (org.fict/search)\n1:115: /version: version must be a string, not a number\n1:133: /description: description must be 1 to 100 characters, not 0\n1:146: /title: title must be 1 to 100 characters, not 101"},
	} {
		var got []string
		for _, p := range CheckCard([]byte(c.doc)) {
			got = append(got, p.String())
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.name, strings.Join(got, "\n"), c.want)
		}
	}
}

// TestCatalogShape: a hand-written catalogue checked at its places, and a
// card told from a catalogue by lint.
func TestCatalogShape(t *testing.T) {
	doc := `{"specVersion": "draft", "entries": [
 {"identifier": "urn:air:www.fict.org:mcp:a", "type": "application/json", "url": "https://www.fict.org/a"},
 {"identifier": "urn:air:www.fict.org:mcp:b", "type": "application/mcp-server-card+json"}]}`
	var got []string
	for _, p := range CheckCatalog([]byte(doc)) {
		got = append(got, p.String())
	}
	want := "2:55: /entries/0/type: \"application/json\" is not the server card type: application/mcp-server-card+json\n3:2: /entries/1: url is missing: where the client fetches the server card"
	if strings.Join(got, "\n") != want {
		t.Errorf("catalog:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	if ds := catalog.Lint([]byte(`{"name": "a"}`)); len(ds) == 0 || !strings.Contains(ds[0].Message, "$schema") {
		t.Errorf("lint of a card: %v", ds)
	}
}
