package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/discgen/discgen/aipref"
	"github.com/discgen/discgen/robots"
)

// A served robots.txt that a CDN or host changed after deployment
// (Cloudflare's managed block prepended, a platform's rewrite) differs
// from the build in bytes; what matters is whether it differs in meaning.
// Meaning compares the two files as crawlers read them: for every agent
// either file names, and for any other crawler ("*"), at "/" and at every
// path a rule of either file starts with, the fetch verdict (RFC 9309, as
// robots.File.Match reads it) and the usage preferences (Content-Usage and
// Content-Signal lines, as robots.File.Usage reads them), and the licence
// the first global License line names (RSL 1.0, as the rights package
// reads it; meaning_license.go). It also names
// the lines the server added or dropped: the lines between the longest
// common first and last lines of the two files (a linear comparison; a
// hostile file cannot make it slow), with a known block named.

// Limits on the probes, so that a served file of 500 KiB of rules cannot
// make verify ask millions of questions.
const (
	maxMeaningAgents = 256
	maxMeaningPaths  = 256
	maxMeaningShown  = 20 // differences listed before "and N more"
	// maxMeaningWork bounds questions times rules read (a few seconds at
	// most on a slow machine).
	maxMeaningWork = 20_000_000
)

// MeaningDiff is one agent whose reading of some paths changed.
type MeaningDiff struct {
	Agent  string   // a token, or "*" for any crawler no group names
	What   string   // "fetch" or "usage"
	Paths  []string // the paths probed where it changed
	Built  string   // what the build's file says there
	Served string   // what the served file says there
}

// Block is a run of lines one file holds and the other does not.
type Block struct {
	From, To int    // 1-based line numbers in the file that holds it
	Name     string // a known block ("Cloudflare's managed robots.txt"), or ""
}

// Meaning is what a served robots.txt changes in the built one.
type Meaning struct {
	Diffs          []MeaningDiff
	Added, Dropped []Block
	// Truncated says the probes were cut at the limits above.
	Truncated bool
	// BuiltLicense and ServedLicense are the licences the files name.
	BuiltLicense, ServedLicense LicenseReading
}

// knownBlocks name the blocks services add: the marker line and who adds
// it, with the page that documents it.
var knownBlocks = []struct{ marker, name string }{
	{"# BEGIN Cloudflare Managed content", "Cloudflare's managed robots.txt (https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/)"},
	{"# As a condition of accessing this website, you agree to abide by the", "Cloudflare's content signals policy (https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/)"},
}

// CompareRobots compares a built robots.txt with the one served.
func CompareRobots(built, served []byte) Meaning {
	var m Meaning
	b, s := robots.Parse(built), robots.Parse(served)
	// Past robots.MaxLines lines, a parse stops: the rest is not compared.
	m.Truncated = b.Cut > 0 || s.Cut > 0
	agents := map[string]string{} // lower-cased token -> as written first
	for _, f := range []*robots.File{b, s} {
		for _, g := range f.Groups {
			for _, a := range g.Agents {
				if !a.Global && a.Token != "" {
					if _, ok := agents[strings.ToLower(a.Token)]; !ok {
						agents[strings.ToLower(a.Token)] = a.Token
					}
				}
			}
		}
	}
	names := slices.Sorted(maps.Values(agents))
	if len(names) > maxMeaningAgents {
		names, m.Truncated = names[:maxMeaningAgents], true
	}
	paths := map[string]bool{"/": true}
	for _, f := range []*robots.File{b, s} {
		for _, g := range f.Groups {
			for _, r := range g.Rules {
				p, _, _ := strings.Cut(r.Pattern, "*")
				p = strings.TrimSuffix(p, "$")
				if strings.HasPrefix(p, "/") {
					paths[p] = true
				}
			}
			for _, l := range g.UsageOf().Lines {
				if strings.HasPrefix(l.Path, "/") {
					p, _, _ := strings.Cut(l.Path, "*")
					paths[strings.TrimSuffix(p, "$")] = true
				}
			}
		}
	}
	ps := slices.Sorted(maps.Keys(paths))
	if len(ps) > maxMeaningPaths {
		ps, m.Truncated = ps[:maxMeaningPaths], true
	}
	// Each question reads every rule of both files: keep the questions
	// times the rules within maxMeaningWork, cutting paths, then agents.
	work := 1
	for _, f := range []*robots.File{b, s} {
		for _, g := range f.Groups {
			work += len(g.Rules) + len(g.Other) + len(g.Agents)
		}
	}
	for (len(names)+1)*len(ps)*work > maxMeaningWork && len(ps) > 1 {
		ps, m.Truncated = ps[:len(ps)/2], true
	}
	for (len(names)+1)*len(ps)*work > maxMeaningWork && len(names) > 0 {
		names, m.Truncated = names[:len(names)/2], true
	}
	// "*" is probed as a token no group names.
	const anyAgent = "discgen-verify-unnamed-crawler"
	for _, a := range append([]string{"*"}, names...) {
		token := a
		if a == "*" {
			token = anyAgent
		}
		fetch := map[[2]string][]string{}
		usage := map[[2]string][]string{}
		var fetchOrder, usageOrder [][2]string
		for _, p := range ps {
			bv, sv := b.Match(token, p), s.Match(token, p)
			if bv.Allowed != sv.Allowed {
				k := [2]string{verdictText(bv), verdictText(sv)}
				if _, ok := fetch[k]; !ok {
					fetchOrder = append(fetchOrder, k)
				}
				fetch[k] = append(fetch[k], p)
			}
			bu, su := b.Usage(token, p), s.Usage(token, p)
			if bt, st := usageText(bu), usageText(su); bt != st {
				k := [2]string{bt, st}
				if _, ok := usage[k]; !ok {
					usageOrder = append(usageOrder, k)
				}
				usage[k] = append(usage[k], p)
			}
		}
		for _, k := range fetchOrder {
			m.Diffs = append(m.Diffs, MeaningDiff{Agent: a, What: "fetch", Paths: fetch[k], Built: k[0], Served: k[1]})
		}
		for _, k := range usageOrder {
			m.Diffs = append(m.Diffs, MeaningDiff{Agent: a, What: "usage", Paths: usage[k], Built: k[0], Served: k[1]})
		}
	}
	m.Added, m.Dropped = lineBlocks(built, served)
	m.BuiltLicense, m.ServedLicense = readLicense(built), readLicense(served)
	return m
}

func verdictText(v robots.Verdict) string {
	w := "disallowed"
	if v.Allowed {
		w = "allowed"
	}
	if v.Rule == "" {
		return w + " (no rule matches)"
	}
	return fmt.Sprintf("%s (line %d: %s)", w, v.Line, v.Rule)
}

func usageText(u robots.UsageReading) string {
	return fmt.Sprintf("Content-Usage %s; Content-Signal %s", u.ContentUsage, u.ContentSignal)
}

// lineBlocks returns the served lines the build does not hold and the
// built lines the server dropped: what lies between the files' common
// first lines and common last lines.
func lineBlocks(built, served []byte) (added, dropped []Block) {
	bl, sl := splitLines(built), splitLines(served)
	pre := 0
	for pre < len(bl) && pre < len(sl) && bl[pre] == sl[pre] {
		pre++
	}
	suf := 0
	for suf < len(bl)-pre && suf < len(sl)-pre && bl[len(bl)-1-suf] == sl[len(sl)-1-suf] {
		suf++
	}
	if n := len(sl) - pre - suf; n > 0 {
		added = append(added, Block{From: pre + 1, To: pre + n, Name: blockName(sl[pre : pre+n])})
	}
	if n := len(bl) - pre - suf; n > 0 {
		dropped = append(dropped, Block{From: pre + 1, To: pre + n})
	}
	return added, dropped
}

func splitLines(data []byte) []string {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func blockName(lines []string) string {
	var names []string
	for _, k := range knownBlocks {
		if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), k.marker) }) {
			names = append(names, k.name)
		}
	}
	return strings.Join(names, "; ")
}

// Report puts a Meaning on a robots.txt result: each difference in
// meaning is a problem (at most maxMeaningShown, then how many more); the
// added and dropped lines are notes; with no difference in meaning the
// byte difference is a note.
func (m Meaning) Report(r *Result, servedLen, builtLen int) {
	for _, a := range m.Added {
		what := "lines"
		if a.Name != "" {
			what = a.Name + ", lines"
		}
		r.Notes = append(r.Notes, fmt.Sprintf("the server added %s %d-%d, which the build does not hold", what, a.From, a.To))
	}
	for _, d := range m.Dropped {
		r.Notes = append(r.Notes, fmt.Sprintf("the server dropped lines %d-%d of the build", d.From, d.To))
	}
	if m.Truncated {
		r.Notes = append(r.Notes, "the served file is too large to compare every agent at every path: meaning compared for some only")
	}
	sameLicense := m.reportLicense(r)
	if len(m.Diffs) == 0 && m.Truncated {
		r.fail("differs from the build (%d bytes served, %d built), and is too large to compare by meaning for every agent and path", servedLen, builtLen)
		return
	}
	if len(m.Diffs) == 0 && sameLicense {
		same := "every agent's fetch verdicts and usage preferences are the same"
		if m.BuiltLicense.URL != "" {
			same = "every agent's fetch verdicts and usage preferences, and the licence, are the same"
		}
		r.Notes = append(r.Notes, fmt.Sprintf("differs from the build in bytes (%d served, %d built), not in meaning: %s", servedLen, builtLen, same))
		return
	}
	for i, d := range m.Diffs {
		if i == maxMeaningShown {
			r.fail("and %d more differences in meaning", len(m.Diffs)-i)
			break
		}
		who := d.Agent
		if who == "*" {
			who = "any crawler no group names (*)"
		}
		r.fail("differs from the build in meaning for %s at %s: %s %s in the build, %s as served", who, strings.Join(d.Paths, ", "), d.What, d.Built, d.Served)
	}
}

// sameUsage reports whether two Content-Usage values state the same
// preferences (RFC 9651 dictionaries read as draft-ietf-aipref-vocab-07
// reads them: members in any order, several header lines joined with
// commas), each readable without problems.
func sameUsage(got, want string) bool {
	g, gp := aipref.ParseUsage(got)
	w, wp := aipref.ParseUsage(want)
	return len(gp) == 0 && len(wp) == 0 && g == w
}
