package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
)

// Row is a URL and its cells, one per agent.
type Row struct {
	Path    string
	Sources []string // where the URL comes from: expect, rule, sitemap, --url
	Cells   []Cell

	// License and TDM are the licence and reservation read at the URL,
	// and where they come from (rights.go); "" where nothing says one.
	License, TDM string
}

// Cell is one verdict.
type Cell struct {
	Agent, Path string
	Allowed     bool
	Rule        string // the deciding rule, "" when none decides
	Line        int
	Differs     bool // the 1996 reading gives the other verdict
	Rule1996    string
	Line1996    int
	Expect      string // "ok" or "FAILS" when an expect assertion names it
	// Usage is the preferences the agent reads at the URL where it may
	// fetch it (usageText), "" where no preference line applies.
	Usage string
	// Operator is, where the agent's operator documents a fallback that
	// changes its group (Googlebot-Image obeying the Googlebot group), the
	// verdict its crawler applies and why (operatorText); the cell's own
	// verdict stays RFC 9309's for the token as written. Control is set
	// for a control token (Google-Extended): it never fetches, and the
	// cell's verdict says whether its group allows use.
	Operator        string
	OperatorAllowed bool
	OperatorUsage   string
	Control         string
	// In a preset's column: how many of its members get the cell's
	// verdicts under both readings, and those that do not.
	Preset string
	Share  int
	Others []string
}

// ShareText says, in a preset's column, how many of the preset's members
// get the cell's verdicts (under RFC 9309 and the 1996 reading) and names
// the others; "" in other columns.
func (c Cell) ShareText() string {
	switch n := c.Share + len(c.Others); {
	case c.Preset == "":
		return ""
	case n == 1:
		return "its only agent here, " + c.Agent
	case len(c.Others) == 0:
		return fmt.Sprintf("all %d agents (asked as %s)", n, c.Agent)
	default:
		return fmt.Sprintf("%d of %d agents (asked as %s); the other verdicts: %s", c.Share, n, c.Agent, strings.Join(c.Others, ", "))
	}
}

// matrixCell is agent a's verdicts for path under RFC 9309 and the 1996
// reading, with what an expect assertion, the usage preferences and the
// operator's documented reading say there.
func matrixCell(f *robots.File, m *manifest.Site, a Agent, path string) Cell {
	name, others := a.Name, []string(nil)
	if a.Preset != "" {
		name, others = majority(f, a.Members, path)
	}
	r, d := f.Match(name, path), f.Match1996(name, path)
	c := Cell{Agent: name, Path: path, Allowed: r.Allowed, Rule: r.Rule, Line: r.Line,
		Differs: r.Allowed != d.Allowed, Rule1996: d.Rule, Line1996: d.Line,
		Preset: a.Preset, Share: len(a.Members) - len(others), Others: others}
	allowed, disallowed := r.Allowed && d.Allowed, !r.Allowed && !d.Allowed
	if v, op := f.MatchEffective(name, path); op != nil {
		// Checked as expect checks it: the documented reading alone.
		allowed, disallowed = v.Allowed, !v.Allowed
		if op.Fallback.Control {
			c.Control = op.Describe() + " (" + op.Fallback.Documented() + ")"
		} else {
			c.Operator, c.OperatorAllowed = operatorText(*op), v.Allowed
			if v.Allowed {
				c.OperatorUsage = usageText(f.UsageOperator(*op, path))
			}
		}
	}
	c.Expect = expectation(m.Expect, name, path, allowed, disallowed)
	if r.Allowed {
		c.Usage = usageText(f.Usage(name, path))
	}
	return c
}

type urlSource struct {
	path    string
	sources []string
}

// urls lists the URLs to ask about: those of expect, each rule's path
// (wildcards filled in), the sitemaps and the extra ones, without
// duplicates, in that order.
func urls(m *manifest.Site, extra []string) []urlSource {
	var out []urlSource
	idx := map[string]int{}
	add := func(u, source string) {
		p := robots.PathOf(u)
		if p == "" || p[0] != '/' {
			p = "/" + p
		}
		if i, ok := idx[p]; ok {
			if !slices.Contains(out[i].sources, source) {
				out[i].sources = append(out[i].sources, source)
			}
			return
		}
		idx[p] = len(out)
		out = append(out, urlSource{p, []string{source}})
	}
	for _, e := range m.Expect {
		for _, u := range e.Allowed {
			add(u, "expect")
		}
		for _, u := range e.Disallowed {
			add(u, "expect")
		}
		// The URLs a usage assertion reads its preferences at ("/"
		// when it names none).
		if e.Usage != nil {
			us := e.URLs
			if len(us) == 0 {
				us = []string{"/"}
			}
			for _, u := range us {
				add(u, "expect")
			}
		}
	}
	for _, g := range m.Agents {
		for _, r := range append(slices.Clone(g.Allow), g.Disallow...) {
			add(strings.ReplaceAll(strings.TrimSuffix(r, "$"), "*", ""), "rule")
		}
	}
	for _, s := range m.Sitemaps {
		add(s, "sitemap")
	}
	for _, u := range extra {
		add(u, "--url")
	}
	return out
}

// expectation says whether an expect assertion names agent and path, and
// whether the built file meets it under both readings.
func expectation(es []manifest.Expect, agent, path string, allowed, disallowed bool) string {
	for _, e := range es {
		if !strings.EqualFold(e.Agent, agent) {
			continue
		}
		for _, u := range e.Allowed {
			if robots.PathOf(u) == path {
				return verdictWord(allowed)
			}
		}
		for _, u := range e.Disallowed {
			if robots.PathOf(u) == path {
				return verdictWord(disallowed)
			}
		}
	}
	return ""
}

func verdictWord(ok bool) string {
	if ok {
		return "ok"
	}
	return "FAILS"
}

// usageText gives the preferences of a reading and the lines they come
// from ("train_ai=no, search=yes (lines 18, 20)"), both forms together (a
// "no" in either wins), or "" when no preference line applies.
func usageText(r robots.UsageReading) string {
	if len(r.Lines) == 0 {
		return ""
	}
	nums := make([]string, len(r.Lines))
	for i, l := range r.Lines {
		nums[i] = fmt.Sprint(l.Num)
	}
	word := "line "
	if len(nums) > 1 {
		word = "lines "
	}
	return r.Combined().String() + " (" + word + strings.Join(nums, ", ") + ")"
}

// operatorText gives the verdict of an operator's documented reading and
// why: "Google's crawler: allowed, line 2: Allow: /public/ (it obeys the
// Googlebot group, as Googlebot-Image does where no group names it
// (Googlebot-Image, then Googlebot, then *); as documented at URL,
// recorded DATE)".
func operatorText(r robots.OperatorReading) string {
	v := "disallowed"
	if r.Verdict.Allowed {
		v = "allowed"
	}
	rule := "no rule matches"
	if r.Verdict.Rule != "" {
		rule = fmt.Sprintf("line %d: %s", r.Verdict.Line, r.Verdict.Rule)
	}
	return fmt.Sprintf("%s: %s, %s (it %s; %s)", r.Fallback.Crawler, v, rule, r.Describe(), r.Fallback.Documented())
}
