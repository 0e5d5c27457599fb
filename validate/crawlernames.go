package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
)

// maxHolders is how many crawlers a partOfKnown warning names.
const maxHolders = 5

// partOfKnown warns, at each agent's first mention (its names entry, or
// the presets entry that adds it), about the names the policy writes that
// are part of another known crawler's name (the catalogue's and the major
// search engines'): Python's urllib.robotparser, Ruby's webrobots and
// Perl's WWW::RobotRules give a robot the first record whose name is part
// of its own, and Python's protego and npm robots-txt-guard the one with
// the longest such name, so "Spider" would hand its rules to Baiduspider. A crawler
// the policy names itself is left out (R026 covers names part of one
// another), as is one documented to obey the shorter name's group anyway
// (Googlebot-Image follows Googlebot).
//
// The work is linear in the names written: one pass over the groups, then
// one index look-up per distinct name (crawlers.Index).
func (v *checker) partOfKnown(path string, groups []manifest.Group) {
	cat := crawlers.Default()
	type mention struct {
		name, path string
		preset     bool // written by a preset, not by the manifest
		ack        bool // the group acknowledges CodeSubstringName
	}
	var order []mention
	first := map[string]int{} // lower-cased name -> index into order
	note := func(name, at string, preset, ack bool) {
		k := strings.ToLower(name)
		if _, ok := first[k]; !ok && name != "*" && IsAgentName(name) {
			first[k] = len(order)
			order = append(order, mention{name, at, preset, ack})
		}
	}
	for i, g := range groups {
		gp := manifest.Index(path, i)
		except := map[string]bool{}
		for _, e := range g.ExceptAgents {
			except[strings.ToLower(e)] = true
		}
		for j, n := range g.Names {
			note(n, manifest.Index(manifest.Key(gp, "names"), j), false, false)
		}
		ack := slices.Contains(g.Acknowledge, CodeSubstringName)
		for j, p := range g.Presets {
			as, _ := cat.Preset(p)
			at := manifest.Index(manifest.Key(gp, "presets"), j)
			for _, a := range as {
				if !except[strings.ToLower(a.Name)] {
					note(a.Name, at, true, ack)
				}
			}
		}
	}
	ix := crawlers.Known()
	for _, m := range order {
		var holders []crawlers.Crawler
		for _, c := range ix.Holding(m.name) {
			_, written := first[strings.ToLower(c.Name)]
			if !written && !strings.EqualFold(c.Follows, m.name) {
				holders = append(holders, c)
			}
		}
		switch {
		case len(holders) == 0 || m.ack:
		case m.preset:
			v.warn(m.path, "%s%s", partOfKnownMessage(m.name, holders), ackNote(CodeSubstringName))
		default:
			v.warn(m.path, "%s", partOfKnownMessage(m.name, holders))
		}
	}
}

// partOfKnownMessage says which crawlers a name is part of (the search
// engines' first, as crawlers.Known orders them), and what the readers
// that match by substring make of it.
func partOfKnownMessage(name string, holders []crawlers.Crawler) string {
	var list []string
	for _, c := range holders[:min(len(holders), maxHolders)] {
		list = append(list, fmt.Sprintf("%s (%s)", c.Name, c.Operator))
	}
	more := ""
	if len(holders) > maxHolders {
		more = fmt.Sprintf(" and %d more", len(holders)-maxHolders)
	}
	return fmt.Sprintf("agent %s is part of the name of %s%s: %s give them %s's rules (they obey the first record whose name is part of the robot's name, protego and robots-txt-guard the one with the longest such name); name them in a group of their own to keep their rules, or write a more specific name than %s",
		name, strings.Join(list, ", "), more, robots.PartOfNameReaders, name, name)
}
