package validate

import (
	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/manifest"
)

// Bounds on what one manifest's robots.txt policy may hold, so that its
// checks and its output stay small whatever it says. Each is refused
// with an error at the value that passes it.
const (
	// MaxAgentNames bounds the agent names of one manifest, counting
	// every names entry and every agent a preset adds, in all its groups
	// (an inline delegatee's included). The crawler catalogue holds 154.
	MaxAgentNames = 5_000
	// MaxRuleLines bounds the Allow and Disallow lines a manifest's
	// robots.txt can hold: each group's agents times its rules (the "*"
	// group's added where a group inherits them). Google reads 500 KiB of
	// a robots.txt, about 25,000 such lines.
	MaxRuleLines = 200_000
	// MaxRuleBytes bounds the bytes of those lines (each rule's length
	// and its field name, times the group's agents): a few rules of 4 KiB
	// for a few hundred agents would otherwise make a robots.txt of
	// hundreds of megabytes.
	MaxRuleBytes = 8 << 20
	// MaxValueBytes bounds every one-line value (a path, name, URL,
	// description or x- file line); a well-known file's content is bounded
	// by the manifest's size alone. Every robots.txt line is then shorter
	// than Google's parser reads (maxRobotsLine): a value percent-encoded
	// at its longest, three bytes a byte, and its field name fit.
	MaxValueBytes = 4_096
	// maxRobotsLine is the longest line Google's robots.txt parser reads
	// whole (kMaxLineLen, 2083 * 8, less the byte its buffer keeps for the
	// end of the string): a longer Allow or Disallow is cut and changes
	// meaning.
	maxRobotsLine = 2083*8 - 1
)

// agentBounds checks the groups of one agents list against MaxAgentNames
// (with the names of the manifest's other lists) and MaxRuleLines. It
// reports false when the policy is over a bound: its other checks, whose
// work grows with it, are then not run.
func (v *checker) agentBounds(path string, groups []manifest.Group) bool {
	cat := crawlers.Default()
	var star, starBytes int
	for _, g := range groups {
		for _, n := range g.Names {
			if n == "*" {
				star += len(g.Allow) + len(g.Disallow)
				starBytes += ruleBytes(g)
				break
			}
		}
	}
	lines, size := 0, 0
	for i, g := range groups {
		gp := manifest.Index(path, i)
		for j := range g.Names {
			if v.agentNames++; v.agentNames == MaxAgentNames+1 {
				v.err(manifest.Index(manifest.Key(gp, "names"), j), "more than %d agent names in this manifest; the limit is %d", MaxAgentNames, MaxAgentNames)
			}
		}
		agents := len(g.Names)
		for j, pr := range g.Presets {
			as, _ := cat.Preset(pr)
			agents += len(as)
			before := v.agentNames
			if v.agentNames += len(as); before <= MaxAgentNames && v.agentNames > MaxAgentNames {
				v.err(manifest.Index(manifest.Key(gp, "presets"), j), "more than %d agent names in this manifest with the agents of preset %s; the limit is %d", MaxAgentNames, pr, MaxAgentNames)
			}
		}
		rules, bytes := len(g.Allow)+len(g.Disallow), ruleBytes(g)
		if g.InheritWildcard {
			rules, bytes = rules+star, bytes+starBytes
		}
		before := lines
		lines += agents * max(rules, 1)
		if before <= MaxRuleLines && lines > MaxRuleLines {
			v.err(gp, "robots.txt would hold more than %d rule lines (each agent of a group gets a line for each of its rules; this group: %d agents, %d rules); the limit is %d",
				MaxRuleLines, agents, rules, MaxRuleLines)
		}
		before = size
		size += agents * bytes
		if before <= MaxRuleBytes && size > MaxRuleBytes && lines <= MaxRuleLines {
			v.err(gp, "robots.txt would hold more than %d bytes of rules (each agent of a group gets a line for each of its rules; this group: %d agents, %d bytes of rules); the limit is %d",
				MaxRuleBytes, agents, bytes, MaxRuleBytes)
		}
	}
	return v.agentNames <= MaxAgentNames && lines <= MaxRuleLines && size <= MaxRuleBytes
}

// ruleBytes is the size of a group's rule lines, as the manifest writes
// their paths.
func ruleBytes(g manifest.Group) int {
	n := 0
	for _, a := range g.Allow {
		n += len("Allow: \n") + len(a)
	}
	for _, d := range g.Disallow {
		n += len("Disallow: \n") + len(d)
	}
	return n
}
