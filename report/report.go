// Package report describes a built site on one self-contained HTML page.
//
// The page shows which agent may fetch which URL and why (the rule and
// line of the built robots.txt that decides, and where the 1996 draft's
// reading differs), the delegation tree from the site to its inline
// delegatees and tenants, every file the build produces with its size,
// and every warning.
//
// The page embeds its style sheet and has no scripts and no external
// resources, so it reads the same offline, from an artifact store or on
// paper. Its bytes depend only on the input.
package report

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tree"
)

// Tenant is a tenant's built tree.
type Tenant struct {
	Manifest string
	Space    pathspace.Space
	Tree     tree.Tree
}

// Input is what a report is made from.
type Input struct {
	Manifest string // the manifest's path, as the user gave it
	Site     *manifest.Site
	Tree     tree.Tree // the site's built tree
	Tenants  []Tenant
	Diags    diag.List
	// URLs are extra URLs (paths or absolute URLs on the site) to ask about.
	URLs []string
	// Note is a line shown under the title, such as the build time.
	Note string
}

// Page is the data the template renders.
type Page struct {
	Title, Manifest, SiteURL, Note string
	Agents                         []Agent
	PresetAgents                   int // the members of the preset columns
	Rows                           []Row
	Differ                         int // cells where the 1996 reading differs
	Tree                           *Node
	Files                          []File
	Total                          int
	// Tenants counts the tenants; past listTenants their files are not
	// in Files but summed in TenantFiles and TenantBytes.
	Tenants, TenantFiles, TenantBytes int
	Diags                             []Diag
	Errors, Warnings                  int
	NoRobots                          bool
}

// Agent is a column of the matrix.
type Agent struct {
	Name string // the name asked with, or the preset's name
	Note string // "listed", "* group", "unlisted", or what a preset column holds
	// Preset names the preset of a preset's column; Members are the agents
	// the preset adds to its group that have no column of their own.
	Preset  string
	Members []string
}

// Row is a URL and its cells, one per agent.
type Row struct {
	Path    string
	Sources []string // where the URL comes from: expect, rule, sitemap, --url
	Cells   []Cell
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
	// fetch it (UsageText), "" where no preference line applies.
	Usage string
	// Operator is, where the agent's operator documents a fallback that
	// changes its group (Googlebot-Image obeying the Googlebot group), the
	// verdict its crawler applies and why (OperatorText); the cell's own
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

// Node is an authority in the delegation tree.
type Node struct {
	Space       string
	Kind        string // site, inline, tenant, delegation
	Grant       string // only/except as written
	Description string
	Files       []string
	Manifest    string
	Children    []*Node
	// Groups, for a delegation with more than listTenants tenants, holds
	// them in runs of groupTenants (Children is then empty), each folded
	// on the page, so that a host's thousands of users do not bury the
	// site's own authorities.
	Groups []Group
	// Tenants counts the tenants under a delegation.
	Tenants int
}

// Group is a run of tenants of one delegation, labelled by its first and
// last space.
type Group struct {
	Label string
	Nodes []*Node
}

// Past listTenants tenants under one delegation, the page folds them in
// groups of groupTenants and sums their files instead of listing each.
const (
	listTenants  = 100
	groupTenants = 500
)

// File is one produced file.
type File struct {
	Path string
	Size int
	Link string
}

// Diag is a warning or error.
type Diag struct {
	Severity, Text string
}

// Build computes the page.
func Build(in Input) *Page {
	m := in.Site
	p := &Page{Title: "discgen report: " + hostOf(m.Site.URL), Manifest: in.Manifest, SiteURL: m.Site.URL, Note: in.Note}
	data, ok := in.Tree["robots.txt"]
	p.NoRobots = !ok
	f := robots.Parse(data.Data)
	p.Agents = agents(m, crawlers.Default())
	for _, a := range p.Agents {
		p.PresetAgents += len(a.Members)
	}
	for _, u := range urls(m, in.URLs) {
		row := Row{Path: u.path, Sources: u.sources}
		for _, a := range p.Agents {
			name, others := a.Name, []string(nil)
			if a.Preset != "" {
				name, others = majority(f, a.Members, u.path)
			}
			r, d := f.Match(name, u.path), f.Match1996(name, u.path)
			c := Cell{Agent: name, Path: u.path, Allowed: r.Allowed, Rule: r.Rule, Line: r.Line,
				Differs: r.Allowed != d.Allowed, Rule1996: d.Rule, Line1996: d.Line,
				Preset: a.Preset, Share: len(a.Members) - len(others), Others: others}
			if c.Differs {
				p.Differ++
			}
			allowed, disallowed := r.Allowed && d.Allowed, !r.Allowed && !d.Allowed
			if v, op := f.MatchEffective(name, u.path); op != nil {
				// Checked as expect checks it: the documented reading alone.
				allowed, disallowed = v.Allowed, !v.Allowed
				if op.Fallback.Control {
					c.Control = op.Describe() + " (" + op.Fallback.Documented() + ")"
				} else {
					c.Operator, c.OperatorAllowed = OperatorText(*op), v.Allowed
					if v.Allowed {
						c.OperatorUsage = UsageText(f.UsageOperator(*op, u.path))
					}
				}
			}
			c.Expect = expectation(m.Expect, name, u.path, allowed, disallowed)
			if r.Allowed {
				c.Usage = UsageText(f.Usage(name, u.path))
			}
			row.Cells = append(row.Cells, c)
		}
		p.Rows = append(p.Rows, row)
	}
	p.Tree = delegationTree(m, in.Tree, in.Tenants)
	for _, path := range in.Tree.Paths() {
		e := in.Tree[path]
		p.Files = append(p.Files, File{Path: "/" + path, Size: len(e.Data), Link: e.Link})
		p.Total += len(e.Data)
	}
	for _, t := range in.Tenants {
		for _, path := range t.Tree.Paths() {
			e := t.Tree[path]
			if len(in.Tenants) <= listTenants {
				p.Files = append(p.Files, File{Path: strings.TrimSuffix(t.Space.String(), "/") + "/" + path, Size: len(e.Data), Link: e.Link})
			} else {
				p.TenantFiles++
				p.TenantBytes += len(e.Data)
			}
			p.Total += len(e.Data)
		}
	}
	p.Tenants = len(in.Tenants)
	for _, d := range in.Diags {
		p.Diags = append(p.Diags, Diag{d.Severity.String(), d.String()})
		if d.Severity == diag.Error {
			p.Errors++
		} else {
			p.Warnings++
		}
	}
	return p
}

func hostOf(s string) string {
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		return u.Host
	}
	return s
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
			out = append(out, Agent{Name: n, Note: "listed"})
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

// delegationTree is the site, its delegations with their grants, the
// inline delegatees and the tenants found under each.
func delegationTree(m *manifest.Site, t tree.Tree, tenants []Tenant) *Node {
	root := &Node{Space: "/", Kind: "site", Description: m.Site.Description, Files: autodiscFiles(t, "")}
	addDelegations(root, pathspace.Root, m.Delegations, t, tenants)
	return root
}

func addDelegations(n *Node, base pathspace.Space, dels []manifest.Delegation, t tree.Tree, tenants []Tenant) {
	for _, d := range dels {
		space, err := pathspace.Parse(base, d.Path)
		if err != nil {
			continue
		}
		c := &Node{Space: space.String(), Kind: "delegation", Grant: grant(d)}
		if d.Inline != nil {
			c.Kind = "inline"
			c.Description = d.Inline.Description
			c.Files = autodiscFiles(t, dirOf(space))
			addDelegations(c, space, d.Inline.Delegations, t, tenants)
		}
		if d.Tenants != "" {
			c.Manifest = d.Tenants
			var found []*Node
			for _, tn := range tenants {
				if pathspace.IsInstance(space, tn.Space) {
					found = append(found, &Node{Space: tn.Space.String(), Kind: "tenant", Manifest: tn.Manifest, Files: autodiscFiles(tn.Tree, "")})
				}
			}
			c.Tenants = len(found)
			if len(found) <= listTenants {
				c.Children = append(c.Children, found...)
			} else {
				for chunk := range slices.Chunk(found, groupTenants) {
					c.Groups = append(c.Groups, Group{Label: chunk[0].Space + " … " + chunk[len(chunk)-1].Space, Nodes: chunk})
				}
			}
		}
		n.Children = append(n.Children, c)
	}
}

func grant(d manifest.Delegation) string {
	switch {
	case d.Only != nil:
		return "only " + strings.Join(d.Only, ", ")
	case d.Except != nil:
		return "all except " + strings.Join(d.Except, ", ")
	}
	return "all files"
}

// autodiscFiles lists the files of dir/autodisc in t.
func autodiscFiles(t tree.Tree, dir string) []string {
	prefix := "autodisc/"
	if dir != "" {
		prefix = dir + "/autodisc/"
	}
	var out []string
	for _, p := range t.Paths() {
		if rest, ok := strings.CutPrefix(p, prefix); ok && !strings.Contains(rest, "/") {
			out = append(out, rest)
		}
	}
	return out
}

func dirOf(s pathspace.Space) string {
	segs := s.Segments()
	for i, seg := range segs {
		if u, err := url.PathUnescape(seg); err == nil {
			segs[i] = u
		}
	}
	return strings.Join(segs, "/")
}

// UsageText gives the preferences of a reading and the lines they come
// from ("train_ai=no, search=yes (lines 18, 20)"), both forms together (a
// "no" in either wins), or "" when no preference line applies.
func UsageText(r robots.UsageReading) string {
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

// OperatorText gives the verdict of an operator's documented reading and
// why: "Google's crawler: allowed, line 2: Allow: /public/ (it obeys the
// Googlebot group, as Googlebot-Image does where no group names it
// (Googlebot-Image, then Googlebot, then *); as documented at URL,
// recorded DATE)".
func OperatorText(r robots.OperatorReading) string {
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
