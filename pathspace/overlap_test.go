package pathspace

import (
	"math/bits"
	"strings"
	"testing"
)

func TestOverlapDesignCases(t *testing.T) {
	tests := []struct {
		a, b   string
		want   bool
		within bool // b within a
	}{
		// design section 4
		{"~*", "/~alice/blog/", true, true},
		{"a*", "b*", false, false},
		{"a*c", "ab*", true, false},
		// this task's brief and seed 000 section 4.2
		{"/projects/", "/projects/x/", true, true},
		{"/a/", "/ab/", false, false},
		{"/a/", "/a/", true, true},
		{"~*", "/~*/", true, true},
		{"~*", "/~alice/", true, true},
		{"~*", "~", true, true},
		{"~*", "/x~/", false, false},
		{"*", "/anything/at/all/", true, true},
		{"*c", "a*", true, false},
		{"*c", "*d", false, false},
		{"a*b*c", "*bbb*", true, false},
		{"a*b", "a*b*b", true, true},
		{"a*b*b", "a*b", true, false},
		{"ab*", "a*", true, false},
		{"a*", "ab*", true, true},
		{"x/a*/y", "x/*b/z", false, false},
		{"x/a*/y", "x/*b", true, false},
		{"x/a*", "x/*b/z", true, false},
		{"%C3%A9", "*A9", false, false},
		{"%C3%A9*", "*A9", true, false},
		{"*%A9", "*A9", false, false},
		{"*%A9", "%C3*", true, false},
		{"*", "a%2A", true, true},
		{"a%2A", "a*", true, false},
		{"a%2A", "ab", false, false},
	}
	for _, tt := range tests {
		a := mustParse(t, Root(), tt.a)
		b := mustParse(t, Root(), tt.b)
		if got := Overlap(a, b); got != tt.want {
			t.Errorf("Overlap(%v, %v) = %v, want %v", a, b, got, tt.want)
		}
		if got := Overlap(b, a); got != tt.want {
			t.Errorf("Overlap(%v, %v) = %v, want %v", b, a, got, tt.want)
		}
		if got := Within(a, b); got != tt.within {
			t.Errorf("Within(%v, %v) = %v, want %v", a, b, got, tt.within)
		}
	}
	alice := mustParse(t, Root(), "/~alice/")
	if !Overlap(Root(), alice) || !Overlap(alice, Root()) || !Within(Root(), alice) || Within(alice, Root()) {
		t.Errorf("the root is wrong against %v", alice)
	}
}

// seqs returns every sequence of units of length 0..max, leaving out
// sequences with two wildcards in a row when noDoubleStar is set.
func seqs(units []string, max int, noDoubleStar bool) [][]string {
	out := [][]string{nil}
	level := [][]string{nil}
	for n := 1; n <= max; n++ {
		var next [][]string
		for _, s := range level {
			for _, u := range units {
				if noDoubleStar && u == "*" && len(s) > 0 && s[len(s)-1] == "*" {
					continue
				}
				next = append(next, append(append([]string(nil), s...), u))
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// bruteMatch is an obviously correct glob matcher over unit sequences.
func bruteMatch(p, s []string) bool {
	if len(p) == 0 {
		return len(s) == 0
	}
	if p[0] == "*" {
		for i := 0; i <= len(s); i++ {
			if bruteMatch(p[1:], s[i:]) {
				return true
			}
		}
		return false
	}
	return len(s) > 0 && p[0] == s[0] && bruteMatch(p[1:], s[1:])
}

type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }
func (b bitset) set(i int)   { b[i/64] |= 1 << (i % 64) }
func (b bitset) meets(c bitset) bool {
	for i := range b {
		if b[i]&c[i] != 0 {
			return true
		}
	}
	return false
}
func (b bitset) subsetOf(c bitset) bool {
	for i := range b {
		if b[i]&^c[i] != 0 {
			return false
		}
	}
	return true
}
func (b bitset) count() (n int) {
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// TestSegmentAlgebraBruteForce checks segmentsOverlap and the inclusion
// test Within relies on against enumeration. Texts run over the patterns'
// units and a unit "z" that no pattern has. The enumeration is complete:
// a common string can be made of the two patterns' literal units (any other
// unit sits under a wildcard of each and can be swapped for "z"), and is no
// longer than their literal units together; a string of p outside q's
// language, if any, is p with each wildcard replaced by "z".
func TestSegmentAlgebraBruteForce(t *testing.T) {
	cases := []struct {
		name       string
		patUnits   []string
		textUnits  []string
		maxPattern int
	}{
		{"ab", []string{"a", "b", "*"}, []string{"a", "b", "z"}, 4},
		{"escapes", []string{"A", "9", "%A9", "*"}, []string{"A", "9", "%A9", "z"}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pats := seqs(c.patUnits, c.maxPattern, true)
			texts := seqs(c.textUnits, 2*c.maxPattern, false)
			sets := make([]bitset, len(pats))
			for i, p := range pats {
				sets[i] = newBitset(len(texts))
				for j, s := range texts {
					if bruteMatch(p, s) {
						sets[i].set(j)
					}
				}
				if got := matchSegment(strings.Join(p, ""), strings.Join(p, "")); got != true {
					t.Fatalf("matchSegment(%q, itself) = false", strings.Join(p, ""))
				}
			}
			var agree, overlaps, subsets int
			for i, p := range pats {
				ps := strings.Join(p, "")
				for j, q := range pats {
					qs := strings.Join(q, "")
					want := sets[i].meets(sets[j])
					if got := segmentsOverlap(ps, qs); got != want {
						t.Fatalf("segmentsOverlap(%q, %q) = %v, enumeration says %v", ps, qs, got, want)
					}
					wantSub := sets[i].subsetOf(sets[j])
					if got := matchSegment(qs, ps); got != wantSub {
						t.Fatalf("inclusion of %q in %q = %v, enumeration says %v", ps, qs, got, wantSub)
					}
					agree++
					if want {
						overlaps++
					}
					if wantSub {
						subsets++
					}
				}
				for j, s := range texts {
					if got, want := matchSegment(ps, strings.Join(s, "")), bruteMatch(p, s); got != want {
						t.Fatalf("matchSegment(%q, %q) = %v, want %v", ps, strings.Join(s, ""), got, want)
					}
					_ = j
				}
			}
			// Guard against an enumeration that decides nothing.
			if overlaps == 0 || overlaps == agree || subsets == 0 || subsets == agree {
				t.Fatalf("degenerate enumeration: %d pairs, %d overlapping, %d included", agree, overlaps, subsets)
			}
			t.Logf("%d patterns, %d texts, %d pairs, %d overlapping, %d included", len(pats), len(texts), agree, overlaps, subsets)
		})
	}
}

// TestSpaceAlgebraBruteForce checks Overlap and Within on whole spaces
// against enumeration of URL paths.
func TestSpaceAlgebraBruteForce(t *testing.T) {
	segPats := []string{"a", "b", "ab", "a*", "*b", "*"}
	// Texts of up to two letters witness every overlap of segPats, and "z"
	// every non-inclusion.
	texts := []string{"", "a", "b", "z", "ab", "ba", "aa", "bb"}
	var spaces []Space
	for _, s := range seqs(segPats, 3, false) {
		if len(s) > 0 {
			spaces = append(spaces, mustParse(t, Root(), strings.Join(s, "/")))
		}
	}
	var paths []string
	for _, s := range seqs(texts, 3, false) {
		if len(s) == 3 {
			paths = append(paths, "/"+strings.Join(s, "/")+"/")
		}
	}
	// A space of depth d < 3 holds a path of depth 3 exactly when it holds
	// its first d segments, so depth-3 paths decide both relations.
	sets := make([]bitset, len(spaces))
	for i, s := range spaces {
		sets[i] = newBitset(len(paths))
		for j, p := range paths {
			if s.Contains(p) {
				sets[i].set(j)
			}
		}
		if sets[i].count() == 0 {
			t.Fatalf("%v holds no enumerated path", s)
		}
	}
	for i, a := range spaces {
		for j, b := range spaces {
			if got, want := Overlap(a, b), sets[i].meets(sets[j]); got != want {
				t.Fatalf("Overlap(%v, %v) = %v, enumeration says %v", a, b, got, want)
			}
			// Inclusion of deeper in shallower spaces is decided by the
			// depth-3 paths; the converse fails on a path of depth 2.
			want := sets[j].subsetOf(sets[i]) && a.Depth() <= b.Depth()
			if got := Within(a, b); got != want {
				t.Fatalf("Within(%v, %v) = %v, enumeration says %v", a, b, got, want)
			}
		}
	}
}

// dpOverlap decides whether two glob patterns over units share a string by
// searching the product of their automata: a state is a position in each
// pattern, a wildcard may be skipped, and a character is taken by a
// literal on each side that agree, or by a literal on one side and a
// wildcard on the other. It is an independent reference for
// segmentsOverlap.
func dpOverlap(p, q []string) bool {
	seen := make([][]bool, len(p)+1)
	for i := range seen {
		seen[i] = make([]bool, len(q)+1)
	}
	var visit func(i, j int) bool
	visit = func(i, j int) bool {
		if seen[i][j] {
			return false
		}
		seen[i][j] = true
		if i == len(p) && j == len(q) {
			return true
		}
		ps := i < len(p) && p[i] == "*"
		qs := j < len(q) && q[j] == "*"
		switch {
		case ps && visit(i+1, j), qs && visit(i, j+1):
			return true
		case i < len(p) && j < len(q) && !ps && !qs && p[i] == q[j]:
			return visit(i+1, j+1)
		case ps && j < len(q) && !qs:
			return visit(i, j+1)
		case qs && i < len(p) && !ps:
			return visit(i+1, j)
		}
		return false
	}
	return visit(0, 0)
}

// fuzzUnits reads a fuzz input as a segment pattern over a small set of
// units, with no two wildcards in a row.
func fuzzUnits(b []byte) []string {
	units := []string{"a", "b", "*", "A", "9", "%A9"}
	var out []string
	for _, c := range b {
		u := units[int(c)%len(units)]
		if u == "*" && len(out) > 0 && out[len(out)-1] == "*" {
			continue
		}
		out = append(out, u)
	}
	return out
}

func FuzzSegmentOverlap(f *testing.F) {
	f.Add([]byte("\x00\x02\x01"), []byte("\x02\x01\x00"))
	f.Add([]byte("\x02\x03\x04"), []byte("\x05\x02"))
	f.Add([]byte("\x00\x02\x00\x01\x02\x01"), []byte("\x02\x01\x01\x01\x02"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		p, q := fuzzUnits(a), fuzzUnits(b)
		ps, qs := strings.Join(p, ""), strings.Join(q, "")
		if got, want := segmentsOverlap(ps, qs), dpOverlap(p, q); got != want {
			t.Fatalf("segmentsOverlap(%q, %q) = %v, product search says %v", ps, qs, got, want)
		}
	})
}

func TestDPOverlapAgreesWithEnumeration(t *testing.T) {
	// The reference must itself be right: check it against enumeration.
	pats := seqs([]string{"a", "b", "*"}, 4, true)
	texts := seqs([]string{"a", "b", "z"}, 8, false)
	sets := make([]bitset, len(pats))
	for i, p := range pats {
		sets[i] = newBitset(len(texts))
		for j, s := range texts {
			if bruteMatch(p, s) {
				sets[i].set(j)
			}
		}
	}
	for i, p := range pats {
		for j, q := range pats {
			if got, want := dpOverlap(p, q), sets[i].meets(sets[j]); got != want {
				t.Fatalf("dpOverlap(%q, %q) = %v, enumeration says %v", p, q, got, want)
			}
		}
	}
}
