package robots

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// randomNames returns n distinct names over a small alphabet, so that
// many are part of others.
func randomNames(r *rand.Rand, n int, alphabet string) []string {
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		b := make([]byte, 1+r.IntN(6))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if s := string(b); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// checkIndex compares the index's answers with every pair compared.
func checkIndex(t *testing.T, names []string) {
	t.Helper()
	x := newNameIndex(names)
	for j, b := range names {
		var want []int
		for i, a := range names {
			if i != j && strings.Contains(b, a) {
				want = append(want, i)
			}
		}
		var got []int
		x.inside(b, j, func(i int) { got = append(got, i) })
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("names inside %q: got %v, want %v (names %q)", b, got, want, names)
		}
		// covers gives names inside b whose closure is every name inside b.
		closure := map[int]bool{}
		var walk func(s string, self int)
		walk = func(s string, self int) {
			x2 := newNameIndex(names)
			x2.covers(s, self, func(i int) {
				if !strings.Contains(s, names[i]) || i == self {
					t.Fatalf("covers(%q) gave %q", s, names[i])
				}
				if !closure[i] {
					closure[i] = true
					walk(names[i], i)
				}
			})
		}
		walk(b, j)
		if len(closure) != len(want) {
			t.Fatalf("the closure of covers(%q) has %d names, want %d", b, len(closure), len(want))
		}
	}
}

func TestNameIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		checkIndex(t, randomNames(r, 1+r.IntN(40), "ab"))
		checkIndex(t, randomNames(r, 1+r.IntN(40), "abc"))
	}
	checkIndex(t, []string{"a", "aa", "aaa", "aaaa", "ba", "bab", "googlebot", "bot", "go", "ogle"})
}

// orderQuadratic is the order orderRecords gives, found by comparing every
// pair of records and picking the lowest rank free to go each time.
func orderQuadratic(recs []record) []record {
	n := len(recs)
	done := make([]bool, n)
	var out []record
	for len(out) < n {
		next := -1
		for i := range recs {
			if done[i] {
				continue
			}
			free := true
			for j := range recs {
				a, b := recs[j].lower[0], recs[i].lower[0]
				if !done[j] && j != i && len(a) < len(b) && strings.Contains(b, a) {
					free = false
					break
				}
			}
			if free && (next < 0 || less(recs[i].rank, recs[next].rank)) {
				next = i
			}
		}
		done[next] = true
		out = append(out, recs[next])
	}
	return out
}

func TestOrderRecordsMatchesPairwise(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		names := randomNames(r, 1+r.IntN(30), "abc")
		recs := make([]record, len(names))
		perm := r.Perm(len(names))
		for i, s := range names {
			recs[i] = record{agents: []string{s}, lower: []string{s}, rank: [2]int{perm[i], 0}}
		}
		got, want := orderRecords(slices.Clone(recs), nil), orderQuadratic(recs)
		var g, w []string
		for i := range got {
			g, w = append(g, got[i].agents[0]), append(w, want[i].agents[0])
		}
		if !slices.Equal(g, w) {
			t.Fatalf("order %q, want %q", g, w)
		}
	}
}

// TestSubstringNamesBounded: a chain of names each part of the next
// ("a", "aa", ...) holds n*(n-1)/2 pairs; R026 names the first
// maxSubstringFindings and says there are more.
func TestSubstringNamesBounded(t *testing.T) {
	var p Policy
	for i := range 300 {
		p.Groups = append(p.Groups, PolicyGroup{Agents: []string{strings.Repeat("a", i+1)},
			Rules: []PathRule{{Path: fmt.Sprintf("/p%d", i)}}})
	}
	fs := substringNames(p)
	if len(fs) != maxSubstringFindings+1 {
		t.Fatalf("%d findings, want %d", len(fs), maxSubstringFindings+1)
	}
	if !strings.Contains(fs[0].Message, "agents a and aa have different rules") {
		t.Errorf("first finding: %s", fs[0].Message)
	}
	if last := fs[len(fs)-1]; !strings.Contains(last.Message, "more listed agents") {
		t.Errorf("last finding: %s", last.Message)
	}
}

// nameWork times NameFindings and the emission of a policy, the best of
// three runs.
func nameWork(p Policy) time.Duration {
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		NameFindings(p)
		Emit(p)
		best = min(best, time.Since(start))
	}
	return best
}

// letters writes i in base 26, in letters.
func letters(i int) string {
	s := ""
	for i++; i > 0; i /= 26 {
		i--
		s = string(rune('a'+i%26)) + s
	}
	return s
}

// nameShapes are the policies of n agents that took minutes when every
// pair of names was compared: 40,000 names in one group took 97 s,
// 20,000 groups named bot{i} 40.8 s.
var nameShapes = map[string]func(n int) Policy{
	"one group": func(n int) Policy {
		g := PolicyGroup{Rules: []PathRule{{Path: "/"}}}
		for i := range n {
			g.Agents = append(g.Agents, "b"+letters(i))
		}
		return Policy{Groups: []PolicyGroup{g}}
	},
	"groups named bot{i}": func(n int) Policy {
		var p Policy
		for i := range n {
			p.Groups = append(p.Groups, PolicyGroup{Agents: []string{"bot" + letters(i)}, Rules: []PathRule{{Path: "/" + letters(i)}}})
		}
		return p
	},
}

// TestNameWorkLinear: eight times the agents cost about eight times the
// work, not sixty-four.
func TestNameWorkLinear(t *testing.T) {
	testenv.NeedsLong(t) // times policies of thousands of agents: a loaded machine upsets it
	for name, mk := range nameShapes {
		t.Run(name, func(t *testing.T) {
			small, large := nameWork(mk(1000)), nameWork(mk(8000))
			t.Logf("1,000 agents: %v; 8,000: %v (x%.1f)", small, large, float64(large)/float64(small))
			if large > 24*small+50*time.Millisecond {
				t.Errorf("8 times the agents took %v against %v: not linear", large, small)
			}
		})
	}
}

// randomSet returns a NameSet of some of names and of other names over the
// same alphabet, so that a policy's names are some in the set, some not.
func randomSet(r *rand.Rand, names []string, alphabet string) *NameSet {
	var in []string
	for _, n := range names {
		if r.IntN(2) == 0 {
			in = append(in, strings.ToUpper(n))
		}
	}
	return NewNameSet(append(in, randomNames(r, r.IntN(30), alphabet)...))
}

// TestOrderRecordsWithNameSet: with a NameSet holding some of the names,
// and others not in the policy, the order is the one without.
func TestOrderRecordsWithNameSet(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		names := randomNames(r, 1+r.IntN(30), "abc")
		recs := make([]record, len(names))
		perm := r.Perm(len(names))
		for i, s := range names {
			recs[i] = record{agents: []string{s}, lower: []string{s}, rank: [2]int{perm[i], 0}}
		}
		set := randomSet(r, names, "abc")
		got, want := orderRecords(slices.Clone(recs), set), orderRecords(slices.Clone(recs), nil)
		var g, w []string
		for i := range got {
			g, w = append(g, got[i].agents[0]), append(w, want[i].agents[0])
		}
		if !slices.Equal(g, w) {
			t.Fatalf("names %q, set %q: order %q, want %q", names, set.names, g, w)
		}
	}
}

// TestNameFindingsWithNameSet: with a NameSet, NameFindings and Emit give
// what they give without, for policies of names part of one another with
// rules shared or not.
func TestNameFindingsWithNameSet(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 500 {
		names := randomNames(r, 1+r.IntN(30), "ab")
		var p Policy
		for len(names) > 0 {
			k := 1 + r.IntN(min(len(names), 4))
			g := PolicyGroup{Agents: names[:k], Rules: []PathRule{{Path: fmt.Sprintf("/%d", r.IntN(3))}}}
			if r.IntN(4) == 0 {
				g.Agents = append(g.Agents, "*")
			}
			p.Groups = append(p.Groups, g)
			names = names[k:]
		}
		var all []string
		for _, g := range p.Groups {
			all = append(all, g.Agents...)
		}
		q := p
		q.Names = randomSet(r, all, "ab")
		if got, want := fmt.Sprint(NameFindings(q)), fmt.Sprint(NameFindings(p)); got != want {
			t.Fatalf("policy %v, set %q:\nfindings %s\nwant %s", p.Groups, q.Names.names, got, want)
		}
		got, err1 := Emit(q)
		want, err2 := Emit(p)
		if string(got) != string(want) || fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("policy %v, set %q:\n%s\nwant\n%s", p.Groups, q.Names.names, got, want)
		}
	}
}

// TestOrderMemo: plan's remembered orders are the orders it computes, a
// list of names met again is not ordered again, and lists that differ
// (in a name, or in where one name ends and the next begins) get their
// own.
func TestOrderMemo(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	m := &orderMemo{byKey: map[string][]int32{}}
	records := func(names []string) []record {
		recs := make([]record, len(names))
		for i, s := range names {
			recs[i] = record{agents: []string{s}, lower: []string{s}, rank: [2]int{i, 0}}
		}
		return recs
	}
	var lists [][]string
	for range 100 {
		lists = append(lists, randomNames(r, orderMemoMin+r.IntN(40), "abc"))
	}
	// "abc","b" and "ab","cb" are the same bytes end to end, and are
	// ordered differently ("b" is part of "abc"): they must not share an
	// entry.
	rest := randomNames(r, orderMemoMin, "xyz")
	lists = append(lists, append([]string{"abc", "b"}, rest...), append([]string{"ab", "cb"}, rest...))
	for round := range 2 {
		for _, names := range lists[len(lists)-orderMemoSize/2:] {
			recs := records(names)
			before := m.missed
			got := m.order(recs, nil)
			if want := recordOrder(recs, nil); !slices.Equal(got, want) {
				t.Fatalf("round %d, names %q: order %v, want %v", round, names, got, want)
			}
			if missed := m.missed - before; missed != 1-round {
				t.Errorf("round %d: %d orders computed for one list, want %d", round, missed, 1-round)
			}
		}
	}
	// The oldest entries go first, and no more than orderMemoSize stay.
	for _, names := range lists {
		m.order(records(names), nil)
	}
	if len(m.byKey) != orderMemoSize {
		t.Errorf("%d orders kept, want %d", len(m.byKey), orderMemoSize)
	}
	// Short lists, and records not ranked by position, are not kept.
	before := m.missed
	m.order(records(lists[0][:orderMemoMin-1]), nil)
	recs := records(lists[1])
	recs[0].rank, recs[1].rank = recs[1].rank, recs[0].rank
	m.order(recs, nil)
	if m.missed != before {
		t.Errorf("kept a short list or one not ranked by position")
	}
}

// TestNameSetFromTables: a set made from its tables is the set NewNameSet
// makes of the same names, with names given in mixed case, repeated and
// empty among them.
func TestNameSetFromTables(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		names := randomNames(r, 1+r.IntN(40), "abC")
		names = append(names, "", strings.ToUpper(names[0]))
		tables := NewNameSetTables(names)
		got, want := NameSetFromTables(&tables), NewNameSet(names)
		got.x.stamp = want.x.stamp // a count kept while the automaton is built
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("NameSetFromTables(%q) differs from NewNameSet", names)
		}
	}
}
