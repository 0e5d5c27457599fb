// Package schema holds the manifest's JSON Schema (draft 2020-12) and
// validates decoded manifests against it.
//
// Validation returns every leaf violation, sorted by instance location
// then message, so that callers can attach YAML positions and report them
// all at once. It is done by a small validator of this package, not a
// general JSON Schema library: the embedded document is compiled on first
// use (well under a millisecond), a keyword the validator does not know is
// a compile error (a test keeps the embedded schema compiling), and
// validation allocates only for what fails. Locations in the instance are
// chains of steps that share their parents, so the cost of validating a
// manifest is linear in its size whatever the length of its keys.
//
// Why not santhosh-tekuri/jsonschema/v5, which the binary links anyway
// (for user-supplied schemas and agent cards)? Measured on 2026-11-27
// (`go test ./schema -run '^$' -bench 'Compile|Validate' -benchmem
// -count 5`, 2 shared cores, medians): compiling this schema takes
// 0.55 ms and 468 KB here against 13.0 ms and 3.9 MB with the library
// (BenchmarkCompile, BenchmarkReferenceCompile), a cost every build pays
// once; validating examples/site.yaml 68 µs and 23 KB against 419 µs
// and 156 KB (BenchmarkValidate, BenchmarkReferenceValidate), a cost
// every tenant of a shared host pays. The library stays the reference:
// TestAgreesWithReference and FuzzAgreesWithReference hold the two to the
// same violations.
package schema

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/discgen/discgen/internal/editdist"
)

// URL is the schema's identifier and where it is published: this file,
// schema/site.schema.json, in the repository at the v1 tag (the major
// version tag that also names the GitHub Action, moved to each v1.x
// release). Editors find it through the yaml-language-server comment that
// `discgen init` writes.
const URL = "https://raw.githubusercontent.com/discgen/discgen/v1/schema/site.schema.json"

// Modeline is the comment text, without its "# ", that names the schema at
// ref for yaml-language-server on a manifest's first line. Every command
// that writes a manifest (init, import) writes it from here, with ref URL
// or a copy's relative path.
func Modeline(ref string) string { return "yaml-language-server: $schema=" + ref }

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

// MaxViolations bounds the violations Validate returns. Past it, one
// more violation at the root says how many were left out: a hostile
// manifest of a million wrong values cannot make a million messages.
const MaxViolations = 1000

var compiled = sync.OnceValues(compiledNodes)

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
	b := &budget{}
	f := schemas[kind].check(instance, nil, b)
	if f == nil {
		return nil, nil
	}
	c := &collector{}
	c.collect(f, instance)
	return c.sorted(b.dropped), nil
}

// sorted returns the violations sorted by path then message, without
// repeats, and a note at the end if some were left out.
func (c *collector) sorted(dropped bool) []Violation {
	out := c.out
	slices.SortFunc(out, func(a, b Violation) int {
		if c := slices.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	out = slices.CompactFunc(out, func(a, b Violation) bool {
		return a.Key == b.Key && a.Message == b.Message && slices.Equal(a.Path, b.Path)
	})
	if c.dropped > 0 || dropped {
		out = append(out, Violation{Message: fmt.Sprintf("more schema violations not shown (at most %d are reported)", MaxViolations)})
	}
	return out
}

// collector gathers leaf violations, at most MaxViolations of them, in
// the order the validator met them (object keys sorted, list items in
// order), so that which ones are kept does not vary between runs.
type collector struct {
	out     []Violation
	dropped int
}

func (c *collector) add(vs ...Violation) {
	for _, v := range vs {
		if len(c.out) >= MaxViolations {
			c.dropped++
			continue
		}
		c.out = append(c.out, v)
	}
}

// collect walks the failure tree down to its leaves. A failed oneOf whose
// branches all fail on type is reported once, with the branch types.
func (c *collector) collect(e *failure, inst any) {
	if len(c.out) >= MaxViolations {
		c.dropped += leaves(e)
		return
	}
	loc := e.loc
	if loc == "/$defs/well_known_file/oneOf" {
		ptr := e.at.tokens()
		if len(e.causes) == 0 {
			c.add(Violation{Path: append(ptr, "source"), Key: true,
				Message: "content and source cannot both be given; keep one"})
		} else {
			c.add(Violation{Path: ptr,
				Message: `missing required key "content" (the file's text) or "source" (a file to read)`})
		}
		return
	}
	if e.keyword == "oneOf" {
		if types, ok := branchTypes(e); ok {
			c.add(Violation{Path: e.at.tokens(), Message: "must be " + types})
			return
		}
		// Report only the branches whose type fits: their errors are
		// the ones the author meant to fix.
		var fitting []*failure
		for _, x := range e.causes {
			if !wrongType(x, e.at) {
				fitting = append(fitting, x)
			}
		}
		if len(fitting) > 0 && len(fitting) < len(e.causes) {
			for _, x := range fitting {
				c.collect(x, inst)
			}
			return
		}
	}
	if len(e.causes) > 0 {
		for _, x := range e.causes {
			c.collect(x, inst)
		}
		return
	}
	if strings.HasSuffix(loc, "/pattern") {
		// Patterns tell editors and other validators what they can of
		// the semantic rules (package validate), which word the same
		// refusal with a hint; reporting both would say it twice.
		return
	}
	c.add(leaf(e, e.at.tokens(), loc, inst)...)
}

// leaves counts the leaf failures of a tree.
func leaves(e *failure) int {
	if len(e.causes) == 0 {
		return 1
	}
	n := 0
	for _, x := range e.causes {
		n += leaves(x)
	}
	return n
}

// leaf words one failed keyword in the manifest's own terms, reading the
// keyword's value from the schema and the failing value from the instance.
func leaf(e *failure, ptr []string, loc string, inst any) []Violation {
	kw := loc[strings.LastIndex(loc, "/")+1:]
	rule, _ := schemaAt(loc)
	val, _ := instanceAt(inst, ptr)
	one := func(msg string) []Violation { return []Violation{{Path: ptr, Message: msg}} }
	switch kw {
	case "additionalProperties":
		known := propertyNames(strings.TrimSuffix(loc, "/additionalProperties"))
		var out []Violation
		for _, name := range e.names {
			msg := "unknown key " + strconv.Quote(name)
			if s := editdist.Closest(name, known); s != "" {
				msg += " (did you mean " + strconv.Quote(s) + "?)"
			}
			out = append(out, Violation{Path: append(slices.Clip(ptr), name), Key: true, Message: msg})
		}
		return out
	case "required":
		var out []Violation
		for _, name := range e.names {
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
		if n, ok := val.(json.Number); ok && loc == "/$defs/tdm_reservation/type" {
			return one(tdmReservationMessage(n))
		}
		if w, ok := val.(string); ok && loc == "/$defs/tdm_reservation/type" {
			return one(tdmReservationWord(w))
		}
		return one(typeMessage(e.message))
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
	return one(e.message)
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
func wrongType(c *failure, at *location) bool {
	return c.keyword == "type" && len(c.causes) == 0 && c.at == at
}

func branchTypes(e *failure) (string, bool) {
	var types []string
	for _, c := range e.causes {
		if !wrongType(c, e.at) {
			return "", false
		}
		// "expected string, but got number"
		msg := strings.TrimPrefix(c.message, "expected ")
		t, _, _ := strings.Cut(msg, ",")
		types = append(types, article(t))
	}
	if len(types) == 0 {
		return "", false
	}
	return strings.Join(types, " or "), true
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
