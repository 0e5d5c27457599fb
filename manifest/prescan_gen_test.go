package manifest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// genNode writes a random YAML node at indent: scalars of the kinds the
// scanner reads differently ("a#b", "a:b", anchors, tags, a plain scalar
// going on over the next line), flow and block collections, and block
// scalars whose lines look like nodes.
func genNode(r *rand.Rand, b *strings.Builder, indent int, depth int, inFlow bool) {
	scal := []string{"a", "0", "'q, x'", "\"d: e\"", "a#b", "x y", "*a", "&a v", "!t v", "a:b", "-x", "?y", ":z", "''", "\"\"", "a # c", "a\n" + strings.Repeat(" ", indent+2) + "b"}
	if depth > 3 || r.IntN(3) == 0 {
		s := scal[r.IntN(len(scal))]
		if inFlow && strings.Contains(s, "\n") {
			s = "a"
		}
		b.WriteString(s)
		return
	}
	pad := strings.Repeat(" ", indent)
	switch k := r.IntN(5); {
	case inFlow || k == 0:
		b.WriteString("[")
		for i := range 1 + r.IntN(3) {
			if i > 0 {
				b.WriteString([]string{", ", ",", " , ", ",\n" + pad + "  "}[r.IntN(4)])
			}
			genNode(r, b, indent, depth+1, true)
		}
		b.WriteString([]string{"]", ",]", " ]"}[r.IntN(3)])
	case k == 1:
		b.WriteString("{")
		for i := range 1 + r.IntN(3) {
			if i > 0 {
				b.WriteString([]string{", ", ","}[r.IntN(2)])
			}
			genNode(r, b, indent, depth+3, true)
			b.WriteString([]string{": ", ":", ""}[r.IntN(3)])
			if r.IntN(2) == 0 {
				genNode(r, b, indent, depth+1, true)
			}
		}
		b.WriteString("}")
	case k == 2:
		b.WriteString([]string{"|", ">", "|-", "|2", ">+ # c", "|#"}[r.IntN(6)] + "\n")
		for range 1 + r.IntN(3) {
			b.WriteString(pad + "  " + []string{"- a", "b: c", "[x, y]", "# z", ""}[r.IntN(5)] + "\n")
		}
		b.WriteString(pad)
	case k == 3:
		b.WriteString("\n")
		for range 1 + r.IntN(3) {
			b.WriteString(pad + "  - ")
			genNode(r, b, indent+4, depth+1, false)
			b.WriteString("\n")
		}
		b.WriteString(pad)
	default:
		b.WriteString("\n")
		for i := range 1 + r.IntN(3) {
			b.WriteString(pad + fmt.Sprintf("  k%d: ", i))
			genNode(r, b, indent+2, depth+1, false)
			b.WriteString("\n")
		}
		b.WriteString(pad)
	}
}

// TestPrescanGeneratedDocuments: on documents built to mix what the
// scanner reads in context, the count is never under the nodes the
// parser builds.
func TestPrescanGeneratedDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	valid := 0
	for range 20_000 {
		var b strings.Builder
		for i := range 1 + r.IntN(4) {
			fmt.Fprintf(&b, "k%d: ", i)
			genNode(r, &b, 0, 0, false)
			b.WriteString("\n")
		}
		s := b.String()
		n, ok := nodes([]byte(s))
		if !ok {
			continue
		}
		valid++
		if c, _ := prescan([]byte(s), 1<<30); c < n {
			t.Fatalf("prescan counts %d nodes, the parser builds %d:\n%s", c, n, s)
		}
	}
	if valid < 1000 {
		t.Errorf("only %d of the documents parse: the test tests little", valid)
	}
}
