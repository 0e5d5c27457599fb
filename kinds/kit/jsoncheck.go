package kit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/discgen/discgen/diag"
)

// JSONProblem is one way a JSON file fails its shape or its schema, or
// fails to parse, at a line and column of the file (1-based; the column
// counts characters).
type JSONProblem struct {
	Offset    int // the byte offset of the value in the file
	Line, Col int
	Pointer   string // the JSON Pointer of the value, "" for the whole file
	Message   string
}

func (p JSONProblem) String() string {
	if p.Pointer == "" {
		return fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Message)
	}
	return fmt.Sprintf("%d:%d: %s: %s", p.Line, p.Col, p.Pointer, p.Message)
}

// IsWarning reports a problem that does not stop a build.
func (p JSONProblem) IsWarning() bool { return strings.HasPrefix(p.Message, "warning: ") }

// JSONChecker collects the problems of a JSON document at the positions
// of its values. A kind that checks a JSON file by shape reads it with
// ParseJSON and adds a problem for each value that fails.
type JSONChecker struct {
	pos      *JSONPositions
	Problems []JSONProblem
}

// Add adds a problem at the value ptr points to (or its nearest recorded
// ancestor); a warning's message starts with "warning: ".
func (c *JSONChecker) Add(ptr string, warn bool, format string, args ...any) {
	off := c.pos.OffsetOf(ptr)
	line, col := c.pos.LineCol(off)
	msg := fmt.Sprintf(format, args...)
	if warn {
		msg = "warning: " + msg
	}
	c.Problems = append(c.Problems, JSONProblem{Offset: off, Line: line, Col: col, Pointer: ptr, Message: msg})
}

// ParseJSON reads data as one JSON value (numbers as json.Number) and
// records its positions; a document that does not parse is one problem
// at the offset where it fails.
func ParseJSON(data []byte) (*JSONChecker, any, []JSONProblem) {
	pos, err := PositionsOf(data)
	if err != nil {
		var se *JSONSyntaxError
		if !errors.As(err, &se) {
			return nil, nil, []JSONProblem{{Line: 1, Col: 1, Message: err.Error()}}
		}
		at := diag.At("", data, se.Offset)
		return nil, nil, []JSONProblem{{Offset: min(se.Offset, len(data)), Line: at.Line, Col: at.Col, Message: "not JSON: " + se.Msg}}
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, nil, []JSONProblem{{Line: 1, Col: 1, Message: "not JSON: " + err.Error()}}
	}
	return &JSONChecker{pos: pos}, v, nil
}

// Object returns v as an object, or adds a problem at p.
func (c *JSONChecker) Object(p string, v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		c.Add(p, false, "must be an object, not %s", JSONKind(v))
	}
	return m, ok
}

// Strings adds a problem at p unless v is a list of strings; what names
// the list in the message.
func (c *JSONChecker) Strings(p string, v any, what string) {
	list, ok := v.([]any)
	if !ok {
		c.Add(p, false, "%s must be a list of strings, not %s", what, JSONKind(v))
		return
	}
	for i, e := range list {
		if _, ok := e.(string); !ok {
			c.Add(fmt.Sprintf("%s/%d", p, i), false, "must be a string, not %s", JSONKind(e))
		}
	}
}

// Sorted returns the problems in document order, then by message.
func (c *JSONChecker) Sorted() []JSONProblem {
	slices.SortStableFunc(c.Problems, func(a, b JSONProblem) int {
		if a.Offset != b.Offset {
			return a.Offset - b.Offset
		}
		return strings.Compare(a.Message, b.Message)
	})
	return c.Problems
}

// JSONKind names the JSON type of v for a message.
func JSONKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// JSONText shows a short value for a message.
func JSONText(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > 80 {
			x = x[:80] + "..."
		}
		return fmt.Sprintf("%q", x)
	case nil:
		return "null"
	case json.Number:
		return string(x)
	case bool:
		return fmt.Sprint(x)
	}
	return JSONKind(v)
}

// JSONDiagnostics turns the problems of a JSON check into lint
// diagnostics with code, the message prefixed by the value's pointer.
func JSONDiagnostics(ps []JSONProblem, code string) []diag.Diagnostic {
	out := make([]diag.Diagnostic, 0, len(ps))
	for _, p := range ps {
		sev, msg := diag.Error, p.Message
		if p.IsWarning() {
			sev, msg = diag.Warning, strings.TrimPrefix(msg, "warning: ")
		}
		if p.Pointer != "" {
			msg = p.Pointer + ": " + msg
		}
		out = append(out, diag.Diagnostic{Pos: diag.Pos{Line: p.Line, Col: p.Col}, Severity: sev, Code: code, Message: msg})
	}
	return out
}

// MarshalFile returns v as a JSON file: indented by two spaces, HTML
// characters as they are, ending in LF. v holds only strings, booleans,
// checked numbers and their lists and objects, which always encode.
func MarshalFile(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // unreachable: the values are strings, booleans and checked numbers
	}
	return b.Bytes()
}
