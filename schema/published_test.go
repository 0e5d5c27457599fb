package schema_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/schema"
	"github.com/discgen/discgen/templates"
)

// The schema published at schema.URL is this repository's
// schema/site.schema.json at a tag: the file the binary embeds, byte for
// byte, and whose $id is that URL.
func TestPublishedSchema(t *testing.T) {
	file, err := os.ReadFile("site.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(file, schema.Source()) {
		t.Error("schema/site.schema.json differs from the embedded schema")
	}
	var d struct {
		ID string `json:"$id"`
	}
	if err := json.Unmarshal(file, &d); err != nil {
		t.Fatal(err)
	}
	if d.ID != schema.URL {
		t.Errorf("$id = %q, want schema.URL %q", d.ID, schema.URL)
	}
	const repo = "https://raw.githubusercontent.com/discgen/discgen/"
	tag, file2, ok := strings.Cut(strings.TrimPrefix(schema.URL, repo), "/")
	if !strings.HasPrefix(schema.URL, repo) || !ok || !strings.HasPrefix(tag, "v") || file2 != "schema/site.schema.json" {
		t.Errorf("schema.URL %q is not this file (schema/site.schema.json) in the repository at a version tag", schema.URL)
	}
}

// modeline returns the $schema reference of a manifest's yaml-language-server
// comment.
func modeline(t *testing.T, manifest []byte) string {
	t.Helper()
	first, _, _ := bytes.Cut(manifest, []byte("\n"))
	ref, ok := strings.CutPrefix(string(first), "# yaml-language-server: $schema=")
	if !ok {
		t.Fatalf("first line %q is not a yaml-language-server modeline", first)
	}
	return ref
}

// discgen init names the published schema; StarterWithSchema a local
// copy; examples/site.yaml the repository's file, relatively.
func TestModelinesResolve(t *testing.T) {
	if ref := modeline(t, templates.Starter()); ref != schema.URL {
		t.Errorf("the starter names %q, want %q", ref, schema.URL)
	}
	local := templates.StarterWithSchema("./site.schema.json")
	if ref := modeline(t, local); ref != "./site.schema.json" {
		t.Errorf("StarterWithSchema names %q", ref)
	}
	if bytes.Contains(local, []byte(schema.URL)) || bytes.Count(local, []byte("yaml-language-server")) != 1 {
		t.Errorf("StarterWithSchema kept the published URL or a second modeline:\n%s", local)
	}
	_, rest, _ := bytes.Cut(templates.Starter(), []byte("\n"))
	if !bytes.HasSuffix(local, rest[bytes.IndexByte(rest, '\n')+1:]) {
		t.Error("StarterWithSchema changed more than the first lines")
	}
	ex, err := os.ReadFile("../examples/site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := path.Join("examples", modeline(t, ex)); got != "schema/site.schema.json" {
		t.Errorf("examples/site.yaml's modeline resolves to %s, want schema/site.schema.json", got)
	}
}

// Every property of the schema has a description, on itself or on the
// definition it refers to, so an editor can show one on hover.
func TestEveryPropertyDescribed(t *testing.T) {
	d := doc(t)
	var described func(s map[string]any, seen []string) bool
	described = func(s map[string]any, seen []string) bool {
		if desc, ok := s["description"].(string); ok && desc != "" {
			return true
		}
		ref, ok := s["$ref"].(string)
		if !ok || slices.Contains(seen, ref) {
			return false
		}
		return described(at(t, d, strings.TrimPrefix(ref, "#")), append(seen, ref))
	}
	count := 0
	var walk func(ptr string, v any)
	walk = func(ptr string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for name, p := range props {
					ps, ok := p.(map[string]any)
					if !ok { // true in a not or oneOf branch
						continue
					}
					count++
					if !described(ps, nil) {
						t.Errorf("%s/properties/%s has no description", ptr, name)
					}
				}
			}
			for k, x := range v {
				walk(ptr+"/"+k, x)
			}
		case []any:
			for i, x := range v {
				walk(ptr+"/"+string(rune('0'+i)), x)
			}
		}
	}
	walk("", d)
	if count < 80 {
		t.Errorf("found only %d properties: the walk is broken", count)
	}
	t.Logf("%d properties, each described", count)
}
