package kit

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// A schema a manifest names is hostile input, and so is the value checked
// against it: the validator does not remember what it has checked, so a
// kilobyte of oneOf over $refs nested twenty deep makes it check the value
// a million times (22.8 s and 315 MB on the string "hello"). Before a
// value is checked, the work is bounded from above by walking the schema
// over the value as the validator does (jsonschema v5's Schema.validate):
// every subschema that applies to the same value (the $refs, allOf,
// anyOf, oneOf, not, if, then, else, dependencies, dependentSchemas), and
// those that apply to its members and items (properties,
// patternProperties, additionalProperties, propertyNames, items,
// prefixItems, additionalItems, contains, unevaluated*), counting steps.
// The walk stops as soon as the count passes MaxSchemaSteps, so it costs
// at most that many steps itself, and a value it stops on is not checked:
// the schema is refused, in one line at its place in the manifest.
//
// A step is one visit of a subschema on a value, plus one for each
// subschema in scope (the validator looks for a loop among them, and
// builds locations from them), one for each member or item of that value
// (it lists them on every visit), the size of each enum and const value
// compared with it and of the items uniqueItems compares, and more for
// long strings and for numbers of many digits or a large exponent, which
// the validator turns into exact fractions (math/big) to compare them.
// The bound is an upper bound: every branch of anyOf, oneOf and
// if/then/else is counted, and a $dynamicRef counts every subschema with
// its anchor.
//
// Measured, a step of the validator takes 150 to 370 ns (nested oneOf
// over $refs, on a string): the bound is tens of milliseconds and a few
// megabytes a value. An array of 10,000 objects checked by a schema of
// three subschemas (one property, required) costs 80,000 steps.
//
// The schema itself is bounded before it is compiled: MaxSchemaBytes, and
// MaxSubschemas objects nested at most MaxSchemaDepth deep, which bounds
// the compiler's memory and the length of any chain of $refs. Its regular
// expressions are Go's (linear in the text they match). contentSchema is
// not walked: the compiler does not assert content (AssertContent is
// off), so the validator never applies it.

// MaxSchemaSteps bounds the work of checking one value against a schema.
const MaxSchemaSteps = 100_000

// MaxSubschemas bounds the JSON objects of a schema a manifest names.
// Compiling takes time worse than linear in them: 2,000 took 0.1 s (31 MB
// allocated, 1 MB kept), 10,000 took 1.6 s (160 MB allocated). The A2A
// schema discgen ships has 585.
const MaxSubschemas = 2_000

// MaxSchemaDepth bounds how deep the objects and arrays of such a schema
// nest.
const MaxSchemaDepth = 128

// CostError says a value would take too long to check against its
// schema.
type CostError struct{ Limit int }

func (e *CostError) Error() string {
	return fmt.Sprintf("checking this value would take more than %d steps (nested oneOf/anyOf/$ref); simplify the schema", e.Limit)
}

// schemaCost walks s over the instance v; it returns a *CostError when
// checking v would take more than limit steps.
func schemaCost(s *jsonschema.Schema, v any, limit int) error {
	w := &costWalk{limit: limit}
	w.visit(s, v, 0)
	if w.steps > w.limit {
		return &CostError{Limit: limit}
	}
	return nil
}

type costWalk struct {
	steps, limit int
	// loop is set where the validator would find an infinite loop (a
	// subschema again on the same value) and stop checking altogether.
	loop bool
	// scope is the subschemas being visited, outermost first, as the
	// validator's scope is ($recursiveRef resolves against it).
	scope []*jsonschema.Schema
	// anchors lists every subschema with a $dynamicAnchor, by name, made
	// the first time a $dynamicRef is met.
	anchors map[string][]*jsonschema.Schema
	root    *jsonschema.Schema
	// enums memoizes enumCost.
	enums map[*jsonschema.Schema]int
}

// enumCost is the steps of comparing a value with s's enum and const
// values: the size of each (what a deep comparison reads at most),
// counted once a subschema.
func (w *costWalk) enumCost(s *jsonschema.Schema) int {
	if len(s.Enum) == 0 && len(s.Constant) == 0 {
		return 0
	}
	if c, ok := w.enums[s]; ok {
		return c
	}
	c := 0
	for _, e := range s.Enum {
		c += w.size(e)
	}
	for _, e := range s.Constant {
		c += w.size(e)
	}
	if w.enums == nil {
		w.enums = map[*jsonschema.Schema]int{}
	}
	w.enums[s] = c
	return c
}

// size is the cost of reading v whole, as a deep comparison or a hash
// does: a step for each value, more for long strings and large numbers.
// Finding it costs as many steps, so it stops past the limit.
func (w *costWalk) size(v any) int {
	n := 1
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if w.steps+n > w.limit {
				return n
			}
			n += len(k)/64 + w.size(x)
		}
	case []any:
		for _, x := range v {
			if w.steps+n > w.limit {
				return n
			}
			n += w.size(x)
		}
	case string:
		n += len(v) / 64
	case json.Number:
		n += numberCost(v)
	}
	return n
}

func (w *costWalk) stop() bool { return w.loop || w.steps > w.limit }

// visit counts the work of checking v against s; same is how many of the
// innermost subschemas in scope apply to v itself.
func (w *costWalk) visit(s *jsonschema.Schema, v any, same int) {
	if w.root == nil {
		w.root = s
	}
	if w.stop() {
		return
	}
	// The validator looks for a loop among the subschemas on the same
	// value, builds the value's location, and on an error the keyword's,
	// from the whole scope: each as long as the scope is deep.
	w.steps += 1 + len(w.scope)
	for _, o := range w.scope[len(w.scope)-same:] {
		if o == s {
			w.loop = true
			return
		}
	}
	switch v := v.(type) {
	case map[string]any:
		w.steps += len(v)
	case []any:
		w.steps += len(v)
	case string:
		w.steps += len(v) / 64
	case json.Number:
		w.steps += numberCost(v) * (1 + len(s.Enum) + len(s.Constant))
	}
	// Comparing with each enum and const value reads at most all of it.
	w.steps += w.enumCost(s) + len(s.Required)
	if w.stop() {
		return
	}
	w.scope = append(w.scope, s)
	defer func() { w.scope = w.scope[:len(w.scope)-1] }()
	if s.Always != nil || !typeMatches(s.Types, v) {
		return // the validator stops here
	}
	same++
	in := func(sub *jsonschema.Schema) {
		if sub != nil {
			w.visit(sub, v, same)
		}
	}
	child := func(sub *jsonschema.Schema, cv any) {
		if sub != nil {
			w.visit(sub, cv, 0)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		w.visitObject(s, v, in, child)
	case []any:
		w.visitArray(s, v, child)
	}
	w.visitRefs(s, in)
	in(s.Not)
	for _, sub := range s.AllOf {
		in(sub)
	}
	for _, sub := range s.AnyOf {
		in(sub)
	}
	for _, sub := range s.OneOf {
		in(sub)
	}
	in(s.If)
	in(s.Then)
	in(s.Else)
	switch v := v.(type) {
	case map[string]any:
		for _, pv := range v {
			child(s.UnevaluatedProperties, pv)
		}
	case []any:
		for _, it := range v {
			child(s.UnevaluatedItems, it)
		}
	}
}

// visitObject visits the subschemas of the object keywords that apply to
// the members of v.
func (w *costWalk) visitObject(s *jsonschema.Schema, v map[string]any, in func(*jsonschema.Schema), child func(*jsonschema.Schema, any)) {
	for name, sub := range s.Properties {
		if pv, ok := v[name]; ok {
			child(sub, pv)
		}
	}
	if s.PropertyNames != nil {
		for name := range v {
			child(s.PropertyNames, name)
		}
	}
	for re, sub := range s.PatternProperties {
		for name, pv := range v {
			if w.steps += 1 + len(name)/64; w.stop() {
				return
			}
			if re.MatchString(name) {
				child(sub, pv)
			}
		}
	}
	if ap, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
		for name, pv := range v {
			if _, ok := s.Properties[name]; !ok {
				child(ap, pv) // counted whether or not a pattern matched it
			}
		}
	}
	for name, dep := range s.Dependencies {
		if _, ok := v[name]; !ok {
			continue
		}
		switch dep := dep.(type) {
		case *jsonschema.Schema:
			in(dep)
		case []string:
			w.steps += len(dep)
		}
	}
	for name, req := range s.DependentRequired {
		if _, ok := v[name]; ok {
			w.steps += len(req)
		}
	}
	for name, sub := range s.DependentSchemas {
		if _, ok := v[name]; ok {
			in(sub)
		}
	}
}

// visitArray visits the subschemas of the array keywords that apply to
// the items of v, and counts uniqueItems.
func (w *costWalk) visitArray(s *jsonschema.Schema, v []any, child func(*jsonschema.Schema, any)) {
	if s.UniqueItems {
		// Up to 20 items are compared pair by pair, each item
		// with those before it, deeply; more are hashed, deeply.
		size := w.size(v)
		if len(v) <= 20 {
			size *= len(v)
		}
		w.steps += size
	}
	switch items := s.Items.(type) {
	case *jsonschema.Schema:
		for _, it := range v {
			child(items, it)
		}
	case []*jsonschema.Schema:
		more, _ := s.AdditionalItems.(*jsonschema.Schema)
		for i, it := range v {
			if i < len(items) {
				child(items[i], it)
			} else {
				child(more, it)
			}
		}
	}
	for i, it := range v {
		if i < len(s.PrefixItems) {
			child(s.PrefixItems[i], it)
		} else {
			child(s.Items2020, it)
		}
	}
	if s.Contains != nil && (s.MinContains != -1 || s.MaxContains != -1) {
		for _, it := range v {
			child(s.Contains, it)
		}
	}
}

// visitRefs visits what $ref, $recursiveRef and $dynamicRef lead to.
func (w *costWalk) visitRefs(s *jsonschema.Schema, in func(*jsonschema.Schema)) {
	in(s.Ref)
	if r := s.RecursiveRef; r != nil {
		if r.RecursiveAnchor {
			for _, o := range w.scope {
				if o.RecursiveAnchor {
					r = o
					break
				}
			}
		}
		in(r)
	}
	if r := s.DynamicRef; r != nil {
		in(r)
		if r.DynamicAnchor != "" {
			for _, o := range w.dynamicAnchors(r.DynamicAnchor) {
				if o != r {
					in(o)
				}
			}
		}
	}
}

// dynamicAnchors lists the subschemas reachable from the root with the
// $dynamicAnchor name; finding them counts a step for each subschema.
func (w *costWalk) dynamicAnchors(name string) []*jsonschema.Schema {
	if w.anchors == nil {
		w.anchors = map[string][]*jsonschema.Schema{}
		seen := map[*jsonschema.Schema]bool{}
		var walk func(s *jsonschema.Schema)
		walk = func(s *jsonschema.Schema) {
			if s == nil || seen[s] || w.stop() {
				return
			}
			seen[s] = true
			w.steps++
			if s.DynamicAnchor != "" {
				w.anchors[s.DynamicAnchor] = append(w.anchors[s.DynamicAnchor], s)
			}
			for _, sub := range subschemas(s) {
				walk(sub)
			}
		}
		walk(w.root)
		for _, sc := range w.scope {
			walk(sc)
		}
	}
	return w.anchors[name]
}

// subschemas lists the subschemas s refers to.
func subschemas(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s.Ref, s.RecursiveRef, s.DynamicRef, s.Not, s.If, s.Then, s.Else,
		s.PropertyNames, s.UnevaluatedProperties, s.Items2020, s.Contains, s.UnevaluatedItems, s.ContentSchema}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	out = append(out, s.PrefixItems...)
	for _, sub := range s.Properties {
		out = append(out, sub)
	}
	for _, sub := range s.PatternProperties {
		out = append(out, sub)
	}
	for _, sub := range s.DependentSchemas {
		out = append(out, sub)
	}
	for _, dep := range s.Dependencies {
		if sub, ok := dep.(*jsonschema.Schema); ok {
			out = append(out, sub)
		}
	}
	for _, x := range []any{s.AdditionalProperties, s.AdditionalItems, s.Items} {
		switch x := x.(type) {
		case *jsonschema.Schema:
			out = append(out, x)
		case []*jsonschema.Schema:
			out = append(out, x...)
		}
	}
	return out
}

// typeMatches reports whether the validator goes on past its type check:
// no types, or one of them v's (an integral number is an integer).
func typeMatches(types []string, v any) bool {
	if len(types) == 0 {
		return true
	}
	var t string
	switch v.(type) {
	case nil:
		t = "null"
	case bool:
		t = "boolean"
	case json.Number:
		t = "number"
	case string:
		t = "string"
	case []any:
		t = "array"
	case map[string]any:
		t = "object"
	}
	for _, want := range types {
		if want == t || (want == "integer" && t == "number") {
			return true // counted as an integer: the conversion is charged
		}
	}
	return false
}

// numberCost is the steps a number costs each time the validator makes an
// exact fraction of it (math/big): about quadratic in its digits and the
// size of its exponent, 3,000 steps for 1e1000000.
func numberCost(n json.Number) int {
	s := string(n)
	e := len(s)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.ParseInt(strings.TrimPrefix(s[i+1:], "+"), 10, 64)
		if err != nil || exp > 1<<40 || exp < -(1<<40) {
			return MaxSchemaSteps + 1 // math/big refuses it, but no further
		}
		e += int(max(exp, -exp))
	}
	if e < 1000 {
		return 0
	}
	return 1 + e/1000*(e/1000)/300
}
