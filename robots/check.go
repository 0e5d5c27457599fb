package robots

import (
	"fmt"
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

// maxProbes bounds the questions lintReadings asks, so that linting stays
// fast on large files.
const maxProbes = 4000

// lintReadings looks for agents and URLs the two readings answer
// differently (R009). It asks, for each agent a group names (and for an
// agent no group names, when there is a "*" group), about URLs built from
// the group's rule paths: the path itself, the path extended, and the path
// with '~' written %7E. A disagreement is reported once per rule, on the
// line of the rule the URL was built from. Agents that a 1996 robot would
// look up in another group are reported once, on their User-agent line.
func lintReadings(f *File, add func(string, int, string, ...any)) {
	reported := map[int]bool{}
	captured := map[string]bool{}
	for gi := range f.Groups {
		for _, a := range f.Groups[gi].Agents {
			if a.Global || a.Token == "" {
				continue
			}
			if g := f.group1996(a.Token); g != nil && g != &f.Groups[gi] && !names(g, a.Token) {
				captured[strings.ToLower(a.Token)] = true
				add(CodeReadingsDiffer, a.Num, "a 1996 robot named %s obeys the group of line %d (User-agent: %s), whose value contains its name; RFC 9309 readers obey this one",
					a.Token, g.Agents[0].Num, g.Agents[0].Value)
			}
		}
	}
	probes := 0
	for _, g := range f.Groups {
		var agents []string
		for _, a := range g.Agents {
			switch {
			case a.Global:
				if n := unlistedName(f); n != "" {
					agents = append(agents, n)
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
					if probes++; probes > maxProbes {
						return
					}
					c := f.Check(a, u)
					if c.Agree() {
						continue
					}
					if reported[r.Num] {
						continue
					}
					reported[r.Num] = true
					add(CodeReadingsDiffer, r.Num, "%s, %s: RFC 9309 %s, the 1996 draft %s",
						a, u, describe(c.RFC9309), describe(c.Draft1996))
				}
			}
		}
	}
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
