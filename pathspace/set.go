package pathspace

import (
	"cmp"
	"slices"
	"strings"
)

// Relation says how the two spaces of a [Conflict] intersect.
type Relation int

const (
	Same      Relation = iota + 1 // the spaces are equal
	Inside                        // the first space lies within the second
	Encloses                      // the second space lies within the first
	Intersect                     // the spaces share paths, neither holds the other
)

func (r Relation) String() string {
	switch r {
	case Same:
		return "same"
	case Inside:
		return "inside"
	case Encloses:
		return "encloses"
	case Intersect:
		return "intersect"
	}
	return "Relation(?)"
}

// Conflict is a pair of delegations whose spaces intersect, which seed 000
// section 4.2 makes an error whatever their order. I < J index the slice
// given to [CheckSet].
type Conflict struct {
	I, J     int
	Relation Relation
}

// relate returns the relation of two overlapping spaces.
func relate(a, b Space) Relation {
	switch {
	case a == b:
		return Same
	case Within(b, a):
		return Inside
	case Within(a, b):
		return Encloses
	}
	return Intersect
}

// CheckSet returns every pair of intersecting spaces in spaces, ordered by
// I and then J.
//
// Each space has a key: its canonical form, cut before the first wildcard
// when it has one ("/~u1*/x/" has the key "/~u1"). Every path in a space
// begins with the space's key, so two spaces that share a path have keys of
// which one is a prefix of the other. CheckSet sorts the keys and sweeps them
// with a stack holding the chain of keys that are prefixes of the current
// one; each space is compared only with the spaces on the stack. Two literal
// spaces whose keys are prefixes are nested, so they conflict without
// further test; a pair with a wildcard is decided by [Overlap].
//
// The cost is O(n log n) key comparisons for the sort plus one step per
// candidate pair. A set of literal spaces costs O(n log n + c) for c
// conflicts; a wildcard space whose key is short, such as "/*x/" with the key
// "/", is a candidate against every space, so each such space adds O(n).
func CheckSet(spaces []Space) []Conflict {
	type entry struct {
		key     string
		i       int
		literal bool
	}
	entries := make([]entry, len(spaces))
	for i, s := range spaces {
		c := s.String()
		e := entry{key: c, i: i, literal: true}
		if w := strings.IndexByte(c, '*'); w >= 0 {
			e.key, e.literal = c[:w], false
		}
		entries[i] = e
	}
	slices.SortFunc(entries, func(a, b entry) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})

	var out []Conflict
	var stack []entry
	for _, e := range entries {
		for len(stack) > 0 && !strings.HasPrefix(e.key, stack[len(stack)-1].key) {
			stack = stack[:len(stack)-1]
		}
		for _, t := range stack {
			if !(t.literal && e.literal) && !Overlap(spaces[t.i], spaces[e.i]) {
				continue
			}
			i, j := t.i, e.i
			if i > j {
				i, j = j, i
			}
			out = append(out, Conflict{I: i, J: j, Relation: relate(spaces[i], spaces[j])})
		}
		stack = append(stack, e)
	}
	slices.SortFunc(out, func(a, b Conflict) int {
		if c := cmp.Compare(a.I, b.I); c != 0 {
			return c
		}
		return cmp.Compare(a.J, b.J)
	})
	return out
}
