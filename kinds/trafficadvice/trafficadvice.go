// Package trafficadvice is the kind of /.well-known/traffic-advice,
// "Traffic Advice" (Private Prefetch Proxy explainer and specification,
// https://buettner.github.io/private-prefetch-proxy/traffic-advice.html):
// a JSON list of {user_agent, disallow, fraction} entries, fraction from 0
// to 1, served as application/trafficadvice+json. The manifest's
// well_known.traffic_advice gives it; a hand-written copy is checked by
// shape and carried back when discgen renders it byte for byte.
package trafficadvice

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// MediaType is the media type the specification gives the file.
const MediaType = "application/trafficadvice+json"

// Entry is one entry of the traffic-advice list.
type Entry struct {
	UserAgent string
	Fraction  string // a JSON number from 0 to 1, or "" for none
	Disallow  bool
}

// Advice is one entry of the manifest's well_known.traffic_advice.
type Advice struct {
	UserAgent string       `json:"user_agent"`
	Fraction  *json.Number `json:"fraction,omitempty"`
	Disallow  bool         `json:"disallow,omitempty"`
}

// Model converts the manifest list to the model.
func Model(list []Advice) []Entry {
	out := make([]Entry, len(list))
	for i, e := range list {
		out[i] = Entry{UserAgent: e.UserAgent, Disallow: e.Disallow}
		if e.Fraction != nil {
			out[i].Fraction = string(*e.Fraction)
		}
	}
	return out
}

// CheckList returns the problems of the list, each Field relative to the
// manifest's traffic_advice ("[1].fraction").
func CheckList(list []Entry) []kit.Finding {
	var fs []kit.Finding
	seen := map[string]int{}
	for i, e := range list {
		p := fmt.Sprintf("[%d]", i)
		if e.UserAgent == "" || strings.ContainsAny(e.UserAgent, " \t\"") {
			fs = append(fs, kit.Finding{Field: p + ".user_agent", Message: fmt.Sprintf("%q is not an agent name (a brand name such as ExamplePrefetchProxy, prefetch-proxy or *)", e.UserAgent)})
		} else if first, dup := seen[e.UserAgent]; dup {
			fs = append(fs, kit.Finding{Field: p + ".user_agent", Message: fmt.Sprintf("%q has advice at [%d] already: an agent follows the first entry that names it", e.UserAgent, first)})
		} else {
			seen[e.UserAgent] = i
		}
		if e.Fraction != "" {
			f, err := strconv.ParseFloat(e.Fraction, 64)
			if err != nil || f < 0 || f > 1 {
				fs = append(fs, kit.Finding{Field: p + ".fraction", Message: fmt.Sprintf("%s is not a fraction from 0 to 1", e.Fraction)})
			} else if e.Disallow {
				fs = append(fs, kit.Finding{Field: p + ".fraction", Warning: true, Message: "disallow: true sends no traffic whatever the fraction"})
			}
		} else if !e.Disallow {
			fs = append(fs, kit.Finding{Field: p, Message: "the entry advises nothing: give disallow: true or a fraction"})
		}
	}
	return fs
}

// RenderList returns the bytes of traffic-advice: the entries in
// manifest order, each {"user_agent", then "disallow" when true, then
// "fraction" as written}, indented by two spaces, ending in LF.
func RenderList(list []Entry) []byte {
	type entry struct {
		UserAgent string      `json:"user_agent"`
		Disallow  bool        `json:"disallow,omitempty"`
		Fraction  json.Number `json:"fraction,omitempty"`
	}
	out := make([]entry, len(list))
	for i, e := range list {
		out[i] = entry{e.UserAgent, e.Disallow, json.Number(e.Fraction)}
	}
	return kit.MarshalFile(out)
}

// CheckJSON checks a hand-written traffic-advice by shape: a list of
// objects with a user_agent string, disallow a boolean and fraction a
// number from 0 to 1.
func CheckJSON(data []byte) []kit.JSONProblem {
	c, v, bad := kit.ParseJSON(data)
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

// Kind is traffic-advice.
type Kind struct{}

func value(site *manifest.Site) []Advice {
	if l := kit.Value[[]Advice](site, Kind{}.Key()); l != nil {
		return *l
	}
	return nil
}

// NewValue returns a new empty well_known.traffic_advice (kit.Owner).
func (Kind) NewValue() any { return new([]Advice) }

func (Kind) Name() string                   { return "traffic-advice" }
func (Kind) Key() string                    { return "well_known.traffic_advice" }
func (Kind) Path() string                   { return ".well-known/traffic-advice" }
func (Kind) MediaType() string              { return MediaType }
func (Kind) Given(site *manifest.Site) bool { return len(value(site)) > 0 }

func (Kind) Check(site *manifest.Site, _ kit.Build) []kit.Finding {
	if l := value(site); len(l) > 0 {
		return CheckList(Model(l))
	}
	return nil
}

func (Kind) Render(site *manifest.Site, _ kit.Build) ([]byte, bool) {
	l := value(site)
	if len(l) == 0 {
		return nil, false
	}
	return RenderList(Model(l)), true
}

// CheckShape checks a hand-written copy by shape (CheckJSON).
func (Kind) CheckShape(data []byte) []kit.JSONProblem { return CheckJSON(data) }

// Lint lints a hand-written copy by shape.
func (Kind) Lint(data []byte) []diag.Diagnostic {
	return kit.JSONDiagnostics(CheckJSON(data), kit.CodeJSON)
}

// Import sets well_known.traffic_advice from a copy that discgen renders
// byte for byte, and reports whether it did.
func (Kind) Import(site *manifest.Site, data []byte, _ func(int, string, ...any)) bool {
	var list []struct {
		UserAgent string       `json:"user_agent"`
		Fraction  *json.Number `json:"fraction"`
		Disallow  bool         `json:"disallow"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&list) != nil || len(list) == 0 {
		return false
	}
	m := make([]Advice, len(list))
	for i, e := range list {
		m[i] = Advice{UserAgent: e.UserAgent, Fraction: e.Fraction, Disallow: e.Disallow}
	}
	if !bytes.Equal(RenderList(Model(m)), data) {
		return false
	}
	kit.SetValue(site, Kind{}.Key(), &m)
	return true
}
