package robots

import (
	"fmt"
	"slices"
	"strings"
)

// Readings is one question answered under both readings.
type Readings struct {
	RFC9309   Verdict
	Draft1996 Verdict
}

// Agree reports whether both readings allow, or both disallow.
func (r Readings) Agree() bool { return r.RFC9309.Allowed == r.Draft1996.Allowed }

// Check answers whether agent may fetch url under RFC 9309 (Match) and under
// the 1996 draft (Match1996).
func (f *File) Check(agent, url string) Readings {
	return Readings{RFC9309: f.Match(agent, url), Draft1996: f.Match1996(agent, url)}
}

// maxProbes bounds the questions lintReadings asks, maxReadingWork the
// rules those questions may match in all, and maxReadingOctets the octets
// of paths and patterns those matches read, so that linting stays fast on
// large files (groups merged under one token make each question as costly
// as the merged rules, and patterns of 16 kB as costly as their length).
const (
	maxProbes        = 4000
	maxReadingWork   = 4 << 20
	maxReadingOctets = 512 << 20
)

// lintReadings looks for agents and URLs the readings answer differently
// (R009): Google's parser (RFC 9309 with escapes compared as written, Match),
// RFC 9309 with escapes normalised as its section 2.2.2 asks (%7E is ~), and
// the 1996 draft (Match1996). It asks, for each agent a group names (and
// for an agent no group names, when there is a "*" group), about URLs built
// from the group's rule paths: the path itself, the path extended, and the
// path with '~' written %7E. A disagreement is reported once per rule, on
// the line of the rule the URL was built from. Agents that a 1996 robot
// would look up in another group are reported once, on their User-agent
// line. Lookups go through x, so the work is linear in the file's size.
func lintReadings(f *File, x *lintIndex, unlisted string, add func(string, int, string, ...any)) {
	reported := map[int]bool{}
	captured := map[string]bool{}
	for gi := range f.Groups {
		for _, a := range f.Groups[gi].Agents {
			if a.Global || a.Token == "" {
				continue
			}
			if g := x.group1996(a.Token); g != nil && g != &f.Groups[gi] && !names(g, a.Token) {
				captured[strings.ToLower(a.Token)] = true
				add(CodeReadingsDiffer, a.Num, "a 1996 robot named %s obeys the group of line %d (User-agent: %s), whose value contains its name; RFC 9309 readers (Google's parser included) obey this one",
					a.Token, g.Agents[0].Num, g.Agents[0].Value)
			}
		}
	}
	probes, work, octets := 0, 0, 0
	type size struct{ rules, octets int }
	cost := map[string]size{}
	sizeOf := func(token string) size {
		if n, ok := cost[token]; ok {
			return n
		}
		var n size
		for _, gi := range x.groups(token) {
			n.rules += len(f.Groups[gi].Rules)
			for _, r := range f.Groups[gi].Rules {
				n.octets += len(r.Pattern)
			}
		}
		cost[token] = n
		return n
	}
	canon := &canonical{}
	for _, g := range f.Groups {
		var agents []string
		for _, a := range g.Agents {
			switch {
			case a.Global:
				if unlisted != "" {
					agents = append(agents, unlisted)
				}
			case a.Token != "" && !captured[strings.ToLower(a.Token)]:
				agents = append(agents, a.Token)
			}
		}
		for _, r := range g.Rules {
			if r.Value == "" || strings.ContainsAny(r.Value, "*$") {
				continue
			}
			p := strings.TrimSuffix(r.Pattern, "$")
			urls := []string{p, p + "x"}
			if strings.Contains(p, "~") {
				urls = append(urls, strings.ReplaceAll(p, "~", "%7E"))
			}
			if strings.Contains(p, "%7E") {
				urls = append(urls, strings.ReplaceAll(p, "%7E", "~"))
			}
			for _, a := range agents {
				for _, u := range urls {
					if reported[r.Num] {
						continue
					}
					if probes++; probes > maxProbes {
						return
					}
					n := sizeOf(a)
					if work += 3 * (1 + n.rules); work > maxReadingWork {
						return
					}
					if octets += 3 * (n.octets + n.rules*len(u)); octets > maxReadingOctets {
						return
					}
					c := x.check(a, u)
					v := f.matchNormalised(x.groups(a), u, canon)
					if c.Agree() && v.Allowed == c.RFC9309.Allowed {
						continue
					}
					reported[r.Num] = true
					add(CodeReadingsDiffer, r.Num, "%s, %s: Google's parser %s, RFC 9309 with escapes normalised %s, the 1996 draft %s%s",
						a, u, describe(c.RFC9309), describe(v), describe(c.Draft1996), orderHint(&g, c.RFC9309, c.Draft1996))
				}
			}
		}
	}
}

// orderHint returns the one-line fix for the commonest R009: a group that
// writes a short rule before a longer one of the other kind (WordPress's
// "Disallow: /wp-admin/" then "Allow: /wp-admin/admin-ajax.php"). RFC 9309
// readers take the longer, a 1996 reader the first; written longest first,
// both take the longer. It is empty for other disagreements.
func orderHint(g *Group, rfc, draft Verdict) string {
	if rfc.Allowed == draft.Allowed || rfc.Line == 0 || draft.Line == 0 || draft.Line > rfc.Line {
		return ""
	}
	in := func(line int) bool {
		return slices.ContainsFunc(g.Rules, func(r Rule) bool { return r.Num == line })
	}
	if !in(rfc.Line) || !in(draft.Line) {
		return ""
	}
	return fmt.Sprintf("; move line %d (%s) above line %d (%s) (longest first), and the readings agree here", rfc.Line, rfc.Rule, draft.Line, draft.Rule)
}

// canonical holds the Canonical form of each rule's pattern, made once
// for all the questions lintReadings asks.
type canonical struct{ of map[*Rule]string }

func (c *canonical) pattern(r *Rule) string {
	if c.of == nil {
		c.of = map[*Rule]string{}
	}
	p, ok := c.of[r]
	if !ok {
		p = Canonical(r.Pattern)
		c.of[r] = p
	}
	return p
}

// matchNormalised answers as Match does over groups, but with the path and
// every pattern in Canonical form, as RFC 9309 section 2.2.2 reads them.
func (f *File) matchNormalised(groups []int, url string, canon *canonical) Verdict {
	path := Canonical(PathOf(url))
	if isRobotsTxt(path) {
		return Verdict{Allowed: true}
	}
	var m matcher
	var best *Rule
	bestLen := -1
	for _, gi := range groups {
		for ri := range f.Groups[gi].Rules {
			r := &f.Groups[gi].Rules[ri]
			if r.Pattern == "" {
				continue
			}
			cp := canon.pattern(r)
			if !m.match(path, cp) {
				continue
			}
			if len(cp) > bestLen || len(cp) == bestLen && r.Allow && !best.Allow {
				best, bestLen = r, len(cp)
			}
		}
	}
	if best == nil {
		return Verdict{Allowed: true}
	}
	return Verdict{Allowed: best.Allow, Rule: best.String(), Line: best.Num}
}

func describe(v Verdict) string {
	verb := "disallows"
	if v.Allowed {
		verb = "allows"
	}
	if v.Line == 0 {
		return verb + " (no rule)"
	}
	return fmt.Sprintf("%s (line %d, %s)", verb, v.Line, v.Rule)
}

// unlistedName returns a product token no User-agent value of f contains,
// to stand for the crawlers the file does not name.
func unlistedName(f *File) string {
	for _, n := range []string{"unlistedbot", "zzqbot", "qqzzxxbot"} {
		free := true
		for _, g := range f.Groups {
			for _, a := range g.Agents {
				free = free && !strings.Contains(strings.ToLower(a.Value), n)
			}
		}
		if free {
			return n
		}
	}
	return ""
}

// names reports whether g has a User-agent line whose product token is
// token.
func names(g *Group, token string) bool {
	for _, a := range g.Agents {
		if strings.EqualFold(a.Token, token) {
			return true
		}
	}
	return false
}
