package schema_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/schema"
)

func doc(t *testing.T) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(schema.Source(), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// at returns the schema object at a JSON pointer such as /$defs/site.
func at(t *testing.T, d map[string]any, ptr string) map[string]any {
	t.Helper()
	var cur any = d
	for tok := range strings.SplitSeq(strings.TrimPrefix(ptr, "/"), "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			t.Fatalf("%s: %q is not an object", ptr, tok)
		}
		cur = m[tok]
	}
	m, ok := cur.(map[string]any)
	if !ok {
		t.Fatalf("%s is not an object", ptr)
	}
	if ref, ok := m["$ref"].(string); ok {
		return at(t, d, strings.TrimPrefix(ref, "#"))
	}
	return m
}

func jsonNames(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		if !f.IsExported() && !f.Anonymous {
			continue // a site's instance, kept for its kinds
		}
		if f.Anonymous {
			names = append(names, jsonNames(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// TestModelMatchesSchema keeps the schema's properties and the Go types'
// JSON names the same, so that nothing the schema admits is dropped on
// decoding, and nothing decoded goes unvalidated.
func TestModelMatchesSchema(t *testing.T) {
	d := doc(t)
	for _, tc := range []struct {
		ptr string
		typ any
	}{
		{"", manifest.Site{}},
		{"/$defs/site", manifest.SiteInfo{}},
		{"/$defs/agents/items", manifest.Group{}},
		{"/$defs/agents/items/properties/extensions/items", manifest.Extension{}},
		{"/properties/mobile_agents/items", manifest.MobileAgent{}},
		{"/properties/expect/items", manifest.Expect{}},
		{"/$defs/feeds/items", manifest.Feed{}},
		{"/$defs/delegation", manifest.Delegation{}},
		{"/$defs/delegatee", manifest.Delegatee{}},
		{"/$defs/tenant", manifest.Tenant{}},
		{"/properties/datasets/items", manifest.Dataset{}},
		{"/properties/data_txt", manifest.DataTxt{}},
		{"/properties/well_known", manifest.WellKnown{}},
		{"/$defs/well_known_file", manifest.WellKnownFile{}},
		{"/$defs/usage", manifest.Usage{}},
		{"/$defs/usage/properties/paths/items", manifest.UsagePath{}},
		{"/properties/expect/items/properties/usage", manifest.UsageExpect{}},
		{"/$defs/license", manifest.License{}},
		{"/$defs/tdm", manifest.TDM{}},
		{"/$defs/tdm/properties/paths/items", manifest.TDMPath{}},
		{"/properties/expect/items/properties/tdm", manifest.TDMExpect{}},
	} {
		var obj map[string]any
		if tc.ptr == "" {
			obj = d
		} else {
			obj = at(t, d, tc.ptr)
		}
		props, _ := obj["properties"].(map[string]any)
		got := slices.Sorted(maps.Keys(props))
		want := jsonNames(reflect.TypeOf(tc.typ))
		switch tc.ptr {
		case "":
			want = slices.Concat(want, ownedKeys(""))
		case "/properties/well_known":
			want = slices.Concat(want, ownedKeys("well_known"))
		}
		slices.Sort(want)
		want = slices.Compact(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: schema has %v, %T has %v", tc.ptr, got, tc.typ, want)
		}
		if obj["additionalProperties"] != false {
			t.Errorf("%s: unknown keys are not refused", tc.ptr)
		}
	}
	// An environment may set every top-level key but these.
	env := at(t, d, "/$defs/environment")
	props, _ := env["properties"].(map[string]any)
	for _, k := range slices.Concat(jsonNames(reflect.TypeOf(manifest.Site{})), ownedKeys("")) {
		_, ok := props[k]
		if fixed := k == "version" || k == "environments"; ok == fixed {
			t.Errorf("environment: key %s allowed %v", k, ok)
		}
	}
}

// ownedKeys returns the keys right under the manifest path under ("" for
// the top level) that hold the value of a kind that owns it (kit.Owner),
// which has no field in manifest's types.
func ownedKeys(under string) []string {
	var keys []string
	for _, k := range registry.All() {
		if _, ok := k.(kit.Owner); !ok {
			continue
		}
		rest, ok := k.Key(), true
		if under != "" {
			rest, ok = strings.CutPrefix(rest, under+".")
		}
		if ok {
			first, _, _ := strings.Cut(rest, ".")
			keys = append(keys, first)
		}
	}
	return keys
}

// TestKindValuesMatchSchema: the value type of each kind that owns it
// (kit.Owner) has the JSON names of the schema's properties at the kind's
// key, all the way down.
func TestKindValuesMatchSchema(t *testing.T) {
	d := doc(t)
	n := 0
	for _, k := range registry.All() {
		o, ok := k.(kit.Owner)
		if !ok {
			continue
		}
		obj := d
		for step := range strings.SplitSeq(k.Key(), ".") {
			props, _ := resolve(t, d, obj)["properties"].(map[string]any)
			if obj = resolve(t, d, props[step]); obj == nil {
				t.Fatalf("%s: the schema has no %s", k.Name(), k.Key())
			}
		}
		matchType(t, d, k.Name()+": "+k.Key(), obj, reflect.TypeOf(o.NewValue()).Elem())
		n++
	}
	if n == 0 {
		t.Skip("no kind owns its value")
	}
}

// matchType compares the Go type typ with the schema object obj: a
// struct's JSON names with the properties (each compared in turn), a
// slice's element with the items.
func matchType(t *testing.T, d map[string]any, where string, obj map[string]any, typ reflect.Type) {
	t.Helper()
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch typ.Kind() {
	case reflect.Struct:
		props, _ := obj["properties"].(map[string]any)
		got := slices.Sorted(maps.Keys(props))
		if want := jsonNames(typ); !slices.Equal(got, want) {
			t.Errorf("%s: schema has %v, %s has %v", where, got, typ, want)
			return
		}
		if obj["additionalProperties"] != false {
			t.Errorf("%s: unknown keys are not refused", where)
		}
		for f := range typ.Fields() {
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			p := where + "/properties/" + name
			matchType(t, d, p, resolve(t, d, props[name]), f.Type)
		}
	case reflect.Slice:
		if typ.Elem().Kind() == reflect.String {
			return // a string or a list of strings (manifest.Lines)
		}
		matchType(t, d, where+"/items", resolve(t, d, obj["items"]), typ.Elem())
	}
}

// resolve returns the schema object v, following a $ref.
func resolve(t *testing.T, d map[string]any, v any) map[string]any {
	t.Helper()
	m, _ := v.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		return at(t, d, strings.TrimPrefix(ref, "#"))
	}
	return m
}

func violations(t *testing.T, kind schema.Kind, inst any) string {
	t.Helper()
	vs, err := schema.Validate(kind, inst)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, v := range vs {
		b.WriteString(strings.Join(v.Path, "/"))
		if v.Key {
			b.WriteString(" (key)")
		}
		if v.Missing != "" {
			b.WriteString(" (missing " + v.Missing + ")")
		}
		b.WriteString(": " + v.Message + "\n")
	}
	return b.String()
}

// parse reads a JSON instance as the manifest loader builds it.
func parse(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMessages(t *testing.T) {
	const site = `"version": 1, "site": {"url": "https://example.org/"}`
	for _, tc := range []struct {
		name, inst string
		tenant     bool
		want       string
	}{
		{"valid", `{` + site + `}`, false, ""},
		{"missing", `{"site": {}}`, false, " (missing version): missing required key \"version\"\nsite (missing url): missing required key \"url\"\n"},
		{"unknown", `{` + site + `, "agnets": [], "zzz": 1}`, false,
			"agnets (key): unknown key \"agnets\" (did you mean \"agents\"?)\nzzz (key): unknown key \"zzz\"\n"},
		{"version", `{"version": 2, "site": {"url": "x"}}`, false, "version: unsupported manifest version 2; this discgen reads version 1\n"},
		{"version string", `{"version": "1", "site": {"url": "x"}}`, false, "version: must be the number 1, not \"1\"\n"},
		{"type", `{` + site + `, "agents": {}}`, false, "agents: must be a list, not a mapping\n"},
		{"one of types", `{` + site + `, "files": {"x-a": 1}}`, false, "files/x-a: must be a string or a list\n"},
		{"min items", `{` + site + `, "agents": [{"names": []}]}`, false, "agents/0/names: must not be an empty list\n"},
		{"min length", `{` + site + `, "icons": [""]}`, false, "icons/0: must not be empty\n"},
		{"minimum", `{` + site + `, "agents": [{"names": ["a"], "crawl_delay": -2}]}`, false, "agents/0/crawl_delay: must be 0 or more, not -2\n"},
		{"enum", `{` + site + `, "data_txt": {"format": "json"}}`, false, "data_txt/format: \"json\" is not one of records, yaml\n"},
		{"only and except", `{` + site + `, "delegations": [{"path": "a", "only": ["feeds.txt"], "except": ["robots.txt"]}]}`, false,
			"delegations/0/except (key): only and except cannot both be given; keep one\n"},
		{"tenants in a tenant", `{"version": 1, "path": "/~a/", "delegations": [{"path": "b", "tenants": "*.yaml"}]}`, true,
			"delegations/0/tenants (key): tenants is allowed only in the site manifest; a delegatee cannot load tenant manifests\n"},
		{"tenants inline", `{` + site + `, "delegations": [{"path": "a", "inline": {"delegations": [{"path": "b", "tenants": "*.yaml"}]}}]}`, false,
			"delegations/0/inline/delegations/0/tenants (key): tenants is allowed only in the site manifest; a delegatee cannot load tenant manifests\n"},
		{"content and source", `{` + site + `, "well_known": {"files": [{"name": "a", "content": "", "source": "b"}]}}`, false,
			"well_known/files/0/source (key): content and source cannot both be given; keep one\n"},
		{"neither content nor source", `{` + site + `, "well_known": {"files": [{"name": "a"}]}}`, false,
			"well_known/files/0: missing required key \"content\" (the file's text) or \"source\" (a file to read)\n"},
		{"max properties", `{` + site + `, "environments": {` + envs(65) + `}}`, false, "environments: has 65 entries; the limit is 64\n"},
		{"key with slash", `{` + site + `, "files": {"x-a/b~c": 1}}`, false, "files/x-a/b~c: must be a string or a list\n"},
		{"tenant", `{"version": 1, "site": {}}`, true, "site (key): unknown key \"site\"\n"},
		{"tdm reservation 2", `{` + site + `, "tdm": {"reservation": 2, "paths": [{"path": "/a/", "reservation": 1}]}}`, false,
			"tdm/paths/0/reservation: 1 is not a TDMRep reservation here: write true (1, rights reserved) or false (0, not reserved)\n" +
				"tdm/reservation: 2 is not a TDMRep reservation: the final report (2024-05-10) dropped every value but 1 (rights reserved) and 0 (not reserved); write true or false\n"},
		{"tdm reservation string", `{` + site + `, "tdm": {"reservation": "yes"}}`, false, "tdm/reservation: \"yes\" is not a TDMRep reservation: write true (1, rights reserved) or false (0, not reserved), without quotes; yes and no are the words of usage, not of tdm\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind := schema.Site
			if tc.tenant {
				kind = schema.Tenant
			}
			got := violations(t, kind, parse(t, tc.inst))
			if got != tc.want {
				t.Errorf("got\n%swant\n%s", got, tc.want)
			}
		})
	}
}

func TestSourceIsTheCompiledSchema(t *testing.T) {
	d := doc(t)
	if d["$id"] != schema.URL {
		t.Errorf("$id = %v, want %s", d["$id"], schema.URL)
	}
	// Source hands out a copy.
	s := schema.Source()
	s[0] = 'x'
	if schema.Source()[0] == 'x' {
		t.Error("Source returns the embedded bytes themselves")
	}
}

func envs(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"e%d": {}`, i)
	}
	return b.String()
}
