package crawlers

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// Format writes a catalogue in the layout of the shipped catalogue.json:
// sources, purposes and left-out tokens with sorted keys, then one agent a
// line, sorted by name case-insensitively (then byte-wise). The shipped
// file is kept in this layout, so a refreshed catalogue diffs line by line.
func Format(c *Catalogue) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"date\": " + q(c.Date) + ",\n")
	b.WriteString("  \"sources\": {")
	for i, k := range slices.Sorted(maps.Keys(c.Sources)) {
		s := c.Sources[k]
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    " + q(k) + ": {\"url\": " + q(s.URL) + ", \"file\": " + q(s.File) + ", \"commit\": " + q(s.Commit) +
			", \"date\": " + q(s.Date) + ", \"licence\": " + q(s.Licence) + "}")
	}
	b.WriteString("\n  },\n")
	writeMap(&b, "purposes", c.Purposes)
	writeMap(&b, "left_out", c.LeftOut)
	b.WriteString("  \"agents\": [")
	agents := slices.Clone(c.Agents)
	slices.SortStableFunc(agents, func(x, y Agent) int { return byName(x.Name, y.Name) })
	for i, a := range agents {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    {\"name\": " + q(a.Name) + ", \"operator\": " + q(a.Operator) + ", \"purpose\": " + q(a.Purpose) +
			", \"source\": " + q(a.Source) + ", \"checked\": " + q(a.Checked))
		if a.Control {
			b.WriteString(", \"control\": true")
		}
		b.WriteString("}")
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes()
}

func writeMap(b *bytes.Buffer, key string, m map[string]string) {
	b.WriteString("  " + q(key) + ": {")
	for i, k := range slices.SortedFunc(maps.Keys(m), byName) {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    " + q(k) + ": " + q(m[k]))
	}
	b.WriteString("\n  },\n")
}

// byName orders names case-insensitively, then byte-wise.
func byName(x, y string) int {
	if d := strings.Compare(strings.ToLower(x), strings.ToLower(y)); d != 0 {
		return d
	}
	return strings.Compare(x, y)
}

// q quotes s as a JSON string, leaving <, > and & as they are.
func q(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
