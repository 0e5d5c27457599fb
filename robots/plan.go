package robots

import (
	"slices"
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
		name, lower string
		cfg         config
		// Until a second group gives the agent rules or extensions, cfg
		// shares its first group's (read only: first); then owned is set,
		// cfg has copies of its own and rules and exts index them.
		first  *groupRules
		owned  bool
		rules  map[PathRule]bool
		exts   map[Extension]bool
		star   bool
		origin int
	}
	// The agents live in one array, sized for every name the groups
	// list (a policy with presets has hundreds): one allocation, not one
	// an agent.
	total := 0
	for _, g := range p.Groups {
		total += len(g.Agents)
	}
	pool := make([]agent, 0, total)
	agents := make([]*agent, 0, total)
	byName := make(map[string]*agent, total)
	for _, g := range p.Groups {
		gr := newGroupRules(g)
		for _, name := range g.Agents {
			k := p.Names.toLower(name)
			a := byName[k]
			if a == nil {
				pool = append(pool, agent{name: name, lower: k, star: name == "*", origin: len(agents), first: gr})
				a = &pool[len(pool)-1] // pool never grows past total: a stays put
				a.cfg.rules, a.cfg.extensions = gr.rules, gr.exts
				byName[k] = a
				agents = append(agents, a)
			} else if len(gr.rules) > 0 || len(gr.exts) > 0 {
				if !a.owned {
					a.owned = true
					a.rules = map[PathRule]bool{}
					for _, r := range a.cfg.rules {
						a.rules[r] = true
					}
					a.exts = map[Extension]bool{}
					for _, e := range a.cfg.extensions {
						a.exts[e] = true
					}
					a.cfg.rules, a.cfg.extensions = slices.Clone(a.cfg.rules), slices.Clone(a.cfg.extensions)
				}
				for _, r := range gr.rules {
					if !a.rules[r] {
						a.rules[r] = true
						a.cfg.rules = append(a.cfg.rules, r)
					}
				}
				for _, e := range gr.exts {
					if !a.exts[e] {
						a.exts[e] = true
						a.cfg.extensions = append(a.cfg.extensions, e)
					}
				}
			}
			if a.cfg.crawlDelay == "" {
				a.cfg.crawlDelay = g.CrawlDelay
			}
			if a.cfg.usage == nil {
				a.cfg.usage = gr.usage
			} else {
				a.cfg.usage = mergeUsage(a.cfg.usage, g.Usage)
			}
		}
	}

	// A Disallow with the same path as an Allow never decides (Allow wins
	// the tie under RFC 9309 and comes first for the other readers), so it
	// is left out.
	for _, a := range agents {
		if !a.owned {
			a.cfg.rules = a.first.pruned
			continue
		}
		a.cfg.rules = slices.DeleteFunc(a.cfg.rules, func(r PathRule) bool {
			return !r.Allow && a.rules[PathRule{Allow: true, Path: r.Path}]
		})
	}

	// One record per agent: some readers (npm robots-txt-parser) give only
	// the last User-agent line of a record its rules.
	recs := make([]record, 0, len(agents))
	names := make([]string, 0, 2*len(agents)) // each record's name and lower-cased name
	var star *record
	for _, a := range agents {
		if a.star {
			star = &record{agents: []string{"*"}, cfg: &a.cfg}
			continue
		}
		names = append(names, a.name, a.lower)
		i := len(names)
		recs = append(recs, record{agents: names[i-2 : i-1 : i-1], lower: names[i-1 : i : i], cfg: &a.cfg, rank: [2]int{a.origin, 0}})
	}
	out := inOrder(recs, p.Names.order(recs))
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

// groupRules are a group's rules made canonical, without empty paths and
// repeats, its extensions without repeats, in order, and its usage: what
// each of its agents gets from it, found once for all of them. A record's
// config shares them (read only) until another group adds to them, so
// that Emit writes the lines of a group's agents once. pruned is rules
// without the Disallows that an Allow of the same path overrides.
type groupRules struct {
	rules, pruned []PathRule
	exts          []Extension
	usage         *Usage // a copy of the group's, shared by its agents until merged
}

func newGroupRules(g PolicyGroup) *groupRules {
	gr := &groupRules{usage: g.Usage.clone()}
	seen := map[PathRule]bool{}
	for _, r := range g.Rules {
		cr := PathRule{Allow: r.Allow, Path: Canonical(r.Path)}
		if cr.Path != "" && !seen[cr] {
			seen[cr] = true
			gr.rules = append(gr.rules, cr)
		}
	}
	gr.rules = slices.Clip(gr.rules)
	gr.pruned = gr.rules
	for _, r := range gr.rules {
		if !r.Allow && seen[PathRule{Allow: true, Path: r.Path}] {
			gr.pruned = slices.DeleteFunc(slices.Clone(gr.rules), func(r PathRule) bool {
				return !r.Allow && seen[PathRule{Allow: true, Path: r.Path}]
			})
			break
		}
	}
	if len(g.Extensions) > 0 {
		seenExt := map[Extension]bool{}
		for _, e := range g.Extensions {
			if !seenExt[e] {
				seenExt[e] = true
				gr.exts = append(gr.exts, e)
			}
		}
		gr.exts = slices.Clip(gr.exts)
	}
	return gr
}

// orderRecords sorts records so that a record naming a comes before every
// other record naming a name that contains a; among records free to go,
// the lowest rank goes first. Each record names one agent, and names are
// distinct (case insensitively), so the constraints never form a cycle.
//
// "Is part of" is transitive, so the order needs only pairs whose closure
// gives every constraint: for each name, at each end position, the longest
// other name ending there (nameIndex.covers). There are at most as many as
// the names have bytes, where all pairs of names can be quadratic in their
// number.
//
// With a NameSet (Policy.Names), the pairs are the same, found with the
// set's index for the names it holds (see NameSet).
func orderRecords(recs []record, set *NameSet) []record {
	return inOrder(recs, recordOrder(recs, set))
}

// recordOrder is the order of orderRecords, as indexes into recs.
func recordOrder(recs []record, set *NameSet) []int32 {
	n := len(recs)
	names := make([]string, n)
	for i, r := range recs {
		names[i] = r.lower[0]
	}
	var covers func(j int, f func(i int))
	if set != nil && !slices.Contains(names, "") {
		pn := newRecordNames(names, set)
		covers = pn.covers
	} else {
		x := newNameIndex(names)
		covers = func(j int, f func(i int)) { x.covers(names[j], j, f) }
	}
	succ := make([][]int32, n)
	indeg := make([]int, n)
	for j := range recs {
		covers(j, func(i int) {
			succ[i] = append(succ[i], int32(j))
			indeg[j]++
		})
	}
	h := &rankHeap{recs: recs}
	for i := range recs {
		if indeg[i] == 0 {
			h.push(i)
		}
	}
	order := make([]int32, 0, n)
	for len(h.items) > 0 {
		i := h.pop()
		order = append(order, int32(i))
		for _, j := range succ[i] {
			if indeg[j]--; indeg[j] == 0 {
				h.push(int(j))
			}
		}
	}
	if len(order) != n {
		panic("robots: cycle among records")
	}
	return order
}

// inOrder is recs in the order given by indexes into it, with room for
// plan's "*" record.
func inOrder(recs []record, order []int32) []record {
	out := make([]record, len(order), len(order)+1)
	for k, i := range order {
		out[k] = recs[i]
	}
	return out
}

// rankHeap is a min-heap of record indexes by rank.
type rankHeap struct {
	recs  []record
	items []int
}

func (h *rankHeap) less(a, b int) bool { return less(h.recs[h.items[a]].rank, h.recs[h.items[b]].rank) }

func (h *rankHeap) push(i int) {
	h.items = append(h.items, i)
	for k := len(h.items) - 1; k > 0; {
		p := (k - 1) / 2
		if !h.less(k, p) {
			break
		}
		h.items[k], h.items[p] = h.items[p], h.items[k]
		k = p
	}
}

func (h *rankHeap) pop() int {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	for k := 0; ; {
		l, r, m := 2*k+1, 2*k+2, k
		if l < last && h.less(l, m) {
			m = l
		}
		if r < last && h.less(r, m) {
			m = r
		}
		if m == k {
			break
		}
		h.items[k], h.items[m] = h.items[m], h.items[k]
		k = m
	}
	return top
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
