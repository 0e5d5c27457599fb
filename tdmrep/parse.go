package tdmrep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/robots"
)

// Problem is one way a tdmrep.json departs from the report, at its line
// and column (1-based). Warning problems leave the rule as a reader reads
// it; others make a reader drop the rule (Parse leaves it out).
type Problem struct {
	Line, Col int
	Warning   bool
	Message   string
}

func (p Problem) String() string {
	w := ""
	if p.Warning {
		w = "warning: "
	}
	return fmt.Sprintf("%d:%d: %s%s", p.Line, p.Col, w, p.Message)
}

// Parsed is a rule as read, with where it stands.
type Parsed struct {
	Rule
	Line, Col int // the rule's object
}

// MaxProblems bounds the problems Parse reports.
const MaxProblems = 100

// MaxOverlapRules bounds the rules Parse compares pairwise for overlaps.
const MaxOverlapRules = 2000

// Parse reads a tdmrep.json: the rules a reader keeps, in the file's
// order, and the problems: not a JSON array of objects; a rule without a
// location or a tdm-reservation of 1 or 0 (a reader takes it as unset:
// the rule is dropped); a location that is not a path from "/"; a
// tdm-policy that is not an absolute URL; unknown keys (a warning); two
// rules whose locations may match one URL, where the shorter comes first
// (its first-match reading then hides the longer: a warning).
func Parse(data []byte) ([]Parsed, []Problem) {
	var out []Parsed
	var probs []Problem
	lc := lineCols(data)
	add := func(off int64, warn bool, format string, args ...any) {
		if len(probs) < MaxProblems {
			l, c := lc(off)
			probs = append(probs, Problem{l, c, warn, fmt.Sprintf(format, args...)})
		}
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		off := dec.InputOffset()
		if se, ok := err.(*json.SyntaxError); ok && se.Offset > 0 {
			off = se.Offset - 1 // the offending byte
		}
		add(off, false, "not JSON: %v", err)
		return nil, probs
	}
	if dec.More() {
		add(dec.InputOffset(), false, "not JSON: text after the array")
		return nil, probs
	}
	// Decode again token by token for positions: the shape is known valid
	// JSON now.
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	start := skipSpace(data, 0)
	if tok, _ := dec.Token(); tok != json.Delim('[') {
		add(start, false, "tdmrep.json is a JSON array of rules (brackets even for one rule)")
		return nil, probs
	}
	for dec.More() {
		at := skipSpace(data, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			add(at, false, "%v", err)
			return out, probs
		}
		obj, ok := readObject(raw)
		if !ok {
			add(at, false, "a rule is a JSON object with location and tdm-reservation")
			continue
		}
		l, c := lc(at)
		r := Parsed{Line: l, Col: c}
		good := true
		loc, ok := obj.lookup("location")
		switch s, isStr := loc.val.(string); {
		case !ok:
			add(at, false, "the rule has no location")
			good = false
		case !isStr || !strings.HasPrefix(s, "/"):
			add(at+loc.off, false, "location %s is not a path starting with \"/\"", loc.text)
			good = false
		default:
			r.Location = s
		}
		res, ok := obj.lookup("tdm-reservation")
		switch n, _ := res.val.(json.Number); {
		case !ok:
			add(at, false, "the rule has no tdm-reservation; a reader takes the rule as unset")
			good = false
		case n == "1":
			r.Reservation = 1
		case n == "0":
			r.Reservation = 0
		default:
			add(at+res.off, false, "tdm-reservation %s is not 1 or 0 (the final report of 2024-05-10 dropped every other value); a reader takes it as unset", res.text)
			good = false
		}
		if pol, ok := obj.lookup("tdm-policy"); ok {
			s, isStr := pol.val.(string)
			if u, err := url.Parse(s); !isStr || err != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
				add(at+pol.off, false, "tdm-policy %s is not an absolute http(s) URL", pol.text)
			} else {
				r.Policy = s
			}
		}
		for _, k := range obj.order {
			if k != "location" && k != "tdm-reservation" && k != "tdm-policy" {
				add(at+obj.m[k].koff, true, "unknown key %q: the report defines location, tdm-reservation and tdm-policy", k)
			}
		}
		if good {
			out = append(out, r)
		}
	}
	// A shorter location before a longer one that shares its URLs hides
	// it from a first-match reader. The check compares every pair, so it
	// looks at the first MaxOverlapRules rules only: a hostile file of a
	// million rules is read in linear time.
	pairs := out
	if len(pairs) > MaxOverlapRules {
		pairs = pairs[:MaxOverlapRules]
		r := out[MaxOverlapRules]
		add(offsetOf(lc, r.Line, r.Col, data), true, "more than %d rules: overlapping locations are looked for among the first %d only", MaxOverlapRules, MaxOverlapRules)
	}
	for i, a := range pairs {
		if len(probs) >= MaxProblems {
			break
		}
		for _, b := range pairs[i+1:] {
			ca, cb := robots.Canonical(a.Location), robots.Canonical(b.Location)
			if ca == cb {
				add(offsetOf(lc, b.Line, b.Col, data), false, "location %q is given twice (first at %d:%d); a reader uses the first", b.Location, a.Line, a.Col)
			} else if len(ca) < len(cb) && robots.MayOverlap(ca, cb) {
				add(offsetOf(lc, b.Line, b.Col, data), true, "location %q overlaps %q at %d:%d, which comes first: a reader takes the first match, so the shorter location decides where both match; list the more specific first", b.Location, a.Location, a.Line, a.Col)
			}
		}
	}
	return out, probs
}

// Rules returns the rules of ps.
func Rules(ps []Parsed) []Rule {
	out := make([]Rule, len(ps))
	for i, p := range ps {
		out[i] = p.Rule
	}
	return out
}

type member struct {
	val  any
	text string
	off  int64 // of the value, from the object's start
	koff int64 // of the key
}

// readObject reads a rule's members with their offsets.
func readObject(raw []byte) (objectMap, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return objectMap{}, false
	}
	o := objectMap{m: map[string]member{}}
	for dec.More() {
		koff := skipSpace(raw, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return objectMap{}, false
		}
		k, _ := tok.(string)
		off := skipSpace(raw, skipColon(raw, dec.InputOffset()))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return objectMap{}, false
		}
		var val any
		d := json.NewDecoder(bytes.NewReader(v))
		d.UseNumber()
		_ = d.Decode(&val)
		if _, dup := o.m[k]; !dup {
			o.order = append(o.order, k)
		}
		o.m[k] = member{val, string(v), off, koff}
	}
	return o, true
}

type objectMap struct {
	m     map[string]member
	order []string
}

func (o objectMap) lookup(k string) (member, bool) { m, ok := o.m[k]; return m, ok }

func skipSpace(b []byte, off int64) int64 {
	for off < int64(len(b)) && (b[off] == ' ' || b[off] == '\t' || b[off] == '\r' || b[off] == '\n' || b[off] == ',') {
		off++
	}
	return off
}

func skipColon(b []byte, off int64) int64 {
	off = skipSpace(b, off)
	if off < int64(len(b)) && b[off] == ':' {
		off++
	}
	return off
}

// lineCols returns a function from a byte offset to its line and column,
// in logarithmic time: the offsets of the line breaks are found once.
func lineCols(data []byte) func(int64) (int, int) {
	var breaks []int64
	for i, c := range data {
		if c == '\n' {
			breaks = append(breaks, int64(i))
		}
	}
	return func(off int64) (int, int) {
		off = min(max(off, 0), int64(len(data)))
		n, _ := slices.BinarySearch(breaks, off) // line breaks before off
		start := int64(0)
		if n > 0 {
			start = breaks[n-1] + 1
		}
		return n + 1, int(off-start) + 1
	}
}

func offsetOf(_ func(int64) (int, int), line, col int, data []byte) int64 {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return int64(off + col - 1)
}
