// Package schema holds the manifest's JSON Schema (draft 2020-12) and
// validates decoded manifests against it.
//
// The schema is embedded and registered under a fixed absolute URL, so no
// machine path can leak into a message. Validation returns every leaf
// violation, sorted by instance location then message, so that callers can
// attach YAML positions and report them all at once.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// URL is the schema's identifier and where it is published: this file,
// schema/site.schema.json, in the repository at the v1 tag (the major
// version tag that also names the GitHub Action, moved to each v1.x
// release). Editors find it through the yaml-language-server comment that
// `discgen init` writes.
const URL = "https://raw.githubusercontent.com/discgen/discgen/v1/schema/site.schema.json"

//go:embed site.schema.json
var source []byte

// Source returns the schema document, as `discgen schema` prints it.
func Source() []byte { return slices.Clone(source) }

// Kind selects which manifest shape to validate.
type Kind int

const (
	Site   Kind = iota // a site (root) manifest
	Tenant             // a tenant manifest found by a delegation's tenants glob
)

var compiled = sync.OnceValues(func() ([2]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(URL, bytes.NewReader(source)); err != nil {
		return [2]*jsonschema.Schema{}, err
	}
	site, err := c.Compile(URL)
	if err != nil {
		return [2]*jsonschema.Schema{}, err
	}
	tenant, err := c.Compile(URL + "#/$defs/tenant")
	return [2]*jsonschema.Schema{site, tenant}, err
})

// Violation is one way an instance fails the schema.
type Violation struct {
	// Path is the failing value's location as raw tokens: object keys and
	// decimal array indexes, such as ["agents", "2", "names", "0"]. The
	// root is the empty path.
	Path []string
	// Key is set when the violation concerns an object key rather than a
	// value (an unknown property); Path then ends with the key itself.
	Key bool
	// Missing names the key whose absence is the violation, if any.
	Missing string
	Message string
}

// Validate checks a JSON-shaped instance (map[string]any, []any, string,
// json.Number, bool, nil) against the schema of the given kind.
func Validate(kind Kind, instance any) ([]Violation, error) {
	schemas, err := compiled()
	if err != nil {
		return nil, fmt.Errorf("internal error: manifest schema does not compile: %w", err)
	}
	err = schemas[kind].Validate(instance)
	if err == nil {
		return nil, nil
	}
	verr, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return nil, err
	}
	var out []Violation
	collect(verr, instance, &out)
	slices.SortFunc(out, func(a, b Violation) int {
		if c := slices.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.CompactFunc(out, func(a, b Violation) bool {
		return a.Key == b.Key && a.Message == b.Message && slices.Equal(a.Path, b.Path)
	}), nil
}

// collect walks the error tree down to its leaves. A failed oneOf whose
// branches all fail on type is reported once, with the branch types.
func collect(e *jsonschema.ValidationError, inst any, out *[]Violation) {
	ptr := unescape(e.InstanceLocation)
	loc := fragment(e.AbsoluteKeywordLocation)
	if loc == "/$defs/well_known_file/oneOf" {
		if len(e.Causes) == 0 {
			*out = append(*out, Violation{Path: append(slices.Clip(ptr), "source"), Key: true,
				Message: "content and source cannot both be given; keep one"})
		} else {
			*out = append(*out, Violation{Path: ptr,
				Message: `missing required key "content" (the file's text) or "source" (a file to read)`})
		}
		return
	}
	if strings.HasSuffix(e.KeywordLocation, "/oneOf") {
		if types, ok := branchTypes(e); ok {
			*out = append(*out, Violation{Path: ptr, Message: "must be " + types})
			return
		}
		// Report only the branches whose type fits: their errors are
		// the ones the author meant to fix.
		var fitting []*jsonschema.ValidationError
		for _, c := range e.Causes {
			if !wrongType(c, e.InstanceLocation) {
				fitting = append(fitting, c)
			}
		}
		if len(fitting) > 0 && len(fitting) < len(e.Causes) {
			for _, c := range fitting {
				collect(c, inst, out)
			}
			return
		}
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, inst, out)
		}
		return
	}
	if strings.HasSuffix(loc, "/pattern") {
		// Patterns tell editors and other validators what they can of
		// the semantic rules (package validate), which word the same
		// refusal with a hint; reporting both would say it twice.
		return
	}
	*out = append(*out, leaf(e, ptr, loc, inst)...)
}

// leaf words one failed keyword in the manifest's own terms, reading the
// keyword's value from the schema and the failing value from the instance.
func leaf(e *jsonschema.ValidationError, ptr []string, loc string, inst any) []Violation {
	kw := loc[strings.LastIndex(loc, "/")+1:]
	rule, _ := schemaAt(loc)
	val, _ := instanceAt(inst, ptr)
	one := func(msg string) []Violation { return []Violation{{Path: ptr, Message: msg}} }
	switch kw {
	case "additionalProperties":
		known := propertyNames(strings.TrimSuffix(loc, "/additionalProperties"))
		var out []Violation
		for _, name := range quoted(e.Message) {
			msg := "unknown key " + strconv.Quote(name)
			if s := closest(name, known); s != "" {
				msg += " (did you mean " + strconv.Quote(s) + "?)"
			}
			out = append(out, Violation{Path: append(slices.Clip(ptr), name), Key: true, Message: msg})
		}
		return out
	case "required":
		var out []Violation
		for _, name := range quoted(e.Message) {
			out = append(out, Violation{Path: ptr, Missing: name, Message: "missing required key " + strconv.Quote(name)})
		}
		return out
	case "const":
		// The schema's only const is the format version.
		if n, ok := val.(json.Number); ok {
			return one(fmt.Sprintf("unsupported manifest version %s; this discgen reads version 1", n))
		}
		return one(fmt.Sprintf("must be the number 1, not %s", describe(val)))
	case "type":
		return one(typeMessage(e.Message))
	case "not":
		switch loc {
		case "/$defs/delegation/not":
			return []Violation{{Path: append(slices.Clip(ptr), "except"), Key: true,
				Message: "only and except cannot both be given; keep one"}}
		case "/$defs/tenant_delegations/items/not":
			return []Violation{{Path: append(slices.Clip(ptr), "tenants"), Key: true,
				Message: "tenants is allowed only in the site manifest; a delegatee cannot load tenant manifests"}}
		}
	case "minItems":
		if n, ok := rule.(json.Number); ok && n.String() == "1" {
			return one("must not be an empty list")
		}
		return one(fmt.Sprintf("needs at least %v items", rule))
	case "minLength":
		if n, ok := rule.(json.Number); ok && n.String() == "1" {
			return one("must not be empty")
		}
		return one(fmt.Sprintf("needs at least %v characters", rule))
	case "maxProperties":
		if m, ok := val.(map[string]any); ok {
			return one(fmt.Sprintf("has %d entries; the limit is %v", len(m), rule))
		}
	case "minimum":
		return one(fmt.Sprintf("must be %v or more, not %v", rule, val))
	case "enum":
		var names []string
		if list, ok := rule.([]any); ok {
			for _, x := range list {
				names = append(names, fmt.Sprint(x))
			}
		}
		return one(fmt.Sprintf("%s is not one of %s", describe(val), strings.Join(names, ", ")))
	}
	return one(e.Message)
}

// describe names a value in a message: a string quoted, other values by
// their type.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "empty"
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprint(v)
}

// wrongType reports whether a oneOf branch failed only because the value
// at loc has another type.
func wrongType(c *jsonschema.ValidationError, loc string) bool {
	return strings.HasSuffix(c.KeywordLocation, "/type") && len(c.Causes) == 0 && c.InstanceLocation == loc
}

func branchTypes(e *jsonschema.ValidationError) (string, bool) {
	var types []string
	for _, c := range e.Causes {
		if !wrongType(c, e.InstanceLocation) {
			return "", false
		}
		// "expected string, but got number"
		msg := strings.TrimPrefix(c.Message, "expected ")
		t, _, _ := strings.Cut(msg, ",")
		types = append(types, article(t))
	}
	if len(types) == 0 {
		return "", false
	}
	return strings.Join(types, " or "), true
}

// quoted returns the single-quoted names in a jsonschema message such as
// "missing properties: 'url', 'x'" or "additionalProperties 'foo' not allowed".
func quoted(msg string) []string {
	var names []string
	for {
		i := strings.IndexByte(msg, '\'')
		if i < 0 {
			return names
		}
		j := strings.IndexByte(msg[i+1:], '\'')
		if j < 0 {
			return names
		}
		names = append(names, msg[i+1:i+1+j])
		msg = msg[i+j+2:]
	}
}

// typeMessage rewrites "expected array, but got string" in the manifest's
// own words: "must be a list, not a string".
func typeMessage(msg string) string {
	want, got, ok := strings.Cut(strings.TrimPrefix(msg, "expected "), ", but got ")
	if !ok {
		return msg
	}
	var ws []string
	for w := range strings.SplitSeq(want, " or ") {
		ws = append(ws, article(w))
	}
	return "must be " + strings.Join(ws, " or ") + ", not " + article(got)
}

// article names a JSON type as the manifest author sees it.
func article(t string) string {
	switch t {
	case "array":
		return "a list"
	case "object":
		return "a mapping"
	case "null":
		return "empty"
	case "integer":
		return "an integer"
	}
	return "a " + t
}

// unescape turns the library's instance location (a JSON pointer whose
// tokens are also URL-path escaped) into raw tokens.
func unescape(loc string) []string {
	if loc == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(loc, "/"), "/")
	for i, t := range toks {
		if u, err := url.PathUnescape(t); err == nil {
			t = u
		}
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}
