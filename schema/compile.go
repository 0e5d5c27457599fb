package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// node is one compiled (sub)schema. The compiler reads the embedded
// document once, on the first validation, into these nodes; validation
// then walks the instance and the nodes together and allocates only for
// what fails.
//
// Only the keywords the compiler knows are accepted: a keyword it does not
// know is a compile error rather than a rule silently not applied, so the
// schema cannot grow a keyword that discgen ignores.
type node struct {
	loc    string // JSON pointer of the schema in the document, "" for the root
	always *bool  // a boolean schema: true accepts everything, false nothing

	types    []string
	hasConst bool
	constVal any
	enum     []any

	props        map[string]*node
	propNames    []string // sorted keys of props
	patternProps []patternProp
	additional   *node // nil: any key is allowed
	propertyName *node
	required     []string
	depRequired  map[string][]string
	minProps     int
	maxProps     int

	items       *node
	prefixItems []*node
	minItems    int
	maxItems    int
	unique      bool

	minLength int
	maxLength int
	pattern   *lazyRegexp

	minimum, maximum, exclMinimum, exclMaximum, multipleOf *big.Rat

	ref               *node
	not               *node
	allOf, anyOf      []*node
	oneOf             []*node
	ifS, thenS, elseS *node
}

type patternProp struct {
	re *lazyRegexp
	n  *node
}

// lazyRegexp is a pattern compiled on first use: most runs meet few of
// the schema's patterns, and compiling all of them at every start would
// cost a third of the schema's compile. compile checks each pattern's
// syntax (cheap) at once, so a bad one is still a compile error.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() {
		re, err := regexp.Compile(l.src)
		if err != nil {
			re = regexp.MustCompile(`[^\x00-\x{10FFFF}]`) // matches nothing; compile refused it already
		}
		l.re = re
	})
	return l.re
}

// MatchString reports whether s holds a match of the pattern.
func (l *lazyRegexp) MatchString(s string) bool { return l.get().MatchString(s) }

func (l *lazyRegexp) String() string { return l.src }

// annotations are keywords that do not constrain a value. format is an
// annotation too: draft 2020-12 asserts it only on request, and discgen's
// own rules check what a format could say.
var annotations = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "$defs": true, "definitions": true,
	"title": true, "description": true, "markdownDescription": true, "examples": true,
	"default": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"format": true, "defaultSnippets": true, "errorMessage": true, "contentMediaType": true,
	"contentEncoding": true,
}

type compiler struct {
	doc   any
	nodes map[string]*node // by JSON pointer, so that $ref cycles close
	err   error
}

// compile reads a schema document and returns the nodes at the given
// JSON pointers.
func compile(src []byte, ptrs ...string) ([]*node, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	c := &compiler{doc: doc, nodes: map[string]*node{}}
	var out []*node
	for _, p := range ptrs {
		v, ok := pointer(doc, p)
		if !ok {
			return nil, fmt.Errorf("schema has nothing at %q", p)
		}
		out = append(out, c.node(v, p))
	}
	return out, c.err
}

// pointer resolves a JSON pointer ("/$defs/site") in a JSON value.
func pointer(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for tok := range strings.SplitSeq(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		var ok bool
		if v, ok = step(v, tok); !ok {
			return nil, false
		}
	}
	return v, true
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func (c *compiler) fail(loc, format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("schema at %q: %s", loc, fmt.Sprintf(format, args...))
	}
}

func (c *compiler) node(v any, loc string) *node {
	if n, ok := c.nodes[loc]; ok {
		return n
	}
	n := &node{loc: loc, minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLength: -1, maxLength: -1}
	c.nodes[loc] = n
	switch s := v.(type) {
	case bool:
		n.always = &s
		return n
	case map[string]any:
		for _, kw := range slices.Sorted(maps.Keys(s)) {
			c.keyword(n, kw, s[kw])
		}
	default:
		c.fail(loc, "a schema must be an object or a boolean")
	}
	return n
}

func (c *compiler) sub(v any, loc string) *node { return c.node(v, loc) }

func (c *compiler) list(v any, loc string) []*node {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		c.fail(loc, "must be a non-empty array of schemas")
		return nil
	}
	out := make([]*node, len(l))
	for i, s := range l {
		out[i] = c.sub(s, loc+"/"+strconv.Itoa(i))
	}
	return out
}

func (c *compiler) count(v any, loc string) int {
	n, ok := v.(json.Number)
	if ok {
		if i, err := strconv.Atoi(n.String()); err == nil && i >= 0 {
			return i
		}
	}
	c.fail(loc, "must be a non-negative integer")
	return -1
}

func (c *compiler) number(v any, loc string) *big.Rat {
	if n, ok := v.(json.Number); ok {
		if r, ok := new(big.Rat).SetString(n.String()); ok {
			return r
		}
	}
	c.fail(loc, "must be a number")
	return nil
}

func (c *compiler) strings(v any, loc string) []string {
	l, ok := v.([]any)
	if !ok {
		c.fail(loc, "must be an array of strings")
		return nil
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		s, ok := x.(string)
		if !ok {
			c.fail(loc, "must be an array of strings")
			return nil
		}
		out = append(out, s)
	}
	return out
}

func (c *compiler) regexp(v any, loc string) *lazyRegexp {
	s, ok := v.(string)
	if !ok {
		c.fail(loc, "must be a string")
		return nil
	}
	// Parsing checks the syntax at a fraction of a full compile.
	if _, err := syntax.Parse(s, syntax.Perl); err != nil {
		c.fail(loc, "%v", err)
		return nil
	}
	return &lazyRegexp{src: s}
}

// keyword compiles keyword kw of node n, of value v: each kind of
// keyword has its own function, which reports whether kw is one of its.
func (c *compiler) keyword(n *node, kw string, v any) {
	loc := n.loc + "/" + escapeToken(kw)
	if c.typeKeyword(n, kw, v, loc) || c.objectKeyword(n, kw, v, loc) ||
		c.scalarKeyword(n, kw, v, loc) || c.applicatorKeyword(n, kw, v, loc) {
		return
	}
	if !annotations[kw] && !strings.HasPrefix(kw, "x-") {
		c.fail(loc, "keyword %q is not supported by discgen's validator", kw)
	}
}

// typeKeyword compiles the keywords of any instance: type, const, enum.
func (c *compiler) typeKeyword(n *node, kw string, v any, loc string) bool {
	switch kw {
	case "type":
		switch t := v.(type) {
		case string:
			n.types = []string{t}
		default:
			n.types = c.strings(v, loc)
		}
		for _, t := range n.types {
			switch t {
			case "object", "array", "string", "number", "integer", "boolean", "null":
			default:
				c.fail(loc, "unknown type %q", t)
			}
		}
	case "const":
		n.hasConst, n.constVal = true, v
	case "enum":
		l, ok := v.([]any)
		if !ok || len(l) == 0 {
			c.fail(loc, "must be a non-empty array")
		}
		n.enum = l
	default:
		return false
	}
	return true
}

// objectKeyword compiles an object's keywords.
func (c *compiler) objectKeyword(n *node, kw string, v any, loc string) bool {
	switch kw {
	case "properties":
		m, ok := v.(map[string]any)
		if !ok {
			c.fail(loc, "must be an object")
			return true
		}
		n.props = map[string]*node{}
		for k, s := range m {
			n.props[k] = c.sub(s, loc+"/"+escapeToken(k))
		}
		n.propNames = slices.Sorted(maps.Keys(n.props))
	case "patternProperties":
		m, ok := v.(map[string]any)
		if !ok {
			c.fail(loc, "must be an object")
			return true
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			kl := loc + "/" + escapeToken(k)
			n.patternProps = append(n.patternProps, patternProp{c.regexp(k, kl), c.sub(m[k], kl)})
		}
	case "additionalProperties":
		n.additional = c.sub(v, loc)
	case "propertyNames":
		n.propertyName = c.sub(v, loc)
	case "required":
		n.required = c.strings(v, loc)
	case "dependentRequired":
		m, ok := v.(map[string]any)
		if !ok {
			c.fail(loc, "must be an object")
			return true
		}
		n.depRequired = map[string][]string{}
		for k, l := range m {
			n.depRequired[k] = c.strings(l, loc+"/"+escapeToken(k))
		}
	case "minProperties":
		n.minProps = c.count(v, loc)
	case "maxProperties":
		n.maxProps = c.count(v, loc)
	default:
		return false
	}
	return true
}

// scalarKeyword compiles an array's, a string's and a number's keywords.
func (c *compiler) scalarKeyword(n *node, kw string, v any, loc string) bool {
	switch kw {
	case "items":
		n.items = c.sub(v, loc)
	case "prefixItems":
		n.prefixItems = c.list(v, loc)
	case "minItems":
		n.minItems = c.count(v, loc)
	case "maxItems":
		n.maxItems = c.count(v, loc)
	case "uniqueItems":
		b, ok := v.(bool)
		if !ok {
			c.fail(loc, "must be a boolean")
		}
		n.unique = b
	case "minLength":
		n.minLength = c.count(v, loc)
	case "maxLength":
		n.maxLength = c.count(v, loc)
	case "pattern":
		n.pattern = c.regexp(v, loc)
	case "minimum":
		n.minimum = c.number(v, loc)
	case "maximum":
		n.maximum = c.number(v, loc)
	case "exclusiveMinimum":
		n.exclMinimum = c.number(v, loc)
	case "exclusiveMaximum":
		n.exclMaximum = c.number(v, loc)
	case "multipleOf":
		n.multipleOf = c.number(v, loc)
		if n.multipleOf != nil && n.multipleOf.Sign() <= 0 {
			c.fail(loc, "must be greater than 0")
		}
	default:
		return false
	}
	return true
}

// applicatorKeyword compiles the references and applicators.
func (c *compiler) applicatorKeyword(n *node, kw string, v any, loc string) bool {
	switch kw {
	case "$ref":
		ref, ok := v.(string)
		if !ok || !strings.HasPrefix(ref, "#") {
			c.fail(loc, "only references within the document (#/...) are supported")
			return true
		}
		ptr := strings.TrimPrefix(ref, "#")
		target, ok := pointer(c.doc, ptr)
		if !ok {
			c.fail(loc, "%q resolves to nothing", ref)
			return true
		}
		n.ref = c.sub(target, ptr)
	case "not":
		n.not = c.sub(v, loc)
	case "allOf":
		n.allOf = c.list(v, loc)
	case "anyOf":
		n.anyOf = c.list(v, loc)
	case "oneOf":
		n.oneOf = c.list(v, loc)
	case "if":
		n.ifS = c.sub(v, loc)
	case "then":
		n.thenS = c.sub(v, loc)
	case "else":
		n.elseS = c.sub(v, loc)
	default:
		return false
	}
	return true
}
