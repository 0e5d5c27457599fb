package wellknown

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
)

// CodeJSON and CodeAtprotoDID are the lint codes of the small well-known
// files of design section 13: a JSON file that fails its shape (an app
// association file, gpc.json, traffic-advice), and an atproto-did that is
// not a DID alone.
const (
	CodeJSON       = "J001"
	CodeAtprotoDID = "J002"
)

// CheckGPCJSON checks a hand-written gpc.json by shape (W3C Global
// Privacy Control): an object whose gpc is a boolean and whose optional
// lastUpdate is a date, YYYY-MM-DD.
func CheckGPCJSON(data []byte) []JSONProblem {
	c, v, bad := parseJSON(data)
	if bad != nil {
		return bad
	}
	m, ok := v.(map[string]any)
	if !ok {
		if l, isList := v.([]any); isList && len(l) == 1 {
			c.Add("", false, "the file must be an object, not a list around one: remove the [ ]")
		} else {
			c.Add("", false, "the file must be an object {\"gpc\": true}, not %s", kit.JSONKind(v))
		}
		return c.Problems
	}
	switch g, ok := m["gpc"]; {
	case !ok:
		c.Add("", false, "gpc is missing: true when the site honours the signal")
	case g == "true" || g == "false":
		c.Add("/gpc", false, "gpc is the string %q: write the boolean %s, without quotes", g, g)
	default:
		if _, isBool := g.(bool); !isBool {
			c.Add("/gpc", false, "gpc must be true or false, not %s", kit.JSONKind(g))
		}
	}
	if lu, ok := m["lastUpdate"]; ok {
		if s, isString := lu.(string); !isString {
			c.Add("/lastUpdate", false, "lastUpdate must be a date string, not %s", kit.JSONKind(lu))
		} else if msg := CheckGPCDate(s); msg != "" {
			c.Add("/lastUpdate", false, "%s", msg)
		}
	}
	return c.Sorted()
}

// CheckTrafficAdviceJSON checks a hand-written traffic-advice by shape: a
// list of objects with a user_agent string, disallow a boolean and fraction
// a number from 0 to 1.
func CheckTrafficAdviceJSON(data []byte) []JSONProblem {
	c, v, bad := parseJSON(data)
	if bad != nil {
		return bad
	}
	list, ok := v.([]any)
	if !ok {
		c.Add("", false, "the file must be a list of advice entries, not %s (wrap a single entry in [ ])", kit.JSONKind(v))
		return c.Problems
	}
	for i, e := range list {
		p := fmt.Sprintf("/%d", i)
		m, ok := c.Object(p, e)
		if !ok {
			continue
		}
		if ua, ok := m["user_agent"].(string); !ok || ua == "" {
			c.Add(p, false, "an entry needs user_agent, a string (prefetch-proxy, or *)")
		}
		d, hasD := m["disallow"]
		if _, isBool := d.(bool); hasD && !isBool {
			c.Add(p+"/disallow", false, "disallow must be true or false, not %s", kit.JSONText(d))
		}
		f, hasF := m["fraction"]
		if hasF {
			n, isNum := f.(json.Number)
			x, err := n.Float64()
			if !isNum || err != nil || x < 0 || x > 1 {
				c.Add(p+"/fraction", false, "fraction must be a number from 0 to 1, not %s", kit.JSONText(f))
			}
		}
		if !hasD && !hasF {
			c.Add(p, true, "the entry advises nothing: give disallow or fraction")
		}
	}
	return c.Sorted()
}

// LintAtprotoDID checks a hand-written atproto-did: the DID alone. A final
// line break is a warning (resolvers trim it, but the AT Protocol handle
// specification asks for the DID).
func LintAtprotoDID(data []byte) []diag.Diagnostic {
	s := string(data)
	trimmed := strings.TrimRight(s, "\r\n")
	var out []diag.Diagnostic
	if msg := CheckAtprotoDID(trimmed); msg != "" {
		out = append(out, diag.Diagnostic{Pos: diag.Pos{Line: 1, Col: 1}, Severity: diag.Error, Code: CodeAtprotoDID, Message: msg})
	} else if trimmed != s {
		out = append(out, diag.Diagnostic{Pos: diag.Pos{Line: 1, Col: len(trimmed) + 1}, Severity: diag.Warning, Code: CodeAtprotoDID, Message: "a line break after the DID: resolvers trim it, but the file should be the DID alone"})
	}
	return out
}

// JSONDiagnostics turns the problems of a JSON check into lint
// diagnostics, with code CodeJSON.
func JSONDiagnostics(ps []JSONProblem) []diag.Diagnostic { return kit.JSONDiagnostics(ps, CodeJSON) }
