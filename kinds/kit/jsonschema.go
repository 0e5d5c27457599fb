package kit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Schema is a compiled JSON Schema (santhosh-tekuri/jsonschema/v5), which
// a file of well_known.files is checked against: one a kind ships
// (kit.SchemaShipper, compiled with CompileShipped) or one the manifest
// names (CompileSchema).
type Schema = jsonschema.Schema

// MaxSchemaBytes bounds a schema file a manifest names.
const MaxSchemaBytes = 1 << 20

// MaxJSONProblems bounds the problems reported for one file; past it one
// more problem gives the count.
const MaxJSONProblems = 100

// schemaBase is the URL schemas are registered under, so that messages
// never show a path of the machine that built them.
const schemaBase = "https://discgen.invalid/schemas/"

// CompileShipped compiles a schema a kind ships (a dated copy embedded
// in its package), registered under name and compiled at the JSON
// Pointer fragment ref ("#/definitions/AgentCard", "" for the document).
// Like CompileSchema's, it may not refer to any other document.
func CompileShipped(name string, data []byte, ref string) (*Schema, error) {
	return compile(schemaBase+name, data, ref)
}

// CompileSchema compiles the JSON Schema text of a file a manifest names
// (file is its name, for messages). The schema may not refer to any
// other document: nothing is fetched or read while compiling.
func CompileSchema(file string, data []byte) (*Schema, error) {
	if len(data) > MaxSchemaBytes {
		return nil, fmt.Errorf("the schema is %d bytes; the limit is %d", len(data), MaxSchemaBytes)
	}
	if _, err := PositionsOf(data); err != nil {
		var se *JSONSyntaxError
		if errors.As(err, &se) {
			at := diag.At("", data, se.Offset)
			return nil, fmt.Errorf("the schema is not JSON: %d:%d: %s", at.Line, at.Col, se.Msg)
		}
		return nil, err
	}
	if err := schemaShape(data); err != nil {
		return nil, err
	}
	return compile(schemaBase+"manifest/"+url.PathEscape(path.Base(file)), data, "")
}

// schemaShape bounds the schema a manifest names before it is compiled:
// at most MaxSubschemas objects, nested at most MaxSchemaDepth deep.
func schemaShape(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	objects, depth := 0, 0
	for {
		t, err := dec.Token()
		if err != nil {
			return nil // positionsOf has read it whole
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			if t == json.Delim('{') {
				if objects++; objects > MaxSubschemas {
					return fmt.Errorf("the schema has more than %d objects; simplify the schema", MaxSubschemas)
				}
			}
			if depth++; depth > MaxSchemaDepth {
				return fmt.Errorf("the schema nests more than %d levels deep; simplify the schema", MaxSchemaDepth)
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

func compile(u string, data []byte, ref string) (*Schema, error) {
	c := jsonschema.NewCompiler()
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("%s: a schema may not refer to another document", s)
	}
	if err := c.AddResource(u, bytes.NewReader(data)); err != nil {
		return nil, cleanSchemaErr(err)
	}
	s, err := c.Compile(u + ref)
	if err != nil {
		return nil, cleanSchemaErr(err)
	}
	return s, nil
}

// cleanSchemaErr drops the registration URL from a compile error.
func cleanSchemaErr(err error) error {
	return errors.New(strings.ReplaceAll(err.Error(), schemaBase, ""))
}

// ValidateJSON checks data against s. It returns the problems sorted by
// position then message, at most MaxJSONProblems of them (and one that
// counts the rest), or a single problem if data is not JSON. It returns a
// *CostError, and checks nothing, when checking data against s would take
// more than MaxSchemaSteps steps (schemacost.go).
func ValidateJSON(data []byte, s *Schema) ([]JSONProblem, error) {
	pos, err := PositionsOf(data)
	if err != nil {
		var se *JSONSyntaxError
		if !errors.As(err, &se) {
			return []JSONProblem{{Line: 1, Col: 1, Message: err.Error()}}, nil
		}
		at := diag.At("", data, se.Offset)
		return []JSONProblem{{Offset: min(se.Offset, len(data)), Line: at.Line, Col: at.Col, Message: "not JSON: " + se.Msg}}, nil
	}
	var inst any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&inst); err != nil {
		return []JSONProblem{{Line: 1, Col: 1, Message: "not JSON: " + err.Error()}}, nil
	}
	if err := schemaCost(s, inst, MaxSchemaSteps); err != nil {
		return nil, err
	}
	err = s.Validate(inst)
	var ve *jsonschema.ValidationError
	if err == nil || !errors.As(err, &ve) {
		if err != nil {
			return []JSONProblem{{Line: 1, Col: 1, Message: err.Error()}}, nil
		}
		return nil, nil
	}
	var out []JSONProblem
	seen := map[JSONProblem]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		ptr := pointerOf(e.InstanceLocation)
		off := pos.OffsetOf(ptr)
		line, col := pos.LineCol(off)
		p := JSONProblem{Offset: off, Line: line, Col: col, Pointer: ptr, Message: e.Message}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	walk(ve)
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Message < b.Message
	})
	if len(out) > MaxJSONProblems {
		n := len(out) - MaxJSONProblems
		out = append(out[:MaxJSONProblems], JSONProblem{Offset: out[MaxJSONProblems].Offset, Line: out[MaxJSONProblems].Line, Col: out[MaxJSONProblems].Col,
			Message: fmt.Sprintf("%d more problems not shown (at most %d are reported per file)", n, MaxJSONProblems)})
	}
	return out, nil
}

// pointerOf turns the validator's instance location, whose tokens are
// also URL-path-escaped, into a plain JSON Pointer.
func pointerOf(loc string) string {
	if loc == "" {
		return ""
	}
	toks := strings.Split(loc, "/")
	for i, t := range toks {
		if u, err := url.PathUnescape(t); err == nil {
			toks[i] = u
		}
	}
	return strings.Join(toks, "/")
}
