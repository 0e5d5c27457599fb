package pathspace

import "strings"

// Overlap reports whether some URL path lies in both a and b.
//
// A space is a prefix set: the paths that begin with its segments. So two
// spaces of k and k' segments intersect exactly when, for each of the first
// min(k, k') segment positions, the two segment patterns match a common
// string; the deeper space's remaining segments are then free. The root
// overlaps every space. The cost is linear in the length of the two forms.
func Overlap(a, b Space) bool {
	ai, bi := 1, 1
	for ai < len(a.s) && bi < len(b.s) {
		var p, q string
		p, ai = nextSegment(a.s, ai)
		q, bi = nextSegment(b.s, bi)
		if !segmentsOverlap(p, q) {
			return false
		}
	}
	return true
}

// Within reports whether every URL path in inner also lies in outer: outer
// has no more segments than inner, and each of outer's segment patterns
// matches everything inner's pattern at the same position matches. A tenant
// manifest's "/~alice/" is within the root's delegation "/~*/", and so is
// "/~alice/blog/"; compare [Space.Depth] as well to ask for a tenant of
// exactly the delegation's depth.
func Within(outer, inner Space) bool {
	oi, ii := 1, 1
	for oi < len(outer.s) {
		if ii >= len(inner.s) {
			return false
		}
		var p, q string
		p, oi = nextSegment(outer.s, oi)
		q, ii = nextSegment(inner.s, ii)
		// Inner's wildcards are matched as text: a raw "*" never equals a
		// literal character of p, so only p's wildcards can take it, and a
		// wildcard that takes "*" takes whatever "*" stands for.
		if !matchSegment(p, q) {
			return false
		}
	}
	return true
}

// segmentsOverlap reports whether two canonical segment patterns match a
// common string.
//
// With a wildcard on one side only, that string can only be the literal
// side. With wildcards on both sides, p = P0*...*Pm and q = Q0*...*Qn, they
// intersect exactly when one of P0, Q0 is a prefix of the other and one of
// Pm, Qn is a suffix of the other. Any common string begins with both P0 and
// Q0 and ends with both Pm and Qn, so the condition is necessary. It is
// sufficient: with A the longer of P0, Q0 and Z the longer of Pm, Qn, the
// string A P1...P(m-1) Q1...Q(n-1) Z is matched by p (P0 starts A, the
// middles of p follow, its last wildcard takes the rest up to Pm, which ends
// Z) and likewise by q, whose first wildcard also takes p's middles.
func segmentsOverlap(p, q string) bool {
	ps := strings.IndexByte(p, '*')
	qs := strings.IndexByte(q, '*')
	switch {
	case ps < 0 && qs < 0:
		return p == q
	case ps < 0:
		return matchSegment(q, p)
	case qs < 0:
		return matchSegment(p, q)
	}
	// Prefixes before the first wildcard: a byte prefix of a canonical
	// segment ends on a character boundary, so byte comparison is exact.
	if !strings.HasPrefix(p[:ps], q[:qs]) && !strings.HasPrefix(q[:qs], p[:ps]) {
		return false
	}
	pz := p[strings.LastIndexByte(p, '*')+1:]
	qz := q[strings.LastIndexByte(q, '*')+1:]
	if len(pz) > len(qz) {
		pz, qz = qz, pz
	}
	// The shorter suffix must end the longer one on a character boundary:
	// "A9" ends "%C3%A9" as bytes, but not as characters.
	return strings.HasSuffix(qz, pz) && boundary(qz, len(qz)-len(pz))
}

// boundary reports whether index i of a canonical segment falls between two
// characters rather than inside an escape. In canonical form "%" only ever
// starts an escape of exactly three bytes.
func boundary(s string, i int) bool {
	return !(i >= 1 && s[i-1] == '%' || i >= 2 && s[i-2] == '%')
}

// charLen returns the length of the character at index i of a canonical
// segment: 3 for an escape, 1 otherwise.
func charLen(s string, i int) int {
	if s[i] == '%' {
		return 3
	}
	return 1
}

// matchSegment reports whether the canonical segment pattern p matches the
// canonical segment text s, character by character. It is the usual
// wildcard scan that backtracks to the last wildcard seen, which is exact
// when "*" is the only operator; its cost is at most len(p)*len(s).
func matchSegment(p, s string) bool {
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		if pi < len(p) && p[pi] == '*' {
			star, mark = pi, si
			pi++
			continue
		}
		if pi < len(p) {
			n := charLen(p, pi)
			if n == charLen(s, si) && si+n <= len(s) && p[pi:pi+n] == s[si:si+n] {
				pi, si = pi+n, si+n
				continue
			}
		}
		if star < 0 {
			return false
		}
		mark += charLen(s, mark)
		pi, si = star+1, mark
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
