package adopt

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/validate"
)

// Loss is a rule whose verdicts the manifest cannot keep for every URL:
// the verdicts of URLs that Pattern (as written in the input) matches may
// differ. Tests use it to tell an explained difference from a bug.
type Loss struct {
	Line    int
	Pattern string
	// Agent, when set, is an agent all of whose verdicts may differ: the
	// RFC 9110 token of a User-agent value that import shortens
	// (Mediapartners-Google* to Mediapartners-Google), and the shortened
	// name. Google's parser reads both lines the same; readers that keep
	// the RFC 9110 token, such as grobotstxt, do not.
	Agent string
}

// robotsPart is what one robots.txt becomes.
type robotsPart struct {
	groups   []manifest.Group
	sitemaps []string
	mobile   []manifest.MobileAgent
	host     string
	// usage is the preference lines outside every group, offered as the
	// site's usage.
	usage *manifest.Usage
	// license is the file's License line (rights.go).
	license *manifest.License
	// comments are keyed by group index (-1: before the groups, or the
	// file's other lines).
	comments map[int][]string
	losses   []Loss
	diags    diag.List
}

// agentConf is everything the input says to one product token.
type agentConf struct {
	name   string // as the manifest will name it
	first  int    // the first group naming it
	groups []int  // every group naming it, in order
}

// convGroup is one input group's lines as the manifest holds them.
type convGroup struct {
	allow, disallow []string
	crawlDelay      *json.Number
	extensions      []manifest.Extension
	usage           *manifest.Usage // the group's preference lines (usage.go)
	notes           []string        // YAML comments for lines not carried over
}

// importRobots reads a robots.txt file. file names it in diagnostics. A
// file past what a manifest may hold (importBounds) is refused with an
// error, before any work that grows with its size multiplied.
func importRobots(file string, data []byte) (*robotsPart, error) {
	rp := &robotsPart{comments: map[int][]string{}}
	warn := func(line int, format string, args ...any) {
		rp.diags.Warnf(diag.Pos{File: file, Line: line, Col: 1}, "", format, args...)
	}
	if len(data) > robots.MaxFileSize {
		warn(0, "%d bytes: RFC 9309 lets crawlers stop reading after %d KiB, and Google does; the whole file is imported", len(data), robots.MaxFileSize>>10)
	}
	f := robots.Parse(data)
	if err := importBounds(f); err != nil {
		return nil, fmt.Errorf("%s:%v", file, err)
	}
	// As lint, at most robots.MaxListed of each kind (the parse keeps no
	// more), and then their count: 500,000 lines without a key drew as
	// many warnings.
	for _, fd := range f.Findings {
		warn(fd.Line, "%s", fd.Message)
	}
	for _, code := range slices.Sorted(maps.Keys(f.More)) {
		warn(f.More[code].Line, "%d more lines like line %d are not listed", f.More[code].N, firstOf(f.Findings, code))
	}
	// Where the input means one thing to RFC 9309 readers and another to
	// 1996 ones, the manifest keeps the RFC 9309 verdict, and the built
	// file gives it to both.
	for _, fd := range robots.Lint(data) {
		if fd.Code == robots.CodeReadingsDiffer {
			warn(fd.Line, "%s; the manifest keeps the RFC 9309 verdict", fd.Message)
		}
	}

	order, confs := rp.agents(f, warn)
	conv := make([]*convGroup, len(f.Groups))
	for gi := range f.Groups {
		conv[gi] = rp.convertGroup(&f.Groups[gi], warn)
	}

	groupOf := rp.mergeGroups(f, order, confs, conv)
	rp.globals(f, data, warn)
	rp.attachComments(data, f, groupOf, warn)
	return rp, nil
}

// agents collects the product tokens of f's groups, in order of first
// appearance, with the groups that name each.
func (rp *robotsPart) agents(f *robots.File, warn func(line int, format string, args ...any)) ([]string, map[string]*agentConf) {
	var order []string
	confs := map[string]*agentConf{}
	for gi, g := range f.Groups {
		for _, a := range g.Agents {
			key, name := "*", "*"
			if !a.Global {
				name = importName(a)
				if name == "" {
					warn(a.Num, "User-agent: %s names no product token, so no crawler obeys this line; left out", a.Value)
					continue
				}
				key = strings.ToLower(name)
				if name != a.Value {
					warn(a.Num, "User-agent: %s is not a product token; imported as %s, the crawler's name without what follows it", a.Value, name)
				}
				// Google's parser reads the same letters in both lines;
				// readers that keep an RFC 9110 token (grobotstxt) read
				// the input's line as a name the manifest does not hold.
				if t := httpToken(a.Value); t != name {
					rp.losses = append(rp.losses, Loss{Line: a.Num, Agent: t}, Loss{Line: a.Num, Agent: name})
				}
			}
			c, ok := confs[key]
			if !ok {
				c = &agentConf{name: name, first: gi}
				confs[key] = c
				order = append(order, key)
			}
			if len(c.groups) == 0 || c.groups[len(c.groups)-1] != gi {
				c.groups = append(c.groups, gi) // groups come in order
			}
		}
	}
	return order, confs
}

// mergeGroups makes the manifest's groups: one per input group, for the
// tokens it names first; tokens whose merged lines differ get a group
// each. It returns, for each input group, the manifest group its comments
// go with.
func (rp *robotsPart) mergeGroups(f *robots.File, order []string, confs map[string]*agentConf, conv []*convGroup) []int {
	groupOf := make([]int, len(f.Groups))
	for i := range groupOf {
		groupOf[i] = -1
	}
	byFirst := make([][]string, len(f.Groups))
	for _, key := range order {
		byFirst[confs[key].first] = append(byFirst[confs[key].first], key)
	}
	// Tokens with the same merged lines share a group: within an input
	// group, and across adjacent ones (a built robots.txt writes a group
	// a token), which keeps the tokens in the file's order.
	lastSig := ""
	for gi := range f.Groups {
		bySig := map[string]int{}
		if len(rp.groups) > 0 {
			bySig[lastSig] = len(rp.groups) - 1
		}
		for _, key := range byFirst[gi] {
			c := confs[key]
			g := merged(c, conv)
			sig := signature(g)
			idx, ok := bySig[sig]
			if !ok {
				idx = len(rp.groups)
				bySig[sig] = idx
				lastSig = sig
				rp.groups = append(rp.groups, g)
				seen := map[string]bool{}
				for _, o := range c.groups {
					rp.comments[idx] = appendNew(rp.comments[idx], seen, conv[o].notes...)
				}
				if groupOf[gi] < 0 {
					groupOf[gi] = idx
				}
			} else {
				rp.groups[idx].Names = append(rp.groups[idx].Names, c.name)
				if groupOf[gi] < 0 {
					groupOf[gi] = idx // its comments go with it
				}
			}
			if len(c.groups) > 1 {
				var lines []string
				for i, o := range c.groups {
					if i == 10 {
						lines = append(lines, fmt.Sprintf("and %d more", len(c.groups)-10))
						break
					}
					lines = append(lines, strconv.Itoa(f.Groups[o].Agents[0].Num))
				}
				rp.comments[idx] = append(rp.comments[idx], fmt.Sprintf("%s: the groups of lines %s merged, as RFC 9309 merges the groups of one agent", c.name, strings.Join(lines, ", ")))
			}
		}
	}
	for gi := range f.Groups {
		if groupOf[gi] < 0 {
			// Every agent of the group was merged into an earlier one.
			for _, a := range f.Groups[gi].Agents {
				if c, ok := confs[agentKey(a)]; ok {
					groupOf[gi] = groupOf[c.first]
					break
				}
			}
		}
	}
	return groupOf
}

// globals reads the lines outside the groups: License, orphan lines
// (preference lines offered as the site's usage), Sitemap, Host and
// Mobile-agent-server.
func (rp *robotsPart) globals(f *robots.File, data []byte, warn func(line int, format string, args ...any)) {
	var orphanUsage usageImport
	rp.license = importLicense(data, warn)
	for _, l := range f.Orphans {
		if isLicense(l) {
			continue
		}
		rp.comments[-1] = append(rp.comments[-1], fmt.Sprintf("line %d, outside any group: %s: %s", l.Num, l.Key, l.Value))
		if ul, ok := robots.ParseUsageLine(l); ok {
			if ok, why, partly := orphanUsage.add(ul); ok {
				warn(l.Num, "%s: %s is outside every group, so every reader ignores it: offered as the site's usage, which the manifest writes in every group; kept as a comment too", l.Key, l.Value)
				for _, p := range partly {
					warn(l.Num, "%s: %s", l.Key, p)
				}
				continue
			} else {
				warn(l.Num, "%s: %s is outside every group, so every reader ignores it, and %s: kept as a comment", l.Key, l.Value, why)
				continue
			}
		}
		warn(l.Num, "%s: %s is outside any group; every reader ignores it: kept as a comment", l.Key, l.Value)
	}
	rp.usage = orphanUsage.usage()
	for _, l := range f.Sitemaps {
		u, err := url.Parse(l.Value)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(l.Value, " \t") || !plain(l.Value) {
			warn(l.Num, "Sitemap: %s is not an absolute http(s) URL: kept as a comment", l.Value)
			rp.comments[-1] = append(rp.comments[-1], fmt.Sprintf("line %d: Sitemap: %s", l.Num, l.Value))
			continue
		}
		if !slices.Contains(rp.sitemaps, l.Value) {
			rp.sitemaps = append(rp.sitemaps, l.Value)
		}
	}
	for i, l := range f.Hosts {
		if i > 0 || !robots.IsHost(l.Value) {
			warn(l.Num, "Host: %s: only one host name is kept: kept as a comment", l.Value)
			rp.comments[-1] = append(rp.comments[-1], fmt.Sprintf("line %d: Host: %s", l.Num, l.Value))
			continue
		}
		rp.host = l.Value
	}
	for _, l := range f.MobileAgents {
		fields := strings.Fields(l.Value)
		if len(fields) != 2 || !strings.HasPrefix(fields[0], "/") || !plain(l.Value) {
			warn(l.Num, "Mobile-agent-server: %s is not \"PATH SERVER\": kept as a comment", l.Value)
			rp.comments[-1] = append(rp.comments[-1], fmt.Sprintf("line %d: Mobile-agent-server: %s", l.Num, l.Value))
			continue
		}
		rp.mobile = append(rp.mobile, manifest.MobileAgent{Path: fields[0], Server: fields[1]})
	}
}

// maxOtherLines bounds the Crawl-delay and extension lines of all groups
// that import carries into a manifest.
const maxOtherLines = 2_000

// importBounds refuses a robots.txt that holds more than a manifest may
// (validate's MaxAgentNames and MaxRuleLines): one of 115,000 groups took
// 825 MB to import, and one of 4,999 agents over 250,000 rules more than
// two minutes, into a manifest that validation then refused. The error
// starts with the line that passes the bound. So is one past the lines
// robots.Parse reads (robots.MaxLines): of extension lines, or lines
// without a key, 1.4 million fit in the file import reads, and died
// under a 1 GiB address-space limit.
//
// A group's Crawl-delay and extension lines go into the manifest too,
// each a YAML mapping of its own, some 9 kB each in the encoder: 50,000
// of them, 150 kB of robots.txt, took it past 1 GiB of address space, and
// 10,000 past the 130 MiB a limit of 860 MiB leaves. Import carries up
// to maxOtherLines; real files have a few.
func importBounds(f *robots.File) error {
	if f.Cut > 0 {
		return fmt.Errorf("%d: more than %d lines that hold a field or text; import reads at most %d: not imported", f.Cut, robots.MaxLines, robots.MaxLines)
	}
	names := map[string]bool{}
	lines, others := 0, 0
	for _, g := range f.Groups {
		if others += len(g.Other); others > maxOtherLines {
			return fmt.Errorf("%d: more than %d Crawl-delay and extension lines; import carries at most %d into a manifest: not imported", g.Other[len(g.Other)-(others-maxOtherLines)].Num, maxOtherLines, maxOtherLines)
		}
		for _, a := range g.Agents {
			if names[agentKey(a)] = true; len(names) > validate.MaxAgentNames {
				return fmt.Errorf("%d: more than %d agent names; a manifest holds at most %d: not imported", a.Num, validate.MaxAgentNames, validate.MaxAgentNames)
			}
		}
		// Each agent of the group gets each of its rules.
		if lines += len(g.Agents) * len(g.Rules); lines > validate.MaxRuleLines {
			return fmt.Errorf("%d: more than %d rule lines (each group's agents times its Allow and Disallow lines); a manifest holds at most %d: not imported", g.Agents[0].Num, validate.MaxRuleLines, validate.MaxRuleLines)
		}
	}
	return nil
}

// importName is the manifest's name for a User-agent line: "*", the value
// as written when it is a crawler's name (Googlebot, MJ12bot), else the
// name without what follows it (Googlebot/2.1 gives Googlebot), else the
// product token Google's parser reads, or "" when the line names no
// crawler. A name with digits or dots is kept whole: the manifest writes
// the same line, which every reader reads as it read the input's.
func importName(a robots.Agent) string {
	if a.Global {
		return "*"
	}
	if n := robots.AgentName(a.Value); robots.IsAgentName(n) {
		return n
	}
	return a.Token
}

func agentKey(a robots.Agent) string { return strings.ToLower(importName(a)) }

// merged is the manifest group for one token: the lines of every group
// naming it, in file order.
func merged(c *agentConf, conv []*convGroup) manifest.Group {
	g := manifest.Group{Names: []string{c.name}}
	allow, disallow := map[string]bool{}, map[string]bool{}
	for _, gi := range c.groups {
		cg := conv[gi]
		g.Allow = appendNew(g.Allow, allow, cg.allow...)
		g.Disallow = appendNew(g.Disallow, disallow, cg.disallow...)
		if g.CrawlDelay == nil {
			g.CrawlDelay = cg.crawlDelay
		}
		g.Extensions = append(g.Extensions, cg.extensions...)
		g.Usage = mergeUsage(g.Usage, cg.usage)
	}
	return g
}

// appendNew appends the items not in list, keeping order; seen holds
// list's items and is updated.
func appendNew(list []string, seen map[string]bool, items ...string) []string {
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			list = append(list, it)
		}
	}
	return list
}

func signature(g manifest.Group) string {
	a, d := slices.Clone(g.Allow), slices.Clone(g.Disallow)
	slices.Sort(a)
	slices.Sort(d)
	cd := ""
	if g.CrawlDelay != nil {
		cd = string(*g.CrawlDelay)
	}
	return fmt.Sprintf("%q %q %q %q %s", a, d, cd, g.Extensions, usageSignature(g.Usage))
}

// convertGroup converts one input group's rules and other lines.
func (rp *robotsPart) convertGroup(g *robots.Group, warn func(int, string, ...any)) *convGroup {
	cg := &convGroup{}
	keep := func(l robots.Line, why string) {
		cg.notes = append(cg.notes, fmt.Sprintf("line %d, %s: %s: %s", l.Num, why, l.Key, l.Value))
	}
	allowSeen, disallowSeen := map[string]bool{}, map[string]bool{}
	canon := map[string]bool{} // canonical patterns written as such, by allow
	for _, r := range g.Rules {
		if robots.Canonical(r.Value) == r.Pattern {
			canon[fmt.Sprint(r.Allow, r.Pattern)] = true
		}
	}
	for _, r := range g.Rules {
		v := r.Value
		if v == "" {
			continue // an empty rule decides nothing
		}
		if why := neverMatches(v); why != "" {
			warn(r.Num, "%s: %s; no URL in normal form matches it: left out", r.String(), why)
			keep(r.Line, "matches no URL")
			continue
		}
		if i := strings.IndexByte(v, '$'); i >= 0 && i < len(v)-1 {
			warn(r.Num, "%s: Google reads a \"$\" inside a pattern literally, the manifest cannot hold one: left out", r.String())
			keep(r.Line, "not carried over")
			rp.losses = append(rp.losses, Loss{Line: r.Num, Pattern: v})
			continue
		}
		c := robots.Canonical(v)
		if g := r.Pattern; c != g {
			// An escaped unreserved character or a stray %: RFC 9309
			// decodes the first and Google compares it literally. The
			// %7E spelling of a rule also written with ~ is what discgen
			// writes itself, and loses nothing.
			if !(strings.ReplaceAll(g, "%7E", "~") == c && canon[fmt.Sprint(r.Allow, c)]) {
				warn(r.Num, "%s is read as %s: RFC 9309 decodes escaped unreserved characters, Google compares them as written; the manifest follows RFC 9309", r.String(), c)
				rp.losses = append(rp.losses, Loss{Line: r.Num, Pattern: v})
			}
		}
		if r.Allow {
			cg.allow = appendNew(cg.allow, allowSeen, c)
		} else {
			cg.disallow = appendNew(cg.disallow, disallowSeen, c)
		}
	}
	var ui usageImport
	defer func() {
		cg.usage = ui.usage()
		if c := ui.conflict(); len(c) > 0 {
			warn(g.Agents[0].Num, "the group's Content-Usage and Content-Signal lines disagree on %v: the manifest keeps no, as a reader of both would", c)
		}
	}()
	for _, l := range g.Other {
		if isLicense(l) {
			continue // importLicense
		}
		if ul, ok := robots.ParseUsageLine(l); ok {
			ok, why, partly := ui.add(ul)
			switch {
			case !ok:
				warn(l.Num, "%s: %s: kept as a comment", l.Key, why)
				keep(l, "not carried over")
			case len(partly) > 0:
				for _, p := range partly {
					warn(l.Num, "%s: %s: its other preferences are carried over, the line kept as a comment", l.Key, p)
				}
				keep(l, "carried over in part")
			}
			continue
		}
		switch {
		case l.Kind == robots.KindCrawlDelay:
			if cg.crawlDelay != nil {
				warn(l.Num, "a second Crawl-delay for the same agents: kept as a comment")
				keep(l, "not carried over")
				continue
			}
			if !jsonNumber.MatchString(l.Value) {
				warn(l.Num, "Crawl-delay: %s is not a number: kept as a comment", l.Value)
				keep(l, "not carried over")
				continue
			}
			n := json.Number(l.Value)
			cg.crawlDelay = &n
		case !robots.IsFieldName(l.Key) || !plain(l.Value):
			warn(l.Num, "%s is not a field name discgen can write: kept as a comment", l.Key)
			keep(l, "not carried over")
		default:
			warn(l.Num, "%s is not part of RFC 9309: kept in the group's extensions", l.Key)
			cg.extensions = append(cg.extensions, manifest.Extension{Field: l.Key, Value: l.Value})
		}
	}
	return cg
}

var jsonNumber = lazyre.New(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// neverMatches says why no URL in normal form can match pattern v, or "".
func neverMatches(v string) string {
	if v[0] != '/' && v[0] != '*' {
		return "a path starts with \"/\""
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 0x80 || c == '%' || c == '*' || c == '$' {
			continue
		}
		if s := string(c); robots.Canonical(s) != s {
			return fmt.Sprintf("%q is always escaped in a URL", c)
		}
	}
	return ""
}

// attachComments turns the input's comments into YAML comments: a comment
// on its own line goes with the group that follows it when only comments
// and blank lines come between, else with the group it is in; one after a
// value keeps its line number.
func (rp *robotsPart) attachComments(data []byte, f *robots.File, groupOf []int, warn func(int, string, ...any)) {
	starts := map[int]int{} // first line of a group -> group
	firstLine := make([]int, len(f.Groups))
	for gi, g := range f.Groups {
		starts[g.Agents[0].Num] = gi
		firstLine[gi] = g.Agents[0].Num
	}
	raw := splitLines(data)
	// next[i] is the first line after line i (0-based) that is neither
	// blank nor a comment, len(raw) when none is: found once, as a file
	// of a million comment lines would otherwise be read a million times.
	next := make([]int, len(raw))
	after := len(raw)
	for j := len(raw) - 1; j >= 0; j-- {
		next[j] = after
		if t := strings.TrimSpace(raw[j]); t != "" && t[0] != '#' {
			after = j
		}
	}
	n := 0
	fromFile := map[int][]string{}
	for i, line := range raw {
		num := i + 1
		h := strings.IndexByte(line, '#')
		if h < 0 {
			continue
		}
		text := strings.TrimSpace(line[h+1:])
		before := strings.TrimSpace(line[:h])
		if text == "" {
			continue
		}
		n++
		target := -1
		if before == "" {
			if j := next[i]; j < len(raw) {
				if gi, ok := starts[j+1]; ok {
					target = gi
				}
			}
		} else {
			text = fmt.Sprintf("%s (line %d, after %s)", text, num, before)
		}
		if target < 0 {
			// The last group starting at or before the comment's line.
			target = sort.SearchInts(firstLine, num+1) - 1
		}
		idx := -1
		if target >= 0 {
			idx = groupOf[target]
		}
		fromFile[idx] = append(fromFile[idx], text)
	}
	// The file's comments, in its order, come before the notes import
	// added to a group while converting it.
	for idx, cs := range fromFile {
		rp.comments[idx] = append(cs, rp.comments[idx]...)
	}
	if n > 0 {
		if n == 1 {
			warn(0, "1 comment is kept as a YAML comment; the built robots.txt has none")
		} else {
			warn(0, "%d comments are kept as YAML comments; the built robots.txt has none", n)
		}
	}
}

// splitLines splits as robots.Parse does: CR, LF and CR LF end a line.
func splitLines(data []byte) []string {
	s := strings.TrimPrefix(string(data), "\uFEFF")
	var out []string
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
}

// httpToken returns the leading RFC 9110 token of a User-agent value
// (letters, digits and !#$%&'*+-.^_`|~), the name some parsers match
// instead of RFC 9309's letters-only product token.
func httpToken(v string) string {
	i := 0
	for i < len(v) && (v[i] >= 'a' && v[i] <= 'z' || v[i] >= 'A' && v[i] <= 'Z' || v[i] >= '0' && v[i] <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", v[i]) >= 0) {
		i++
	}
	return v[:i]
}

// firstOf is the line of the first finding of code.
func firstOf(fs []robots.Finding, code string) int {
	for _, f := range fs {
		if f.Code == code {
			return f.Line
		}
	}
	return 0
}
