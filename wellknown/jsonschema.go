package wellknown

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Schemas a well-known JSON file can be checked against: the ones discgen
// ships (dated copies, see schemas/NOTICE.md), or a schema file the
// manifest names.

// A2AAgentCard is the name of the shipped A2A agent card schema.
const A2AAgentCard = "a2a-agent-card"

// MaxSchemaBytes bounds a schema file a manifest names.
const MaxSchemaBytes = 1 << 20

// MaxJSONProblems bounds the problems reported for one file; past it one
// more problem gives the count.
const MaxJSONProblems = 100

//go:embed schemas/a2a-v0.3.0-agent-card.json schemas/a2a-v1.0.1-agent-card.json
var shipped embed.FS

// shippedSchemas maps a schema name to its embedded file and the schema
// within it. The embedded file is the dated copy (full) trimmed to what
// ref reaches, without annotations (TestShippedSchemaTrimmed derives it):
// compiling the whole 104 KB A2A document cost a build several
// milliseconds for the fifth of it a card uses.
// A v1.0 file also names the dated proto its required members come from
// (a2acard.go).
var shippedSchemas = map[string]struct{ file, full, ref, about, proto string }{
	A2AAgentCardV03: {file: "schemas/a2a-v0.3.0-agent-card.json", full: "schemas/a2a-v0.3.0.json", ref: "#/definitions/AgentCard", about: "A2A v0.3.0"},
	A2AAgentCardV10: {file: "schemas/a2a-v1.0.1-agent-card.json", full: "schemas/a2a-v1.0.1.json", ref: "#/$defs/AgentCard", about: "A2A v1.0.1", proto: "schemas/a2a-v1.0.1.proto"},
}

// schemaBase is the URL schemas are registered under, so that messages
// never show a path of the machine that built them.
const schemaBase = "https://discgen.invalid/schemas/"

// ShippedSchemas lists the names of the schemas discgen ships, sorted.
func ShippedSchemas() []string {
	out := []string{A2AAgentCard}
	for n := range shippedSchemas {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// DescribeSchema says which version of a shipped schema a name stands for.
func DescribeSchema(name string) string {
	if name == A2AAgentCard {
		return "A2A v0.3.0 or v1.0.1, by the card's protocol version"
	}
	return shippedSchemas[name].about
}

// DefaultSchema returns the shipped schema a well-known file of this name
// is checked against when its entry names none: agent-card.json (A2A),
// wherever it stands, and agent.json, the card's name before A2A v0.3.0
// (LegacyAgentCard). It returns "" for other names.
func DefaultSchema(name string) string {
	if path.Base(name) == "agent-card.json" || name == "agent.json" {
		return A2AAgentCard
	}
	return ""
}

var (
	compileOnce sync.Map // name -> *compiled
)

type compiled struct {
	once sync.Once
	s    *jsonschema.Schema
	err  error
}

// IsShipped reports whether discgen ships the schema of this name (as
// ResolveSchema gives it), without compiling it.
func IsShipped(name string) bool {
	_, ok := shippedSchemas[name]
	return ok
}

// Shipped returns the compiled schema of a shipped name; ok is false for
// a name discgen does not ship.
func Shipped(name string) (s *jsonschema.Schema, ok bool, err error) {
	info, ok := shippedSchemas[name]
	if !ok {
		return nil, false, nil
	}
	v, _ := compileOnce.LoadOrStore(name, &compiled{})
	c := v.(*compiled)
	c.once.Do(func() {
		data, err := shipped.ReadFile(info.file)
		if err != nil {
			c.err = err
			return
		}
		c.s, c.err = compile(schemaBase+path.Base(info.full), data, info.ref)
	})
	return c.s, true, c.err
}

// CompileSchema compiles the JSON Schema text of a file a manifest names
// (file is its name, for messages). The schema may not refer to any
// other document: nothing is fetched or read while compiling.
func CompileSchema(file string, data []byte) (*jsonschema.Schema, error) {
	if len(data) > MaxSchemaBytes {
		return nil, fmt.Errorf("the schema is %d bytes; the limit is %d", len(data), MaxSchemaBytes)
	}
	if _, err := kit.PositionsOf(data); err != nil {
		var se *kit.JSONSyntaxError
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

func compile(u string, data []byte, ref string) (*jsonschema.Schema, error) {
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

// JSONProblem is one way a JSON file fails its schema, or fails to
// parse: see kit.JSONProblem.
type JSONProblem = kit.JSONProblem

// ValidateJSON checks data against s. It returns the problems sorted by
// position then message, at most MaxJSONProblems of them (and one that
// counts the rest), or a single problem if data is not JSON. It returns a
// *CostError, and checks nothing, when checking data against s would take
// more than MaxSchemaSteps steps (schemacost.go).
func ValidateJSON(data []byte, s *jsonschema.Schema) ([]JSONProblem, error) {
	pos, err := kit.PositionsOf(data)
	if err != nil {
		var se *kit.JSONSyntaxError
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
