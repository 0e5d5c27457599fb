package pathspace

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// naiveCheckSet is the O(n²) definition of CheckSet.
func naiveCheckSet(spaces []Space) []Conflict {
	var out []Conflict
	for i := range spaces {
		for j := i + 1; j < len(spaces); j++ {
			if Overlap(spaces[i], spaces[j]) {
				out = append(out, Conflict{I: i, J: j, Relation: relate(spaces[i], spaces[j])})
			}
		}
	}
	return out
}

func parseAll(t testing.TB, base Space, raws ...string) []Space {
	t.Helper()
	out := make([]Space, len(raws))
	for i, r := range raws {
		out[i] = mustParse(t, base, r)
	}
	return out
}

func TestCheckSetMix(t *testing.T) {
	spaces := parseAll(t, Root(),
		"~*",            // 0
		"/~alice/blog/", // 1: inside 0
		"/projects/",    // 2
		"projects/x",    // 3: inside 2
		"a*",            // 4
		"b*",            // 5
		"a*c",           // 6: meets 4 (inside), and 7
		"ab*",           // 7: inside 4
		"/a/",           // 8: inside 4
		"/ab/",          // 9: inside 4 and 7
		"/%7Ealice/",    // 10: inside 0, encloses 1
		"docs/api",      // 11
		"docs/apis",     // 12
		"/projects/",    // 13: same as 2, encloses 3
		"*.git",         // 14: meets 0, 4, 5 and 7 ("~.git", "a.git", "b.git", "ab.git")
		"x/*/y",         // 15
		"x/a*/z",        // 16
		"x/*b/y/w",      // 17: inside 15
	)
	want := []Conflict{
		{0, 1, Encloses},
		{0, 10, Encloses},
		{0, 14, Intersect},
		{1, 10, Inside},
		{2, 3, Encloses},
		{2, 13, Same},
		{3, 13, Inside},
		{4, 6, Encloses},
		{4, 7, Encloses},
		{4, 8, Encloses},
		{4, 9, Encloses},
		{4, 14, Intersect},
		{5, 14, Intersect},
		{6, 7, Intersect},
		{7, 9, Encloses},
		{7, 14, Intersect},
		{15, 17, Encloses},
	}
	got := CheckSet(spaces)
	if !slices.Equal(got, want) {
		t.Errorf("CheckSet:\n got %v\nwant %v", got, want)
	}
	if naive := naiveCheckSet(spaces); !slices.Equal(naive, want) {
		t.Errorf("naive CheckSet disagrees with the expected list:\n got %v", naive)
	}
	if got := CheckSet(nil); len(got) != 0 {
		t.Errorf("CheckSet(nil) = %v", got)
	}
	if got := CheckSet(parseAll(t, Root(), "a", "b", "c/d", "c/e")); len(got) != 0 {
		t.Errorf("disjoint set: %v", got)
	}
	if got := CheckSet([]Space{Root(), spaces[2]}); !slices.Equal(got, []Conflict{{0, 1, Encloses}}) {
		t.Errorf("root in a set: %v", got)
	}
}

func TestRelationString(t *testing.T) {
	for _, r := range []Relation{Same, Inside, Encloses, Intersect} {
		if s := r.String(); s == "" || strings.Contains(s, "?") {
			t.Errorf("Relation %d has no name", int(r))
		}
	}
}

// randomSpaces draws n spaces from a small vocabulary, so that conflicts
// of every kind are common.
func randomSpaces(t testing.TB, r *rand.Rand, n int) []Space {
	segs := []string{"a", "b", "ab", "a*", "*b", "*", "a*b", "~u1", "~u*", "%C3%A9", "*%A9", "*A9"}
	out := make([]Space, n)
	for i := range out {
		depth := 1 + r.IntN(3)
		parts := make([]string, depth)
		for k := range parts {
			parts[k] = segs[r.IntN(len(segs))]
		}
		out[i] = mustParse(t, Root(), strings.Join(parts, "/"))
	}
	return out
}

func TestCheckSetMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	total := 0
	for round := range 300 {
		spaces := randomSpaces(t, r, 1+round%40)
		got, want := CheckSet(spaces), naiveCheckSet(spaces)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d, spaces %v:\n got %v\nwant %v", round, spaces, got, want)
		}
		total += len(want)
	}
	if total == 0 {
		t.Fatal("no conflicts were drawn")
	}
}

// scaleSet is n literal spaces in the shape of a large host's delegations,
// none conflicting, plus a handful of wildcard ones: "/~u000001*7/" meets
// one user and "/*.git/", whose key is "/", is a candidate against every
// space.
func scaleSet(b testing.TB, n int) []Space {
	spaces := make([]Space, 0, n+5)
	for i := range n {
		var raw string
		switch i % 4 {
		case 0, 1:
			raw = fmt.Sprintf("/~u%07d/", i)
		case 2:
			raw = fmt.Sprintf("/groups/g%03d/u%07d/", i%1000, i)
		default:
			raw = fmt.Sprintf("/sites/%c/%c/s%07d/www/", 'a'+i%26, 'a'+i/26%26, i)
		}
		spaces = append(spaces, mustParse(b, Root(), raw))
	}
	for _, raw := range []string{"/projects/*/", "/docs/v*/api/", "/~u000001*7/", "/static/*/", "/*.git/"} {
		spaces = append(spaces, mustParse(b, Root(), raw))
	}
	return spaces
}

func TestScaleSet(t *testing.T) {
	spaces := scaleSet(t, 1000)
	got := CheckSet(spaces)
	want := []Conflict{{17, 1002, Inside}}
	if !slices.Equal(got, want) || spaces[17].String() != "/~u0000017/" {
		t.Errorf("CheckSet = %v, want %v", got, want)
	}
	if naive := naiveCheckSet(spaces); !slices.Equal(naive, want) {
		t.Errorf("naive CheckSet = %v, want %v", naive, want)
	}
}

func BenchmarkCheckSet(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			spaces := scaleSet(b, n)
			b.ReportAllocs()
			cpu, iters := processCPU(), 0
			for b.Loop() {
				if c := CheckSet(spaces); len(c) != 1 {
					b.Fatalf("%d conflicts, want 1", len(c))
				}
				iters++
			}
			reportCPU(b, cpu, iters)
		})
	}
	// The same million without the wildcard spaces: the cost of the sort
	// and sweep alone.
	b.Run("n=1000000/literal-only", func(b *testing.B) {
		spaces := scaleSet(b, 1_000_000)
		spaces = slices.DeleteFunc(spaces, func(s Space) bool { return !s.Literal() })
		b.ReportAllocs()
		cpu, iters := processCPU(), 0
		for b.Loop() {
			if c := CheckSet(spaces); len(c) != 0 {
				b.Fatalf("%d conflicts, want 0", len(c))
			}
			iters++
		}
		reportCPU(b, cpu, iters)
	})
}

// reportCPU reports the process CPU time per iteration since start, which a
// busy shared machine disturbs less than wall time. It includes the
// garbage collector's work.
func reportCPU(b *testing.B, start time.Duration, iters int) {
	if used := processCPU() - start; used > 0 && iters > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(iters), "cpu-ns/op")
	}
}
