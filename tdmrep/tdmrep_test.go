package tdmrep_test

import (
	"encoding/json"
	"testing"

	"github.com/discgen/discgen/tdmrep"
)

// The file is the report's shape (an array of objects with location,
// tdm-reservation and, when given, tdm-policy), and a reader taking the
// first matching rule gets the longest match.
func TestMarshalFirstMatchIsLongest(t *testing.T) {
	rules := []tdmrep.Rule{
		{Location: "/", Reservation: 1, Policy: "https://example.org/p.json"},
		{Location: "/a/", Reservation: 0},
		{Location: "/a/b/", Reservation: 1},
		{Location: "/*.jpg$", Reservation: 0},
	}
	tdmrep.Sort(rules)
	data := tdmrep.Marshal(rules)
	var back []map[string]any
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(back) != 4 || back[0]["location"] != "/*.jpg$" || back[1]["location"] != "/a/b/" || back[3]["location"] != "/" {
		t.Fatalf("order:\n%s", data)
	}
	for _, r := range back {
		if _, ok := r["tdm-reservation"].(float64); !ok {
			t.Errorf("rule %v has no numeric tdm-reservation", r)
		}
		if p, ok := r["tdm-policy"]; ok && p == "" {
			t.Errorf("rule %v has an empty policy", r)
		}
	}
	for _, tc := range []struct {
		path string
		want int
		ok   bool
	}{
		{"/", 1, true},
		{"/x", 1, true},
		{"/a/", 0, true},
		{"/a/x.jpg", 0, true},
		{"/a/b/c", 1, true},
		{"/a/b/c.jpg", 0, true}, // the longer pattern, as in robots.txt
		{"/c.jpg", 0, true},
		{"/%61/b/", 1, true}, // %61 is "a", decoded before matching
	} {
		r, ok := tdmrep.Lookup(rules, tc.path)
		if ok != tc.ok || r.Reservation != tc.want {
			t.Errorf("Lookup(%q) = %v %v, want %d %v", tc.path, r, ok, tc.want, tc.ok)
		}
	}
	if _, ok := tdmrep.Lookup(rules[:1:1][0:0], "/x"); ok {
		t.Error("no rules: a match")
	}
	if got := string(tdmrep.Marshal(nil)); got != "[]\n" {
		t.Errorf("Marshal(nil) = %q", got)
	}
}
