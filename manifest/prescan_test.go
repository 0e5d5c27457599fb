package manifest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testcorpus"
	"go.yaml.in/yaml/v3"
)

// nodes counts the nodes the parser builds for every document of data,
// aliases as one each; it reports false when data does not parse.
func nodes(data []byte) (int, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	total := 0
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		total++
		for _, c := range n.Content {
			walk(c)
		}
	}
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err != nil {
			return total, err.Error() == "EOF"
		}
		walk(&doc)
	}
}

func prescanCorpus(t testing.TB) [][]byte { return testcorpus.Manifests(t, "..", 50) }

var prescanShapes = []string{
	"a: [x, y, z]\n",
	"a: {b: c, d: e}\n",
	"- a\n- - b\n  - c\n",
	"a: |\n  - x\n  - y: z\n  [a, b, c]\nb: >-\n  k: v\nc: d\n",
	"a: 'it''s, [x], - y: z'\nb: \"q\\\" , [\"\n",
	"a: it's: plain\n",
	"a: [b, 'c, d', \"e, f\", {g: h, i: [j, k]}]\n",
	"# - a: b, c\na: b # , [x]\n",
	"a: [1, 2,]\n",
	"a:\n  - [x,\n     y]\n  - {p: q,\n     r: s}\n",
	"? a\n: b\n",
	"a: b\n---\nc: [d, e]\n",
}

// TestPrescanIsALowerBound: the prescan never counts more values than the
// parser builds, so no document is refused for nodes it does not hold.
func TestPrescanIsALowerBound(t *testing.T) {
	all := append(prescanCorpus(t), nil)
	for _, s := range prescanShapes {
		all = append(all, []byte(s))
	}
	for _, data := range all {
		n, ok := nodes(data)
		if !ok {
			continue
		}
		if c, _ := prescan(data, 1<<30); c > n {
			t.Errorf("prescan counts %d values, the parser builds %d:\n%s", c, n, data)
		}
	}
}

func TestPrescanRefusesEarly(t *testing.T) {
	for _, src := range []string{
		"a: [" + strings.Repeat("x,", MaxNodes+1) + "]\n",
		strings.Repeat("- x\n", MaxNodes+1),
		strings.Repeat("k: v\n", MaxNodes/2+1),
		"a: [" + strings.Repeat("*x,", MaxNodes+1) + "]\n",
	} {
		if _, at := prescan([]byte(src), MaxNodes); at < 0 {
			t.Errorf("%.40q...: not refused", src)
		}
	}
	// At the limit, not refused.
	if _, at := prescan([]byte("a: ["+strings.Repeat("x,", MaxNodes-10)+"]\n"), MaxNodes); at >= 0 {
		t.Errorf("refused under the limit at %d", at)
	}
}

// FuzzPrescan checks the lower bound on arbitrary documents.
func FuzzPrescan(f *testing.F) {
	for _, d := range prescanCorpus(f) {
		f.Add(d)
	}
	for _, s := range prescanShapes {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, ok := nodes(data)
		if !ok {
			return
		}
		if c, _ := prescan(data, 1<<30); c > n {
			t.Errorf("prescan counts %d values, the parser builds %d", c, n)
		}
	})
}
