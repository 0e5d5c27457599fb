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

// matcher matches paths against RFC 9309 patterns. It holds no state;
// it stays a type so that callers matching many patterns keep one.
type matcher struct{}

// match reports whether pattern matches a prefix of path: '*' matches any
// run of octets, '$' at the end of the pattern matches the end of the path,
// and every other octet (a '$' elsewhere included) matches itself.
//
// The literal parts between the stars are found in turn, each at its
// first place after the one before: a part found further on only leaves
// less of the path to the parts after it, so where any placing matches,
// the first does. With a final '$' the last part must end the path, which
// the first placing of the parts before it leaves most room for. The cost
// is a search for each part, each from where the last ended: about the
// path's length and the pattern's, however many wildcards the pattern
// holds (a table of every prefix the pattern could match cost their
// product, 256 million steps for 16 kB of each).
func (m *matcher) match(path, pattern string) bool {
	star := strings.IndexByte(pattern, '*')
	anchored := strings.HasSuffix(pattern, "$")
	if star < 0 {
		if anchored {
			return path == pattern[:len(pattern)-1]
		}
		return strings.HasPrefix(path, pattern)
	}
	if !strings.HasPrefix(path, pattern[:star]) {
		return false
	}
	pos := star
	rest := pattern[star+1:]
	if anchored {
		rest = rest[:len(rest)-1]
	}
	for {
		next := strings.IndexByte(rest, '*')
		if next < 0 {
			break
		}
		part := rest[:next]
		rest = rest[next+1:]
		if part == "" {
			continue
		}
		i := strings.Index(path[pos:], part)
		if i < 0 {
			return false
		}
		pos += i + len(part)
	}
	// rest is the last part, after the last star.
	if anchored {
		return len(path)-pos >= len(rest) && strings.HasSuffix(path, rest)
	}
	return rest == "" || strings.Contains(path[pos:], rest)
}
