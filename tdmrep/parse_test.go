package tdmrep_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/tdmrep"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		rules    int
		want     []string
	}{
		{"written", string(tdmrep.Marshal([]tdmrep.Rule{{Location: "/a/", Reservation: 0}, {Location: "/", Reservation: 1, Policy: "https://example.org/p"}})), 2, nil},
		{"not json", "[{\"location\": \"/\",}]", 0, []string{"1:19: not JSON: invalid character '}' looking for beginning of object key string"}},
		{"object", `{"location": "/", "tdm-reservation": 1}`, 0, []string{"1:1: tdmrep.json is a JSON array of rules (brackets even for one rule)"}},
		{"shape", `[
  {"location": "/", "tdm-reservation": 2},
  {"location": "a/", "tdm-reservation": 1},
  {"tdm-reservation": 1},
  {"location": "/b/", "tdm-reservation": 1, "tdm-policy": "policy.json", "tdm-polcy": "x"},
  "/c/",
  {"location": "/b/", "tdm-reservation": 0}
]`, 2, []string{
			"2:40: tdm-reservation 2 is not 1 or 0 (the final report of 2024-05-10 dropped every other value); a reader takes it as unset",
			"3:16: location \"a/\" is not a path starting with \"/\"",
			"4:3: the rule has no location",
			"5:59: tdm-policy \"policy.json\" is not an absolute http(s) URL",
			"5:74: warning: unknown key \"tdm-polcy\": the report defines location, tdm-reservation and tdm-policy",
			"6:3: a rule is a JSON object with location and tdm-reservation",
			"7:3: location \"/b/\" is given twice (first at 5:3); a reader uses the first",
		}},
		{"order", `[{"location": "/", "tdm-reservation": 1}, {"location": "/open/", "tdm-reservation": 0}]`, 2, []string{
			"1:43: warning: location \"/open/\" overlaps \"/\" at 1:2, which comes first: a reader takes the first match, so the shorter location decides where both match; list the more specific first",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rules, probs := tdmrep.Parse([]byte(tc.in))
			var got []string
			for _, p := range probs {
				got = append(got, p.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") || len(rules) != tc.rules {
				t.Errorf("%d rules, problems\n%s\nwant %d rules,\n%s", len(rules), strings.Join(got, "\n"), tc.rules, strings.Join(tc.want, "\n"))
			}
		})
	}
}

// A file of many rules is read in about linear time: the pairwise overlap
// check stops at MaxOverlapRules and says so.
func TestParseManyRules(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	const n = 200_000
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"location": "/` + strconv.Itoa(i) + `/", "tdm-reservation": 1}`)
	}
	b.WriteString("]")
	start := time.Now()
	rules, probs := tdmrep.Parse([]byte(b.String()))
	if len(rules) != n || len(probs) != 1 || !strings.Contains(probs[0].Message, "more than 2000 rules") {
		t.Fatalf("%d rules, problems %v", len(rules), probs)
	}
	t.Logf("%d rules in %v", n, time.Since(start))
}
