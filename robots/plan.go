package robots

import (
	"slices"
	"strings"
)

// record is one group of the emitted file.
type record struct {
	agents []string
	lower  []string // agents in lower case
	cfg    *config
	// rank orders records where no substring constraint does: the
	// manifest position of the first agent, then the position inside a
	// split record.
	rank [2]int
}

// plan turns a policy into the records Emit writes, in order (see Emit).
func plan(p Policy) []record {
	p = p.inherited()
	type agent struct {
		name   string
		cfg    config
		rules  map[PathRule]bool
		exts   map[Extension]bool
		star   bool
		origin int
	}
	var agents []*agent
	byName := map[string]*agent{}
	for _, g := range p.Groups {
		for _, name := range g.Agents {
			k := strings.ToLower(name)
			a := byName[k]
			if a == nil {
				a = &agent{name: name, rules: map[PathRule]bool{}, exts: map[Extension]bool{},
					star: name == "*", origin: len(agents)}
				byName[k] = a
				agents = append(agents, a)
			}
			for _, r := range g.Rules {
				cr := PathRule{Allow: r.Allow, Path: Canonical(r.Path)}
				if cr.Path != "" && !a.rules[cr] {
					a.rules[cr] = true
					a.cfg.rules = append(a.cfg.rules, cr)
				}
			}
			if a.cfg.crawlDelay == "" {
				a.cfg.crawlDelay = g.CrawlDelay
			}
			a.cfg.usage = mergeUsage(a.cfg.usage, g.Usage)
			for _, e := range g.Extensions {
				if !a.exts[e] {
					a.exts[e] = true
					a.cfg.extensions = append(a.cfg.extensions, e)
				}
			}
		}
	}

	// A Disallow with the same path as an Allow never decides (Allow wins
	// the tie under RFC 9309 and comes first for the other readers), so it
	// is left out.
	for _, a := range agents {
		a.cfg.rules = slices.DeleteFunc(a.cfg.rules, func(r PathRule) bool {
			return !r.Allow && a.rules[PathRule{Allow: true, Path: r.Path}]
		})
	}

	// One record per agent: some readers (npm robots-txt-parser) give only
	// the last User-agent line of a record its rules.
	var recs []record
	var star *record
	for _, a := range agents {
		if a.star {
			star = &record{agents: []string{"*"}, cfg: &a.cfg}
			continue
		}
		recs = append(recs, record{agents: []string{a.name}, lower: []string{strings.ToLower(a.name)}, cfg: &a.cfg, rank: [2]int{a.origin, 0}})
	}
	out := orderRecords(recs)
	if star == nil && !p.Usage.IsZero() {
		// No group is for "*": a record of its own carries the site's
		// preferences to crawlers no group names. It has no rule, so it
		// allows everything, as no "*" group does.
		star = &record{agents: []string{"*"}, cfg: &config{usage: p.Usage}}
	}
	if star != nil {
		out = append(out, *star)
	}
	return out
}

// orderRecords sorts records so that a record naming a comes before every
// other record naming a name that contains a; among records free to go,
// the lowest rank goes first.
func orderRecords(recs []record) []record {
	out, stuck := topo(recs)
	if stuck >= 0 {
		panic("robots: cycle among records")
	}
	return out
}

// topo returns the records in order, or the index of a shared record to
// split when the constraints form a cycle.
func topo(recs []record) (out []record, stuck int) {
	n := len(recs)
	succ := make([][]int, n)
	indeg := make([]int, n)
	for i := range recs {
		for j := range recs {
			if i == j || !precedes(recs[i], recs[j]) {
				continue
			}
			succ[i] = append(succ[i], j)
			indeg[j]++
		}
	}
	done := make([]bool, n)
	for len(out) < n {
		next := -1
		for i := range recs {
			if !done[i] && indeg[i] == 0 && (next < 0 || less(recs[i].rank, recs[next].rank)) {
				next = i
			}
		}
		if next < 0 {
			for i := range recs {
				if !done[i] && len(recs[i].agents) > 1 {
					return nil, i
				}
			}
			panic("robots: cycle among single-agent records")
		}
		done[next] = true
		out = append(out, recs[next])
		for _, j := range succ[next] {
			indeg[j]--
		}
	}
	return out, -1
}

// precedes reports whether r must come before s: a name in r is a strict
// substring of a name in s (case insensitively), so a 1996 robot of that
// name would obey s if s came first.
func precedes(r, s record) bool {
	for _, a := range r.lower {
		for _, b := range s.lower {
			if len(a) < len(b) && strings.Contains(b, a) {
				return true
			}
		}
	}
	return false
}

func less(a, b [2]int) bool {
	return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
}

// mergeUsage returns the preferences of an agent named by several groups:
// the earlier group's preferences win where both state one (as the first
// Crawl-delay does), path-scoped preferences of both are kept (the
// earlier group's win for the same path), and a form either group asks
// for is written.
func mergeUsage(have, add *Usage) *Usage {
	if add == nil {
		return have
	}
	if have == nil {
		return add.clone()
	}
	out := have.clone()
	out.Prefs = have.Prefs.Over(add.Prefs)
	out.Paths = append(slices.Clone(add.Paths), have.Paths...)
	out.ContentUsage = have.ContentUsage || add.ContentUsage
	out.ContentSignal = have.ContentSignal || add.ContentSignal
	return out
}
