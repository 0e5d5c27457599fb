package schema

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testcorpus"
	"github.com/santhosh-tekuri/jsonschema/v5"
	"go.yaml.in/yaml/v3"
)

// The reference: the same schema validated by santhosh-tekuri/jsonschema,
// a general draft 2020-12 implementation, whose output units are turned
// into failures and worded by the same collector. Validate must give
// exactly what the reference gives.

func referenceSchemas(t testing.TB) [2]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(URL, bytes.NewReader(source)); err != nil {
		t.Fatal(err)
	}
	site, err := c.Compile(URL)
	if err != nil {
		t.Fatal(err)
	}
	tenant, err := c.Compile(URL + "#/$defs/tenant")
	if err != nil {
		t.Fatal(err)
	}
	return [2]*jsonschema.Schema{site, tenant}
}

func referenceValidate(t testing.TB, s *jsonschema.Schema, inst any) []Violation {
	err := s.Validate(inst)
	if err == nil {
		return nil
	}
	verr, ok := err.(*jsonschema.ValidationError)
	if !ok {
		t.Fatalf("reference: %v", err)
	}
	locs := map[string]*location{}
	c := &collector{}
	c.collect(convert(verr, locs), inst)
	return c.sorted(false)
}

// convert turns the library's error tree into failures; one location
// value per instance location, as the validator shares them.
func convert(e *jsonschema.ValidationError, locs map[string]*location) *failure {
	kw := e.KeywordLocation[strings.LastIndex(e.KeywordLocation, "/")+1:]
	if e.Message == "" {
		kw = ""
	}
	f := &failure{keyword: kw, loc: fragment(e.AbsoluteKeywordLocation), at: locate(e.InstanceLocation, locs), message: e.Message}
	if kw == "additionalProperties" || kw == "required" {
		f.names = quoted(e.Message)
	}
	for _, c := range e.Causes {
		f.causes = append(f.causes, convert(c, locs))
	}
	return f
}

func locate(ptr string, locs map[string]*location) *location {
	if ptr == "" {
		return nil
	}
	if l, ok := locs[ptr]; ok {
		return l
	}
	i := strings.LastIndex(ptr, "/")
	parent := locate(ptr[:i], locs)
	tok := ptr[i+1:]
	if u, err := url.PathUnescape(tok); err == nil {
		tok = u
	}
	tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	// The tokens are compared, not the kind of step: a key "0" and an
	// index 0 give the same violation path.
	l := parent.child(tok)
	locs[ptr] = l
	return l
}

// quoted returns the single-quoted names in a jsonschema message such as
// "missing properties: 'url', 'x'" or "additionalProperties 'foo' not
// allowed", undoing the library's quoting (Go escapes, \' for a quote).
func quoted(msg string) []string {
	var names []string
	for {
		i := strings.IndexByte(msg, '\'')
		if i < 0 {
			return names
		}
		j := i + 1
		for j < len(msg) && msg[j] != '\'' {
			if msg[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(msg) {
			return names
		}
		body := strings.ReplaceAll(msg[i+1:j], `\'`, `'`)
		body = strings.ReplaceAll(body, `"`, `\"`)
		name, err := strconv.Unquote(`"` + body + `"`)
		if err != nil {
			name = body
		}
		names = append(names, name)
		msg = msg[j+1:]
	}
}

// instance reads YAML or JSON as a JSON-shaped instance, numbers as
// json.Number. It reports false for input that is not a JSON value.
func instance(data []byte) (any, bool) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, false
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, false
	}
	return out, true
}

// corpus returns the manifests of the repository.
func corpus(t testing.TB) [][]byte { return testcorpus.Manifests(t, "..", 50) }

func agree(t *testing.T, ref [2]*jsonschema.Schema, inst any) {
	t.Helper()
	if backslashKey(inst) {
		// The reference quotes key names in its messages lossily (a key
		// ending in a backslash cannot be read back), and gives an empty
		// key the location of the object that holds it.
		return
	}
	for kind := range 2 {
		want := referenceValidate(t, ref[kind], inst)
		got, err := Validate(Kind(kind), inst)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got, want, func(a, b Violation) bool {
			return a.Key == b.Key && a.Missing == b.Missing && a.Message == b.Message && slices.Equal(a.Path, b.Path)
		}) {
			j, _ := json.Marshal(inst)
			t.Errorf("kind %d, instance %s:\n got %+v\nwant %+v", kind, j, got, want)
		}
	}
}

func backslashKey(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == "" || strings.Contains(k, `\`) || backslashKey(x) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(v, backslashKey)
	}
	return false
}

// TestAgreesWithReference validates every manifest of the repository, as a
// site and as a tenant, and some shapes the manifests do not have, with
// both validators.
func TestAgreesWithReference(t *testing.T) {
	ref := referenceSchemas(t)
	n := 0
	for _, data := range corpus(t) {
		inst, ok := instance(data)
		if !ok {
			continue
		}
		n++
		agree(t, ref, inst)
	}
	for _, s := range extraShapes {
		inst, ok := instance([]byte(s))
		if !ok {
			t.Fatalf("not JSON: %s", s)
		}
		agree(t, ref, inst)
	}
	if n < 50 {
		t.Errorf("compared %d manifests, want at least 50", n)
	}
}

var extraShapes = []string{
	`{}`, `[]`, `"x"`, `1`, `null`, `true`,
	`{"version": 1.5, "site": {"url": 1}}`,
	`{"version": 1.0, "site": {"url": ""}, "agents": [{"names": [1, "a"], "crawl_delay": "x"}]}`,
	`{"version": 1, "path": 3, "files": {"a": [1], "x-b": "c", "x-c": {}}}`,
	`{"version": 1, "site": {"url": "u"}, "well_known": {"files": [{"name": "a", "content": 1}, {"name": "b", "source": ""}, {}]}}`,
	`{"version": 1, "site": {"url": "u"}, "environments": {"a": {"site": {"url": ""}, "zz": 1}, "b": 3}}`,
	`{"version": 1, "site": {"url": "u"}, "delegations": [{"path": "a", "inline": {"path": "x", "delegations": [{"tenants": 1}]}}]}`,
	`{"version": 1, "site": {"url": "u"}, "well_known": {"security_txt": {"contact": [], "expires": 3}}}`,
	`{"version": 1, "site": {"url": "u"}, "data_txt": {"format": 1}, "datasets": [{"path": "", "zz": 1}]}`,
}

// FuzzAgreesWithReference compares the validators on arbitrary YAML.
func FuzzAgreesWithReference(f *testing.F) {
	for _, data := range corpus(f) {
		f.Add(data)
	}
	for _, s := range extraShapes {
		f.Add([]byte(s))
	}
	ref := referenceSchemas(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		inst, ok := instance(data)
		if !ok {
			return
		}
		agree(t, ref, inst)
	})
}

// TestCompileRefusesUnknownKeywords: a keyword the validator does not
// apply must not pass silently.
func TestCompileRefusesUnknownKeywords(t *testing.T) {
	for _, src := range []string{
		`{"type": "object", "unevaluatedProperties": false}`,
		`{"properties": {"a": {"contains": {"type": "string"}}}}`,
		`{"$ref": "https://example.org/other.json"}`,
		`{"$ref": "#/$defs/missing"}`,
		`{"pattern": "("}`,
		`{"type": "text"}`,
	} {
		if _, err := compile([]byte(src), ""); err == nil {
			t.Errorf("%s: compiled", src)
		}
	}
	if _, err := compile(source, "", "/$defs/tenant"); err != nil {
		t.Fatalf("the embedded schema: %v", err)
	}
}

// TestViolationsBounded: a manifest of many wrong values gets at most
// MaxViolations of them, and a note that there were more.
func TestViolationsBounded(t *testing.T) {
	icons := make([]any, 3*MaxViolations)
	for i := range icons {
		icons[i] = json.Number("1")
	}
	inst := map[string]any{"version": json.Number("1"), "site": map[string]any{"url": "u"}, "icons": icons}
	vs, err := Validate(Site, inst)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != MaxViolations+1 {
		t.Fatalf("%d violations, want %d", len(vs), MaxViolations+1)
	}
	if last := vs[len(vs)-1]; last.Path != nil || !strings.Contains(last.Message, "not shown") {
		t.Errorf("last violation %+v, want the note", last)
	}
	if vs[0].Message != "must be a string, not a number" || strings.Join(vs[0].Path, "/") != "icons/0" {
		t.Errorf("first violation %+v", vs[0])
	}
}

// BenchmarkCompile is what every process that validates a manifest pays
// once: compiling the embedded schema.
func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, err := compile(source, "", "/$defs/tenant"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReferenceCompile compiles the same schema with the general
// library, as a process would if it validated manifests with it.
func BenchmarkReferenceCompile(b *testing.B) {
	for b.Loop() {
		referenceSchemas(b)
	}
}

// exampleInstance is examples/site.yaml as a JSON-shaped instance.
func exampleInstance(b *testing.B) any {
	data, err := os.ReadFile("../examples/site.yaml")
	if err != nil {
		b.Fatal(err)
	}
	inst, ok := instance(data)
	if !ok {
		b.Fatal("examples/site.yaml is not a JSON value")
	}
	return inst
}

// BenchmarkValidate and BenchmarkReferenceValidate validate the example
// site, schema compiled once, with this package and with the library.
func BenchmarkValidate(b *testing.B) {
	inst := exampleInstance(b)
	b.ReportAllocs()
	for b.Loop() {
		if vs, err := Validate(Site, inst); err != nil || len(vs) > 0 {
			b.Fatal(err, vs)
		}
	}
}

func BenchmarkReferenceValidate(b *testing.B) {
	inst, ref := exampleInstance(b), referenceSchemas(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := ref[0].Validate(inst); err != nil {
			b.Fatal(err)
		}
	}
}
