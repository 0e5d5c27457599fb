package gpc

import "github.com/discgen/discgen/kinds/kit"

// CheckJSON checks a hand-written gpc.json by shape (W3C Global Privacy
// Control): an object whose gpc is a boolean and whose optional
// lastUpdate is a date, YYYY-MM-DD.
func CheckJSON(data []byte) []kit.JSONProblem {
	c, v, bad := kit.ParseJSON(data)
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
		} else if msg := CheckDate(s); msg != "" {
			c.Add("/lastUpdate", false, "%s", msg)
		}
	}
	return c.Sorted()
}
