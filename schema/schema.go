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
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// URL is the schema's identifier; editors find it through the
// yaml-language-server comment that `discgen init` writes.
const URL = "https://discgen.invalid/schema/v1/site.schema.json"

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
	Key     bool
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
	collect(verr, &out)
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
func collect(e *jsonschema.ValidationError, out *[]Violation) {
	ptr := unescape(e.InstanceLocation)
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
				collect(c, out)
			}
			return
		}
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	kw := e.KeywordLocation[strings.LastIndex(e.KeywordLocation, "/")+1:]
	switch kw {
	case "additionalProperties":
		for _, name := range quoted(e.Message) {
			*out = append(*out, Violation{Path: append(slices.Clip(ptr), name), Key: true, Message: "unknown key " + strconvQuote(name)})
		}
		return
	case "required":
		for _, name := range quoted(e.Message) {
			*out = append(*out, Violation{Path: ptr, Message: "missing required key " + strconvQuote(name)})
		}
		return
	case "const":
		// The schema's only const is the format version.
		*out = append(*out, Violation{Path: ptr, Message: "unsupported manifest version; this discgen reads version 1"})
		return
	case "type":
		*out = append(*out, Violation{Path: ptr, Message: typeMessage(e.Message)})
		return
	case "not":
		*out = append(*out, Violation{Path: ptr, Message: notMessage(e.KeywordLocation)})
		return
	}
	*out = append(*out, Violation{Path: ptr, Message: e.Message})
}

// notMessage explains the schema's two "not" constraints.
func notMessage(kwLoc string) string {
	if strings.Contains(kwLoc, "tenant_delegations") {
		return "tenants is allowed only in the site manifest"
	}
	return "only and except cannot both be given"
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

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

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
