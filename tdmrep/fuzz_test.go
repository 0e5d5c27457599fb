package tdmrep_test

import (
	"bytes"
	"testing"

	"github.com/discgen/discgen/tdmrep"
)

// FuzzParse: Parse never panics, reports each problem inside the file,
// and what it keeps, written again, reads back the same.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`[{"location": "/", "tdm-reservation": 1, "tdm-policy": "https://example.org/p"}]`))
	f.Add([]byte(`[{"location": "/a/", "tdm-reservation": 0}, {"location": "/", "tdm-reservation": 2}, 3, {"x": [1]}]`))
	f.Add([]byte(`{"location": "/"}`))
	f.Add([]byte("[\n {\"location\": \"/*.pdf$\",\n  \"tdm-reservation\": 1}\n]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, probs := tdmrep.Parse(data)
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, p := range probs {
			if p.Line < 1 || p.Line > lines || p.Col < 1 {
				t.Fatalf("problem %v outside a file of %d lines", p, lines)
			}
		}
		rules := tdmrep.Rules(ps)
		back, _ := tdmrep.Parse(tdmrep.Marshal(rules))
		if len(back) != len(rules) {
			t.Fatalf("%d rules written, %d read back", len(rules), len(back))
		}
		for i := range rules {
			if back[i].Rule != rules[i] {
				t.Fatalf("rule %d: %+v written, %+v read back", i, rules[i], back[i].Rule)
			}
		}
	})
}
