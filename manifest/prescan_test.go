package manifest

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/discgen/discgen/internal/testing/testcorpus"
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
	"delegations:\n  - {path: /a/}\n  - b: [c]\nx: 1\n",
	"delegations:\n- a\n- b\ny: |\n  delegations:\n  - c\n",
	"delegations: [a, {b: c}, [d]]\n",
}

// hostilePrescan are documents the parser builds many nodes from that an
// earlier prescan counted as a few: a "#" that no blank precedes is part
// of a plain scalar, not a comment; a lone "\r" is a line break.
var hostilePrescan = []string{
	"k: [" + strings.Repeat("a#, ", 1000) + "]\n",
	"x: {" + strings.Repeat("a#: ,", 1000) + "}\n",
	"x:\r" + strings.Repeat("- a\r", 1000),
	"x: |\n" + strings.Repeat(" ", 8) + "\n  a\n" + strings.Repeat("- a\n", 1000),
	"- a#\n" + strings.Repeat("- a#b\n", 1000),
	"a: b\n  c\n" + strings.Repeat("d: [e]\n", 1000),
	"[a\n" + strings.Repeat(", b", 1000) + "]\n",
}

// overPrescan are documents prescan must not count much more of than the
// parser builds: a block scalar whose header ends in a comment with no
// blank before it ("|#") is one scalar, whose lines are not nodes.
var overPrescan = []string{
	"a: |#\n  - b: c\n  - d: e\n",
	"a: >-#c\n  x: [y, z]\n",
}

// TestPrescanIsAnUpperBound: the prescan never counts fewer nodes than
// the parser builds, so no document holding more than MaxNodes reaches
// the parser; and on ordinary manifests it counts at most twice as many,
// so none is refused far from the limit.
func TestPrescanIsAnUpperBound(t *testing.T) {
	corpus := prescanCorpus(t)
	all := append(append([][]byte{}, corpus...), nil)
	for _, s := range slices.Concat(prescanShapes, hostilePrescan, overPrescan) {
		all = append(all, []byte(s))
	}
	for _, data := range all {
		n, ok := nodes(data)
		if !ok {
			continue
		}
		if c, _ := prescan(data, 1<<30); c < n {
			t.Errorf("prescan counts %d nodes, the parser builds %d:\n%.300s", c, n, data)
		}
	}
	for _, data := range append(corpus, []byte(overPrescan[0]), []byte(overPrescan[1])) {
		n, ok := nodes(data)
		if c, _ := prescan(data, 1<<30); ok && c > 2*n+4 {
			t.Errorf("prescan counts %d nodes, the parser builds %d: too loose\n%.300s", c, n, data)
		}
	}
}

// TestPrescanRefusesHostileShapes: at 4 MiB, the shapes that bypassed the
// count are refused before they are parsed.
func TestPrescanRefusesHostileShapes(t *testing.T) {
	for _, unit := range []string{"a#, ", "a#: ,", "- a\r"} {
		src := "x: [" + strings.Repeat(unit, (MaxBytes-10)/len(unit)) + "]\n"
		if unit == "- a\r" {
			src = "x:\r" + strings.Repeat(unit, (MaxBytes-10)/len(unit))
		}
		if _, at := prescan([]byte(src), MaxNodes); at < 0 {
			t.Errorf("%.40q...: not refused", src)
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
	// Under the limit, not refused.
	if _, at := prescan([]byte("a: ["+strings.Repeat("x,", MaxNodes-10)+"]\n"), MaxNodes); at >= 0 {
		t.Errorf("refused under the limit at %d", at)
	}
}

// FuzzPrescan checks the bound both ways on arbitrary documents: never
// fewer nodes than the parser builds (a document past the limit would
// reach the parser), and not many more (a document far under the limit
// would be refused).
func FuzzPrescan(f *testing.F) {
	for _, d := range prescanCorpus(f) {
		f.Add(d)
	}
	for _, s := range slices.Concat(prescanShapes, hostilePrescan, overPrescan) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, ok := nodes(data)
		if !ok {
			return
		}
		c, _ := prescan(data, 1<<30)
		if c < n {
			t.Errorf("prescan counts %d nodes, the parser builds %d", c, n)
		}
		if c > 4*n+8 {
			t.Errorf("prescan counts %d nodes, the parser builds %d: too loose", c, n)
		}
		// The count of delegations may only be loose downwards: over
		// the parser's, a manifest validation accepts would be refused.
		if d, ok := parsedDelegations(data); ok && prescanDelegations(data) > d {
			t.Errorf("prescan counts %d delegations, the parser reads %d", prescanDelegations(data), d)
		}
	})
}

// TestUTF16Refused: the parser reads a UTF-16 manifest (with its byte
// order mark), which prescan, reading bytes, would count as two nodes
// whatever it holds: such a manifest is refused before either reads it.
func TestUTF16Refused(t *testing.T) {
	src := "version: 1\nk: [" + strings.Repeat("a, ", 1000) + "]\n"
	for _, le := range []bool{true, false} {
		b := []byte{0xFE, 0xFF}
		if le {
			b = []byte{0xFF, 0xFE}
		}
		for _, c := range utf16.Encode([]rune(src)) {
			if le {
				b = append(b, byte(c), byte(c>>8))
			} else {
				b = append(b, byte(c>>8), byte(c))
			}
		}
		if n, ok := nodes(b); !ok || n < 1000 {
			t.Fatalf("the parser read %d nodes (%v): the premise does not hold", n, ok)
		}
		doc, errs := LoadTenant("t.yaml", b)
		if doc != nil || len(errs) != 1 || !strings.Contains(errs[0].Message, "UTF-16") || errs[0].Line != 1 {
			t.Errorf("little endian %v: %v", le, errs)
		}
	}
}
