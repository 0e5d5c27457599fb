package robots

import (
	"fmt"
	"slices"
	"strings"
)

// maxPairRules bounds the rules of one group that lintRules compares pair
// by pair (shadowed and redundant rules), so that lint stays linear in the
// file's size; a larger group is checked for repeats and conflicts only.
// maxPairWork bounds the octets those comparisons read in all, a group's
// rules times the length of its patterns: 512 rules of 16 kB patterns
// took minutes, and a file holds many groups of 512. Past it, the groups
// left are checked for repeats and conflicts only.
const (
	maxPairRules = 512
	maxPairWork  = 256 << 20
)

// lintRules checks a group's rules; work is what the pairwise checks
// have read of the file so far, in octets.
func lintRules(g Group, work *int, add func(string, int, string, ...any)) {
	seen := map[string]int{} // "A/x" or "D/x" -> line
	for _, r := range g.Rules {
		v := r.Pattern
		if v == "" {
			continue
		}
		if v[0] != '/' && v[0] != '*' {
			add(CodeBadStart, r.Num, "pattern %q starts with neither '/' nor '*'; it matches no URL", r.Value)
		}
		if i := strings.IndexByte(v, '$'); i >= 0 && i < len(v)-1 {
			add(CodeDollarInside, r.Num, "'$' in %q is not at the end, so it is a plain character", r.Value)
		}
		if strings.ContainsAny(v, "*$") {
			add(CodeWildcard, r.Num, "%q uses '*' or '$'; the 1996 draft reads them as plain characters", r.Value)
		}
		kind, other := "D", "A"
		if r.Allow {
			kind, other = "A", "D"
		}
		if first, ok := seen[kind+v]; ok {
			add(CodeShadowed, r.Num, "%s repeats line %d and never decides", r.String(), first)
			continue
		}
		seen[kind+v] = r.Num
		if first, ok := seen[other+v]; ok {
			add(CodeConflict, r.Num, "Allow and Disallow %q (line %d): RFC 9309 picks Allow, the 1996 draft whichever comes first", r.Value, first)
		}
	}
	if len(g.Rules) > maxPairRules {
		return
	}
	octets := 0
	for _, r := range g.Rules {
		octets += len(r.Pattern)
	}
	if cost := 2 * len(g.Rules) * octets; *work+cost <= maxPairWork {
		*work += cost
		lintCovered(g.Rules, add)
	}
}

// lintCovered finds, with the RFC 9309 matcher, rules without wildcards
// that another rule of the group makes useless (patterns spelled the same
// are R007's repeats and R008's conflicts, reported above):
//
//   - R007, never decides: another rule matches every URL this one matches
//     and wins (longer, or as long and Allow against Disallow). Because a
//     pattern matches a prefix of the path, a rule s without '$' that
//     matches the path P matches every URL starting with P; a rule "P$"
//     matches only P itself.
//   - R025, redundant: a shorter rule of the same kind matches every URL
//     this one matches, and no rule of the other kind that is at least as
//     long as that shorter one can match any of those URLs (its literal
//     part, up to a wildcard, is a prefix of P or starts with P). Without
//     the rule, the same verdict follows on every URL.
func lintCovered(rules []Rule, add func(string, int, string, ...any)) {
	var m matcher
	for i := range rules {
		r := &rules[i]
		p := r.Pattern
		if p == "" || p[0] != '/' || strings.IndexByte(p, '*') >= 0 || strings.IndexByte(p[:len(p)-1], '$') >= 0 {
			continue
		}
		exact := strings.HasSuffix(p, "$")
		path := strings.TrimSuffix(p, "$")
		var shorter *Rule // the longest same-kind rule covering r, shorter than r
		for j := range rules {
			s := &rules[j]
			if i == j || s.Pattern == "" || s.Pattern == p {
				continue
			}
			if !exact && strings.HasSuffix(s.Pattern, "$") || !m.match(path, s.Pattern) {
				continue // s does not match every URL r matches
			}
			if len(s.Pattern) > len(p) || len(s.Pattern) == len(p) && s.Allow && !r.Allow {
				add(CodeShadowed, r.Num, "%s never decides: line %d (%s) matches every URL it matches and wins (%s)",
					r.String(), s.Num, s.String(), why(s, r))
				shorter = nil
				goto next
			}
			if s.Allow == r.Allow && len(s.Pattern) < len(p) && (shorter == nil || len(s.Pattern) > len(shorter.Pattern)) {
				shorter = s
			}
		}
		if shorter != nil && !opposed(rules, r, path, len(shorter.Pattern)) {
			add(CodeRedundant, r.Num, "%s is redundant: line %d (%s) gives the same verdict on every URL it matches",
				r.String(), shorter.Num, shorter.String())
		}
	next:
	}
}

func why(s, r *Rule) string {
	if len(s.Pattern) > len(r.Pattern) {
		return "longer"
	}
	return "as long, and Allow wins"
}

// opposed reports whether a rule of the other kind than r, at least n
// octets long, may match a URL starting with path.
func opposed(rules []Rule, r *Rule, path string, n int) bool {
	for j := range rules {
		t := &rules[j]
		if t.Allow == r.Allow || t.Pattern == "" || len(t.Pattern) < n {
			continue
		}
		lit := t.Pattern
		if k := strings.IndexAny(lit, "*$"); k >= 0 {
			lit = lit[:k]
		}
		if strings.HasPrefix(path, lit) || strings.HasPrefix(lit, path) {
			return true
		}
	}
	return false
}

// maxInheritProbes bounds the "*" Disallow rules lintInherit tries on each
// named group.
const maxInheritProbes = 64

// lintInherit reports named groups that let their agents fetch paths the
// "*" group disallows (R023). RFC 9309 groups do not inherit: an agent with
// a group of its own ignores every "*" rule, which authors often do not
// mean (a GPTBot group with "Allow: /blog/" is then allowed /admin/ although
// "*" disallows it). Groups whose only rule is an empty Disallow (allow
// everything, said explicitly) are left alone, and so are paths the group
// allows with a rule of its own. It tries each "*" Disallow
// path without wildcards, and reports once per group, on its first
// User-agent line.
func lintInherit(f *File, x *lintIndex, add func(string, int, string, ...any)) {
	if len(x.global) == 0 {
		return
	}
	var probes []*Rule
	for _, gi := range x.global {
		for ri := range f.Groups[gi].Rules {
			r := &f.Groups[gi].Rules[ri]
			if !r.Allow && r.Pattern != "" && !strings.ContainsAny(r.Pattern, "*$") && len(probes) < maxInheritProbes {
				probes = append(probes, r)
			}
		}
	}
	// Where a longer "*" Allow wins, a named group drops nothing: asked
	// once of the "*" groups, not once for each named group.
	probes = slices.DeleteFunc(probes, func(d *Rule) bool { return f.matchGroups(x.global, d.Pattern).Allowed })
	done := map[string]bool{}
	for _, g := range f.Groups {
		token := g.firstToken()
		k := strings.ToLower(token)
		if token == "" || done[k] {
			continue
		}
		done[k] = true
		gs := x.byToken[k]
		ruled := false
		for _, gi := range gs {
			for _, r := range f.Groups[gi].Rules {
				ruled = ruled || r.Pattern != ""
			}
		}
		if !ruled {
			continue
		}
		var dropped []*Rule
		for _, d := range probes {
			if v := f.matchGroups(gs, d.Pattern); v.Allowed && v.Line == 0 {
				dropped = append(dropped, d) // no rule of its own says so
			}
		}
		if len(dropped) == 0 {
			continue
		}
		var b strings.Builder
		for i, d := range dropped {
			if i == 3 {
				fmt.Fprintf(&b, " and %d more", len(dropped)-3)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s (line %d)", d.Value, d.Num)
		}
		add(CodeNoInherit, g.Agents[0].Num, "%s has a group of its own, so it ignores every \"*\" rule (RFC 9309 groups do not inherit): it may fetch %s, which \"*\" disallows; repeat the \"*\" rules it should follow in its group (in a discgen manifest, inherit_wildcard: true)",
			token, b.String())
	}
}

// firstToken is the product token of the group's first named agent, or ""
// for a group of "*" alone: the token lint reports a named group by, once
// per token however many groups name it.
func (g *Group) firstToken() string {
	for _, a := range g.Agents {
		if !a.Global && a.Token != "" {
			return a.Token
		}
	}
	return ""
}
