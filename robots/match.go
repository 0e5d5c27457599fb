package robots

import "strings"

// Verdict is the answer to "may this agent fetch this URL?".
type Verdict struct {
	Allowed bool `json:"allowed"`
	// Rule is the rule that decided, as written ("Disallow: /org/"), and
	// Line its line number; both are zero when no rule decided (no group
	// applies, no rule matches, or the URL is /robots.txt).
	Rule string `json:"rule,omitempty"`
	Line int    `json:"line,omitempty"`
}

// Match answers under RFC 9309, making Google's choices where the RFC leaves
// room or where google/robotstxt differs from it:
//
//   - The agent is reduced to its product token (the leading [A-Za-z_-]
//     run: "Googlebot/2.1" reads as "Googlebot") and compared, case
//     insensitively, with the product token of each User-agent value
//     ("User-agent: Foo Bar" names Foo). All groups naming it are merged; if
//     none does, the groups for "*" are; if there are none, all is allowed.
//   - The longest matching pattern decides, counted in octets as written
//     after normalisation; Allow wins a tie; empty patterns never decide.
//     '*' matches any run of octets and a final '$' anchors the end.
//   - Normalisation is Google's: rule patterns get non-ASCII octets
//     percent-encoded and escape digits upper-cased, nothing is decoded, and
//     the URL is taken as the caller gives it (it must already be
//     percent-encoded). RFC 9309 section 2.2.2 would decode %62%61%7A to
//     "baz"; Google does not, and robots_test.cc (ID_Encoding) asserts it,
//     so Match does not either.
//   - /robots.txt is always allowed (RFC 9309 section 2.2.2).
//
// Google's rule that "Allow: /d/index.html" also allows "/d/" is not
// followed: it is not in RFC 9309.
func (f *File) Match(agent, url string) Verdict {
	path := PathOf(url)
	if isRobotsTxt(path) {
		return Verdict{Allowed: true}
	}
	return f.matchGroups(f.groupsFor(ProductToken(agent)), path)
}

// matchGroups is Match over the given groups, for a path as PathOf gives
// it (not /robots.txt).
func (f *File) matchGroups(groups []int, path string) Verdict {
	var m matcher
	best := [2]*Rule{} // [0] best Disallow, [1] best Allow
	for _, gi := range groups {
		g := &f.Groups[gi]
		for ri := range g.Rules {
			r := &g.Rules[ri]
			if r.Pattern == "" || !m.match(path, r.Pattern) {
				continue
			}
			k := 0
			if r.Allow {
				k = 1
			}
			if best[k] == nil || len(r.Pattern) > len(best[k].Pattern) {
				best[k] = r
			}
		}
	}
	d, a := best[0], best[1]
	switch {
	case d != nil && (a == nil || len(d.Pattern) > len(a.Pattern)):
		return Verdict{Allowed: false, Rule: d.String(), Line: d.Num}
	case a != nil:
		return Verdict{Allowed: true, Rule: a.String(), Line: a.Num}
	}
	return Verdict{Allowed: true}
}

// groupsFor returns the indexes of the groups RFC 9309 applies to a product
// token: those naming it, else those for "*".
func (f *File) groupsFor(token string) []int {
	var specific, global []int
	for i, g := range f.Groups {
		for _, a := range g.Agents {
			if a.Global {
				if global == nil || global[len(global)-1] != i {
					global = append(global, i)
				}
				continue
			}
			if token != "" && strings.EqualFold(a.Token, token) {
				specific = append(specific, i)
				break
			}
		}
	}
	if specific != nil {
		return specific
	}
	return global
}

// matcher matches paths against RFC 9309 patterns; it keeps a scratch
// buffer so that matching many patterns allocates once.
type matcher struct {
	pos []int
}

// match reports whether pattern matches a prefix of path: '*' matches any
// run of octets, '$' at the end of the pattern matches the end of the path,
// and every other octet (a '$' elsewhere included) matches itself. The cost
// is at most len(pattern)*len(path) steps, whatever the pattern.
func (m *matcher) match(path, pattern string) bool {
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		if p, ok := strings.CutSuffix(pattern, "$"); ok {
			return path == p
		}
		return strings.HasPrefix(path, pattern)
	}
	// The literal part before the first '*' must be a prefix; checking it
	// first spares most patterns the general loop.
	if !strings.HasPrefix(path, pattern[:star]) {
		return false
	}
	// pos holds, in increasing order, the lengths of the prefixes of path
	// that the pattern read so far can match.
	pos := append(m.pos[:0], 0)
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '$' && i == len(pattern)-1:
			m.pos = pos
			return pos[len(pos)-1] == len(path)
		case c == '*':
			lo := pos[0]
			pos = pos[:0]
			for p := lo; p <= len(path); p++ {
				pos = append(pos, p)
			}
		default:
			n := 0
			for _, p := range pos {
				if p < len(path) && path[p] == c {
					pos[n] = p + 1
					n++
				}
			}
			pos = pos[:n]
			if n == 0 {
				m.pos = pos
				return false
			}
		}
	}
	m.pos = pos
	return true
}
