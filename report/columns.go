package report

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
)

// Agent is a column of the matrix.
type Agent struct {
	Name string // the name asked with, or the preset's name
	Note string // "listed", "* group", "unlisted", or what a preset column holds
	// Preset names the preset of a preset's column; Members are the agents
	// the preset adds to its group that have no column of their own.
	Preset  string
	Members []string
	// Verified is set where the agent's group is served as verified by
	// address (agents[].verified): --server output refuses a request that
	// claims the agent from outside its operator's published ranges.
	Verified bool
}

// majority returns the first of members whose verdicts for path (under
// RFC 9309 and the 1996 reading) most members share (a tie goes to the
// verdicts of the earlier member), and the members whose verdicts differ,
// in order.
func majority(f *robots.File, members []string, path string) (string, []string) {
	type verdicts struct{ rfc, old bool }
	of := make([]verdicts, len(members))
	count := map[verdicts]int{}
	for i, n := range members {
		of[i] = verdicts{f.Match(n, path).Allowed, f.Match1996(n, path).Allowed}
		count[of[i]]++
	}
	best := 0
	for i := range members {
		if count[of[i]] > count[of[best]] {
			best = i
		}
	}
	var others []string
	for i, n := range members {
		if of[i] != of[best] {
			others = append(others, n)
		}
	}
	return members[best], others
}

// agents lists every name the manifest's groups give, in order, then a
// column for each preset of each group, then the agents with a documented
// reading (robots.FallbackFor) that expect assertions name and that have
// no column yet, then "*" and an agent no group names.
//
// A preset adds up to 52 agents (154 for all of them), and a column each
// would bury the site's own names in a table nobody reads. The agents a
// preset adds to a group get that group's rules, so they share their
// verdicts except where another group names them too or a reader takes
// them for another name (Google reads AI2Bot-DeepResearchEval of ai-user
// as AI, the letters of ai-training's AI2Bot). So a preset has one column,
// headed by the preset's name: each cell gives the verdicts most of its
// members get, names the member asked, and names the members whose
// verdicts differ, which hides none of them. A fixed first member would
// mislead where that member is the odd one. Members that have a column
// of their own (a group names them) are left to it.
func agents(m *manifest.Site, cat *crawlers.Catalogue) []Agent {
	var out []Agent
	seen := map[string]bool{}
	for _, g := range m.Agents {
		for _, n := range g.Names {
			if n == "*" || seen[strings.ToLower(n)] {
				continue
			}
			seen[strings.ToLower(n)] = true
			out = append(out, Agent{Name: n, Note: "listed", Verified: g.Verified})
		}
	}
	for _, g := range m.Agents {
		for _, pr := range g.Presets {
			var members []string
			for _, n := range cat.Expand(nil, []string{pr}, g.ExceptAgents) {
				if !seen[strings.ToLower(n)] {
					seen[strings.ToLower(n)] = true
					members = append(members, n)
				}
			}
			if len(members) == 0 {
				continue
			}
			note := "preset: " + members[0]
			if len(members) > 1 {
				note = fmt.Sprintf("preset: %d agents, %s first", len(members), members[0])
			}
			out = append(out, Agent{Name: pr, Note: note, Preset: pr, Members: members})
		}
	}
	// An agent an expect assertion names whose operator documents its
	// reading gets its column even where no group names it
	// (Googlebot-Image read through the Googlebot group).
	for _, e := range m.Expect {
		if _, ok := robots.FallbackFor(e.Agent); !ok || seen[strings.ToLower(e.Agent)] {
			continue
		}
		seen[strings.ToLower(e.Agent)] = true
		out = append(out, Agent{Name: e.Agent, Note: "named by expect"})
	}
	out = append(out, Agent{Name: "*", Note: "the * group"})
	out = append(out, Agent{Name: unlisted(m, cat), Note: "not listed"})
	return out
}

// unlisted returns a name no listed name or preset agent contains, so that
// the 1996 reading, which matches by substring, sends it to "*" too.
func unlisted(m *manifest.Site, cat *crawlers.Catalogue) string {
	for _, n := range []string{"otherbot", "unlistedbot", "zzqbot"} {
		free := true
		for _, g := range m.Agents {
			for _, a := range cat.Expand(g.Names, g.Presets, g.ExceptAgents) {
				if strings.Contains(strings.ToLower(a), n) {
					free = false
				}
			}
		}
		if free {
			return n
		}
	}
	return "zzqxbot"
}
