package manifest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// parsedDelegations returns the most entries any top-level delegations
// sequence of data's one document has, as the parser reads it; false when
// data is not one document that parses.
func parsedDelegations(data []byte) (int, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return 0, false
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil || err.Error() != "EOF" {
		return 0, false
	}
	most := 0
	if len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		m := doc.Content[0].Content
		for i := 0; i+1 < len(m); i += 2 {
			if m[i].Kind == yaml.ScalarNode && m[i].Value == "delegations" && m[i+1].Kind == yaml.SequenceNode {
				most = max(most, len(m[i+1].Content))
			}
		}
	}
	return most, true
}

// prescanDelegations returns what the prescan counts.
func prescanDelegations(data []byte) int {
	s, _ := prescanScan(data, 1<<30)
	return s.dels.most
}

// delegationShapes are the forms of a top-level list the prescan counts
// exactly, and want is the count.
var delegationShapes = []struct {
	src  string
	want int
}{
	{"delegations:\n  - {path: /a/}\n  - {path: /b/}\n", 2},
	{"delegations:\n- {path: /a/}\n- path: /b/\n  only: [x-a.txt]\n- /c/\nx: 1\n", 3},
	{"delegations: [{path: /a/}, {path: /b/}, /c/,]\n", 3},
	{"delegations: [\n  {path: /a/},\n  # {path: /x/},\n  {path: /b/}\n]\n", 2},
	{"delegations: &d\n  - a\n  - - b\n    - c\n  -\n  - d: [e, f]\n", 4},
	{"delegations: !!seq\n- a\n- b\n", 2},
	{"delegations: []\n", 0},
	{"delegations:    # comment\n\n  - a # - b\n  - 'c\n    - d'\n  - |\n    - e\n  - f\n", 4},
	{"version: 1\ndelegations:\n  - path: /a/\n    inline:\n      delegations:\n        - {path: /a/b/}\n        - {path: /a/c/}\n  - path: /d/\n", 2},
	{"  delegations:\n    - a\n    - b\n  x:\n    - c\n", 2},
	{"delegations:\n  - [a, b, c]\n  - {d: [e, f]}\n", 2},
	{"delegations:\n  - a\nx:\n  - b\n  - c\n", 1},
	{"delegations:\n- a\n- b\nx:\n- c\n", 2},
}

// delegationDecoys hold the key where it is no top-level list (nested, in
// a block scalar, a comment or a quoted scalar), or a top-level list in a
// form the count leaves to the parser (a flow mapping's).
var delegationDecoys = []string{
	"x:\n  delegations:\n    - a\n    - b\n",
	"x: |\n  delegations:\n  - a\n  - b\n",
	"x: >-\n  delegations: [a, b]\n",
	"# delegations:\n# - a\n# - b\nx: 1\n",
	"x: 'delegations: [a, b]'\ny: \"\n  delegations:\n  - a\"\n",
	"- delegations:\n  - a\n  - b\n",
	"x: [{delegations: [a, b]}]\n",
	"{delegations: [a, b]}\n",
	"x:\n  - delegations:\n    - a\n    - b\n",
	"delegations: a\n- b\n",
	"delegations:\n  x:\n    - a\n    - b\n",
	"delegations: {a: [b, c]}\n",
	"x: delegations\n- a\n",
}

// TestPrescanCountsDelegations: on each form the count is what the parser
// reads; a key that is not the top-level one counts nothing.
func TestPrescanCountsDelegations(t *testing.T) {
	for _, c := range delegationShapes {
		n, ok := parsedDelegations([]byte(c.src))
		if !ok || n != c.want {
			t.Fatalf("the parser reads %d (%v) of:\n%s", n, ok, c.src)
		}
		if got := prescanDelegations([]byte(c.src)); got != c.want {
			t.Errorf("prescan counts %d delegations, want %d:\n%s", got, c.want, c.src)
		}
	}
	for _, src := range delegationDecoys {
		n, _ := parsedDelegations([]byte(src))
		if got := prescanDelegations([]byte(src)); got > n || n == 0 && got != 0 {
			t.Errorf("prescan counts %d delegations, the parser reads %d:\n%s", got, n, src)
		}
	}
}

// TestPrescanDelegationsCorpus: on every manifest of the corpus the count
// is exactly the parser's.
func TestPrescanDelegationsCorpus(t *testing.T) {
	withList := 0
	for _, data := range prescanCorpus(t) {
		n, ok := parsedDelegations(data)
		if !ok {
			continue
		}
		if n > 0 {
			withList++
		}
		if got := prescanDelegations(data); got != n {
			t.Errorf("prescan counts %d delegations, the parser reads %d:\n%.400s", got, n, data)
		}
	}
	if withList < 5 {
		t.Errorf("only %d manifests of the corpus delegate: the test tests little", withList)
	}
}

// TestPrescanDelegationsGenerated: on generated documents whose keys are
// often delegations, the count is never more than the parser's (or a
// manifest validation accepts would be refused), and equal on most.
func TestPrescanDelegationsGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	valid, lists, equal := 0, 0, 0
	for range 20_000 {
		var b strings.Builder
		for i := range 1 + r.IntN(4) {
			if r.IntN(2) == 0 {
				b.WriteString([]string{"delegations: ", "delegations:\n", "delegations: &d ", "delegations:\n  ", "  delegations: "}[r.IntN(5)])
			} else {
				fmt.Fprintf(&b, "k%d: ", i)
			}
			genNode(r, &b, 0, 0, false)
			b.WriteString("\n")
			if r.IntN(3) == 0 {
				b.WriteString([]string{"- a\n", "  - b\n", "# delegations:\n", "x: |\n  delegations:\n  - a\n"}[r.IntN(4)])
			}
		}
		data := []byte(b.String())
		n, ok := parsedDelegations(data)
		if !ok {
			continue
		}
		valid++
		got := prescanDelegations(data)
		if got > n {
			t.Fatalf("prescan counts %d delegations, the parser reads %d:\n%s", got, n, data)
		}
		if n > 0 {
			lists++
			if got == n {
				equal++
			}
		}
	}
	t.Logf("%d documents parse, %d with a list, counted exactly in %d", valid, lists, equal)
	if valid < 1000 || lists < 500 {
		t.Errorf("%d documents parse, %d with a list: the test tests little", valid, lists)
	}
	if equal < lists*9/10 {
		t.Errorf("the count is exact on %d of %d lists: too loose", equal, lists)
	}
}

// TestDelegationsRefusedBeforeParsing: a top-level list over the limit is
// refused before it is parsed, with validation's message, at the first
// entry past the limit; at the limit, or with an environment that may
// replace the list, it is left to validation.
func TestDelegationsRefusedBeforeParsing(t *testing.T) {
	head := "version: 1\nsite:\n  url: https://example.org/\n"
	block := func(n int) string {
		var b strings.Builder
		b.WriteString(head + "delegations:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {path: /d%d/}\n", i)
		}
		return b.String()
	}
	flow := func(n int) string {
		var b strings.Builder
		b.WriteString(head + "delegations: [\n")
		for i := range n {
			fmt.Fprintf(&b, "  {path: /d%d/},\n", i)
		}
		return b.String() + "]\n"
	}
	for name, src := range map[string]string{"block": block(40_000), "flow": flow(40_000)} {
		doc, errs := LoadSite("s.yaml", []byte(src), "")
		want := fmt.Sprintf("s.yaml:%d:%d: delegations[10000]: 40000 delegations; the limit is 10000", 5+MaxDelegations, map[string]int{"block": 5, "flow": 3}[name])
		if doc != nil || len(errs) != 1 || errs[0].String() != want {
			t.Errorf("%s: got %v, want %s", name, errs, want)
		}
	}
	for name, src := range map[string]string{"block": block(MaxDelegations), "flow": flow(MaxDelegations)} {
		if doc, errs := LoadSite("s.yaml", []byte(src), ""); doc == nil || errs.HasErrors() {
			t.Errorf("%s at the limit: refused: %v", name, errs)
		}
	}
	env := block(MaxDelegations+1) + "environments:\n  small:\n    delegations: [{path: /a/}]\n"
	if doc, errs := LoadSite("s.yaml", []byte(env), "small"); doc == nil || errs.HasErrors() {
		t.Errorf("with an environment: refused: %v", errs)
	}
	if doc, _ := LoadSite("s.yaml", []byte(env), ""); doc != nil {
		t.Errorf("without the environment: not refused")
	}
}
