package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// location is where a value stands in the instance: a chain of steps up to
// the root (nil). Steps share their parents, so a location costs one small
// allocation however deep it is, and however long the keys above it are.
type location struct {
	parent *location
	key    string
	index  int // -1 for an object key
}

func (l *location) child(key string) *location { return &location{parent: l, key: key, index: -1} }
func (l *location) item(i int) *location       { return &location{parent: l, index: i} }
func (l *location) depth() (n int) {
	for ; l != nil; l = l.parent {
		n++
	}
	return n
}

// tokens returns the location as raw path tokens, outermost first.
func (l *location) tokens() []string {
	out := make([]string, l.depth())
	for i := len(out) - 1; l != nil; i, l = i-1, l.parent {
		if l.index >= 0 {
			out[i] = strconv.Itoa(l.index)
		} else {
			out[i] = l.key
		}
	}
	return out
}

// failure is one failed keyword, or (keyword "") a group of failures of
// one schema. It mirrors the output units of JSON Schema: the keyword,
// where it stands in the schema and where the failing value stands in the
// instance.
type failure struct {
	keyword string // "type", "required", "oneOf", "$ref", "allOf/0", ...; "" groups causes
	loc     string // JSON pointer of the keyword in the schema document
	at      *location
	message string
	names   []string // the keys at fault: unknown keys, missing keys
	causes  []*failure
}

func (n *node) fail(b *budget, at *location, kw, format string, args ...any) *failure {
	if b.spec == 0 {
		b.leaves++
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	loc := n.loc
	if kw != "" {
		loc += "/" + kw
	}
	return &failure{keyword: kw, loc: loc, at: at, message: msg}
}

// budget bounds the failures a validation keeps.
type budget struct {
	// spec is above 0 while a branch of oneOf, anyOf, not or if is
	// checked: its failures may be set aside, so they are not counted.
	spec int
	// leaves counts the failures made outside branches.
	leaves int
	// dropped is set once failures past MaxViolations were let go.
	dropped bool
}

// branch checks v against a schema whose failure does not by itself fail
// the value.
func (b *budget) branch(n *node, v any, at *location) *failure {
	b.spec++
	defer func() { b.spec-- }()
	return n.check(v, at, b)
}

// jsonType names the JSON type of a value of the instance.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float32, float64, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		return "unknown"
	}
}

func rat(v any) (*big.Rat, bool) {
	return new(big.Rat).SetString(fmt.Sprint(v))
}

// equal is JSON equality: numbers compare by value.
func equal(a, b any) bool {
	ta := jsonType(a)
	if ta != jsonType(b) {
		return false
	}
	switch ta {
	case "array":
		x, y := a.([]any), b.([]any)
		return slices.EqualFunc(x, y, equal)
	case "object":
		x, y := a.(map[string]any), b.(map[string]any)
		if len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	case "number":
		x, ok1 := rat(a)
		y, ok2 := rat(b)
		return ok1 && ok2 && x.Cmp(y) == 0
	}
	return a == b
}

func literal(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// check validates v at location at against n. It returns nil when v
// passes, one failure, or a group (keyword "") of several.
func (n *node) check(v any, at *location, b *budget) *failure {
	if n.always != nil {
		if !*n.always {
			return n.fail(b, at, "", "not allowed")
		}
		return nil
	}
	if f := n.checkType(v, at, b); f != nil {
		return f
	}
	var errs []*failure
	add := func(f *failure) {
		if f != nil {
			errs = append(errs, f)
		}
	}
	// child checks a value inside v. Once the budget is spent, its
	// failure is let go at once, so that memory does not grow with the
	// failures.
	child := func(s *node, x any, loc *location) {
		full := b.spec == 0 && b.leaves >= MaxViolations
		f := s.check(x, loc, b)
		switch {
		case f == nil:
		case full:
			b.dropped = true
		default:
			errs = append(errs, f)
		}
	}
	if n.hasConst && !equal(v, n.constVal) {
		add(n.fail(b, at, "const", "value must be %s", literal(n.constVal)))
	}
	if len(n.enum) > 0 && !slices.ContainsFunc(n.enum, func(e any) bool { return equal(v, e) }) {
		var names []string
		for _, e := range n.enum {
			names = append(names, literal(e))
		}
		add(n.fail(b, at, "enum", "value must be one of %s", strings.Join(names, ", ")))
	}
	switch v := v.(type) {
	case map[string]any:
		n.checkObject(v, at, b, add, child)
	case []any:
		n.checkArray(v, at, b, add, child)
	case string:
		n.checkString(v, at, b, add)
	default:
		if jsonType(v) == "number" {
			n.checkNumber(v, at, b, add)
		}
	}
	n.checkApplicators(v, at, b, add)
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	g := n.fail(b, at, "", "")
	g.causes = errs
	return g
}

// checkType applies type: the failure when v is of none of the types.
func (n *node) checkType(v any, at *location, b *budget) *failure {
	if len(n.types) == 0 {
		return nil
	}
	vt := jsonType(v)
	ok := false
	for _, t := range n.types {
		if vt == t {
			ok = true
		} else if t == "integer" && vt == "number" {
			r, good := rat(v)
			ok = good && r.IsInt()
		}
		if ok {
			break
		}
	}
	if !ok {
		return n.fail(b, at, "type", "expected %s, but got %s", strings.Join(n.types, " or "), vt)
	}
	return nil
}

// checkString applies the string keywords.
func (n *node) checkString(v string, at *location, b *budget, add func(*failure)) {
	if n.minLength >= 0 || n.maxLength >= 0 {
		l := utf8.RuneCountInString(v)
		if n.minLength >= 0 && l < n.minLength {
			add(n.fail(b, at, "minLength", "length must be >= %d, but got %d", n.minLength, l))
		}
		if n.maxLength >= 0 && l > n.maxLength {
			add(n.fail(b, at, "maxLength", "length must be <= %d, but got %d", n.maxLength, l))
		}
	}
	// A pattern's failure is reported by the semantic rules, in their
	// own words (see collect); it matters here only where it decides
	// a branch of oneOf, anyOf, not or if.
	if n.pattern != nil && b.spec > 0 && !n.pattern.MatchString(v) {
		add(n.fail(b, at, "pattern", "does not match pattern %s", strconv.Quote(n.pattern.String())))
	}
}

// checkApplicators applies $ref, not, allOf, anyOf, oneOf and
// if/then/else, in that order.
func (n *node) checkApplicators(v any, at *location, b *budget, add func(*failure)) {
	if n.ref != nil {
		if f := n.ref.check(v, at, b); f != nil {
			w := n.fail(b, at, "$ref", "doesn't validate with %s", strconv.Quote("#"+n.ref.loc))
			if f.keyword == "" && f.message == "" {
				w.causes = f.causes
			} else {
				w.causes = []*failure{f}
			}
			add(w)
		}
	}
	if n.not != nil && b.branch(n.not, v, at) == nil {
		add(n.fail(b, at, "not", "not failed"))
	}
	for i, s := range n.allOf {
		if f := s.check(v, at, b); f != nil {
			w := n.fail(b, at, "allOf/"+strconv.Itoa(i), "allOf failed")
			w.causes = []*failure{f}
			add(w)
		}
	}
	if len(n.anyOf) > 0 {
		var causes []*failure
		for _, s := range n.anyOf {
			f := b.branch(s, v, at)
			if f == nil {
				causes = nil
				break
			}
			causes = append(causes, f)
		}
		if causes != nil {
			w := n.fail(b, at, "anyOf", "anyOf failed")
			w.causes = causes
			add(w)
		}
	}
	if len(n.oneOf) > 0 {
		matched := -1
		var causes []*failure
		for i, s := range n.oneOf {
			f := b.branch(s, v, at)
			if f != nil {
				causes = append(causes, f)
				continue
			}
			if matched >= 0 {
				add(n.fail(b, at, "oneOf", "valid against schemas at indexes %d and %d", matched, i))
				break
			}
			matched = i
		}
		if matched < 0 {
			w := n.fail(b, at, "oneOf", "oneOf failed")
			w.causes = causes
			add(w)
		}
	}
	if n.ifS != nil {
		if b.branch(n.ifS, v, at) == nil {
			if n.thenS != nil {
				if f := n.thenS.check(v, at, b); f != nil {
					w := n.fail(b, at, "then", "if-then failed")
					w.causes = []*failure{f}
					add(w)
				}
			}
		} else if n.elseS != nil {
			if f := n.elseS.check(v, at, b); f != nil {
				w := n.fail(b, at, "else", "if-else failed")
				w.causes = []*failure{f}
				add(w)
			}
		}
	}
}

// checkObject applies the object keywords. Keys are visited in sorted
// order, so that failures come out in the same order every run.
func (n *node) checkObject(v map[string]any, at *location, b *budget, add func(*failure), child func(*node, any, *location)) {
	if n.minProps >= 0 && len(v) < n.minProps {
		add(n.fail(b, at, "minProperties", "minimum %d properties allowed, but found %d properties", n.minProps, len(v)))
	}
	if n.maxProps >= 0 && len(v) > n.maxProps {
		add(n.fail(b, at, "maxProperties", "maximum %d properties allowed, but found %d properties", n.maxProps, len(v)))
	}
	if len(n.required) > 0 {
		var missing []string
		for _, k := range n.required {
			if _, ok := v[k]; !ok {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			f := n.fail(b, at, "required", "missing properties: %s", quoteAll(missing))
			f.names = missing
			add(f)
		}
	}
	for _, k := range n.propNames {
		if pv, ok := v[k]; ok {
			child(n.props[k], pv, at.child(k))
		}
	}
	if n.propertyName == nil && len(n.patternProps) == 0 && n.additional == nil && len(n.depRequired) == 0 {
		return
	}
	keys := slices.Sorted(maps.Keys(v))
	if n.propertyName != nil {
		for _, k := range keys {
			child(n.propertyName, k, at.child(k))
		}
	}
	var extra []string
	for _, k := range keys {
		known := n.props[k] != nil
		for _, p := range n.patternProps {
			if p.re.MatchString(k) {
				known = true
				child(p.n, v[k], at.child(k))
			}
		}
		if !known {
			extra = append(extra, k)
		}
	}
	if n.additional != nil && len(extra) > 0 {
		if a := n.additional.always; a != nil && !*a {
			f := n.fail(b, at, "additionalProperties", "additionalProperties %s not allowed", quoteAll(extra))
			f.names = extra
			add(f)
		} else {
			for _, k := range extra {
				child(n.additional, v[k], at.child(k))
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(n.depRequired)) {
		if _, ok := v[k]; !ok {
			continue
		}
		for i, r := range n.depRequired[k] {
			if _, ok := v[r]; !ok {
				add(n.fail(b, at, "dependentRequired/"+escapeToken(k)+"/"+strconv.Itoa(i), "property %s is required, if %s property exists", strconv.Quote(r), strconv.Quote(k)))
			}
		}
	}
}

func (n *node) checkArray(v []any, at *location, b *budget, add func(*failure), child func(*node, any, *location)) {
	if n.minItems >= 0 && len(v) < n.minItems {
		add(n.fail(b, at, "minItems", "minimum %d items required, but found %d items", n.minItems, len(v)))
	}
	if n.maxItems >= 0 && len(v) > n.maxItems {
		add(n.fail(b, at, "maxItems", "maximum %d items required, but found %d items", n.maxItems, len(v)))
	}
	if n.unique {
		// Items are compared by their JSON text, so that the check stays
		// linear: numbers were normalised when the instance was built.
		seen := map[string]int{}
		for i, x := range v {
			text, err := json.Marshal(x)
			if err != nil {
				continue
			}
			if j, dup := seen[string(text)]; dup {
				add(n.fail(b, at, "uniqueItems", "items at index %d and %d are equal", j, i))
				break
			}
			seen[string(text)] = i
		}
	}
	for i, x := range v {
		switch {
		case i < len(n.prefixItems):
			child(n.prefixItems[i], x, at.item(i))
		case n.items != nil:
			child(n.items, x, at.item(i))
		default:
			return
		}
	}
}

func (n *node) checkNumber(v any, at *location, b *budget, add func(*failure)) {
	if n.minimum == nil && n.maximum == nil && n.exclMinimum == nil && n.exclMaximum == nil && n.multipleOf == nil {
		return
	}
	r, ok := rat(v)
	if !ok {
		return
	}
	f := func(x *big.Rat) float64 { y, _ := x.Float64(); return y }
	if n.minimum != nil && r.Cmp(n.minimum) < 0 {
		add(n.fail(b, at, "minimum", "must be >= %v but found %v", f(n.minimum), v))
	}
	if n.exclMinimum != nil && r.Cmp(n.exclMinimum) <= 0 {
		add(n.fail(b, at, "exclusiveMinimum", "must be > %v but found %v", f(n.exclMinimum), v))
	}
	if n.maximum != nil && r.Cmp(n.maximum) > 0 {
		add(n.fail(b, at, "maximum", "must be <= %v but found %v", f(n.maximum), v))
	}
	if n.exclMaximum != nil && r.Cmp(n.exclMaximum) >= 0 {
		add(n.fail(b, at, "exclusiveMaximum", "must be < %v but found %v", f(n.exclMaximum), v))
	}
	if n.multipleOf != nil && !new(big.Rat).Quo(r, n.multipleOf).IsInt() {
		add(n.fail(b, at, "multipleOf", "%v not multipleOf %v", v, f(n.multipleOf)))
	}
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
