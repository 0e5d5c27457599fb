package generate

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/discgen/discgen/aipref"
	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/policypage"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tree"
)

// PolicyPage computes the page of a validated site manifest's
// policy_page (design section 16): every crawler of the shipped
// catalogue, by preset, then each crawler the manifest names that the
// catalogue does not list, in order of first mention, then each crawler
// whose operator documents that it obeys another of its crawlers' groups
// where that changes what it reads here. For each, the groups that name
// it decide (the "*" groups for a crawler none names, and for a group
// with inherit_wildcard too), as RFC 9309 selects them, or as its
// operator documents reading the file: the reading the report and expect
// apply (robots.File.MatchOperator on the robots.txt the build writes).
// A control token (Google-Extended) fetches nothing: its row says what
// use its group allows, and the server's refusals, throttles and address
// checks, which act on requests, say nothing of it. The page is dated by
// the catalogue, not by the build. Nil when the manifest has no
// policy_page.
func PolicyPage(m *manifest.Site) *policypage.Page {
	if m.PolicyPage == "" {
		return nil
	}
	cat := crawlers.Default()
	pp := policyGroups(m)
	p := &policypage.Page{SiteURL: m.Site.URL, Catalogue: cat.Date}
	listed := map[string]bool{}
	for _, preset := range cat.Presets() {
		as, _ := cat.Preset(preset)
		s := policypage.Section{ID: "preset-" + preset, Title: preset, About: cat.Purposes[preset]}
		for _, a := range as {
			listed[strings.ToLower(a.Name)] = true
			c := pp.crawler(a.Name, a.Control)
			c.Operator, c.Checked = a.Operator, a.Checked
			if a.Control && c.Reading == "" {
				c.Reading = "control token: never fetches; its group says what use is allowed (" + cat.SourceText(a) + ")"
			}
			s.Crawlers = append(s.Crawlers, c)
		}
		p.Sections = append(p.Sections, s)
	}
	search := map[string]string{}
	for _, sc := range crawlers.Search().Crawlers {
		search[strings.ToLower(sc.Name)] = sc.Operator
	}
	other := policypage.Section{ID: "named", Title: "Other crawlers this site names",
		About: "Crawlers the site's configuration names that discgen's catalogue does not list."}
	for _, g := range pp.groups {
		for _, n := range g.agents {
			k := strings.ToLower(n)
			if n == "*" || listed[k] {
				continue
			}
			listed[k] = true
			c := pp.crawler(n, false)
			c.Operator = search[k]
			if c.Operator == "" {
				if fb, ok := robots.FallbackFor(n); ok {
					c.Operator = fb.Operator
				} else {
					c.Operator = "not in the catalogue"
				}
			}
			other.Crawlers = append(other.Crawlers, c)
		}
	}
	if len(other.Crawlers) > 0 {
		p.Sections = append(p.Sections, other)
	}
	follow := policypage.Section{ID: "fallbacks", Title: "Crawlers that obey another crawler's group",
		About: "Crawlers no group of this site names whose operator documents that they then obey the group of another of its crawlers, which this site names."}
	for _, fb := range robots.Fallbacks() {
		k := strings.ToLower(fb.Token)
		if listed[k] || fb.Control {
			continue // a control token no group names says nothing here
		}
		c := pp.crawler(fb.Token, false)
		if c.Reading == "" {
			continue
		}
		listed[k] = true
		c.Operator = fb.Operator
		follow.Crawlers = append(follow.Crawlers, c)
	}
	if len(follow.Crawlers) > 0 {
		p.Sections = append(p.Sections, follow)
	}
	for _, s := range p.Sections {
		for _, c := range s.Crawlers {
			if c.Refused {
				p.Refused = append(p.Refused, c.Name)
			}
			if c.Throttle != "" {
				p.Throttled = append(p.Throttled, c.Name)
			}
			if c.Verified {
				p.Verified = append(p.Verified, c.Name)
			}
		}
	}
	p.Others = pp.crawler("*", false)
	return p
}

// RenderPolicyPage renders the page of PolicyPage, with its revision.
func RenderPolicyPage(m *manifest.Site) ([]byte, error) {
	p := PolicyPage(m)
	if p == nil {
		return nil, nil
	}
	data, err := policypage.Rendered(p)
	if err != nil {
		return nil, fmt.Errorf("policy_page: %v", err)
	}
	return data, nil
}

// policyGroup is a manifest group with the agents it names (its names and
// its presets'), lower-cased for the look-up.
type policyGroup struct {
	g      manifest.Group
	agents []string
	lower  map[string]bool
	star   bool
}

type policyIndex struct {
	site   *manifest.Site
	groups []policyGroup
	stars  []int // the groups that name "*"
	// file is the robots.txt the build writes, read back, for the
	// operators' documented readings; nil when it cannot be written (the
	// build says why at agents).
	file *robots.File
}

func policyGroups(m *manifest.Site) *policyIndex {
	x := &policyIndex{site: m}
	if data, err := robots.Emit(sitePolicy(m)); err == nil {
		x.file = robots.Parse(data)
	}
	for i, g := range m.Agents {
		pg := policyGroup{g: g, agents: GroupAgents(g), lower: map[string]bool{}}
		for _, a := range pg.agents {
			pg.lower[strings.ToLower(a)] = true
			if a == "*" {
				pg.star = true
			}
		}
		if pg.star {
			x.stars = append(x.stars, i)
		}
		x.groups = append(x.groups, pg)
	}
	return x
}

// crawler is what name reads: the groups that name it decide ("*"'s for
// "*" or a name no group names), or, where its operator documents another
// reading that changes the groups (robots.OperatorReading), the groups of
// the token that reading chooses. control is set for a control token of
// the catalogue; one robots.FallbackFor knows is one too.
func (x *policyIndex) crawler(name string, control bool) policypage.Crawler {
	c := policypage.Crawler{Name: name}
	var named []int
	if name != "*" {
		named = x.naming(name)
	}
	decide, via := named, named
	if len(named) == 0 {
		decide = x.stars
	}
	if x.file != nil && name != "*" {
		if r, ok := x.file.MatchOperator(name, "/"); ok {
			control = control || r.Fallback.Control
			switch {
			case r.Fallback.Control:
				c.Reading = r.Describe() + " (" + r.Fallback.Documented() + ")"
			case r.Changed():
				c.Reading = "it " + r.Describe() + " (" + r.Fallback.Documented() + ")"
				via = nil
				switch r.Group {
				case "*":
					decide = x.stars
				case "":
					decide = nil
				default:
					via = x.naming(r.Group)
					decide = via
				}
			}
		}
	}
	for _, i := range via {
		if x.groups[i].g.InheritWildcard {
			for _, s := range x.stars {
				if !slices.Contains(decide, s) {
					decide = append(decide, s)
				}
			}
			break
		}
	}
	slices.Sort(decide)
	var allows, disallows int
	var all bool // a Disallow of the whole site
	var prefs aipref.Prefs
	var paths []robots.UsagePath
	var usage bool
	for _, i := range decide {
		g := x.groups[i].g
		for _, a := range g.Allow {
			if a != "" {
				c.Rules = append(c.Rules, "Allow: "+a)
				allows++
			}
		}
		for _, d := range g.Disallow {
			if d != "" {
				c.Rules = append(c.Rules, "Disallow: "+d)
				disallows++
				all = all || d == "/" || d == "/*"
			}
		}
		if u := EffectiveUsage(x.site.Usage, g.Usage); u != nil {
			usage = true
			prefs = u.Prefs.Over(prefs)
			paths = append(paths, u.Paths...)
		}
	}
	if len(decide) == 0 {
		if u := EffectiveUsage(x.site.Usage, nil); u != nil {
			usage = true
			prefs, paths = u.Prefs, u.Paths
		}
	}
	switch {
	case disallows == 0:
		c.Fetch = "all"
	case all && allows == 0:
		c.Fetch = "none"
	default:
		c.Fetch = "some"
	}
	c.Use = "none stated"
	if usage && !prefs.IsZero() {
		c.Use = prefs.String()
	}
	seen := map[string]bool{}
	for _, up := range paths {
		if s := up.Path + ": " + up.Prefs.String(); !seen[s] && !up.Prefs.IsZero() {
			seen[s] = true
			c.UsePaths = append(c.UsePaths, s)
		}
	}
	if control {
		// Nothing fetches with its name: the server has no request of
		// its to refuse, slow or check. Its rules say what use is allowed.
		c.Fetch = "never"
		switch {
		case disallows == 0:
			c.Controls = "use allowed"
		case all && allows == 0:
			c.Controls = "use refused"
		default:
			c.Controls = "use refused where the rules disallow"
		}
		return c
	}
	// The server acts on the name a request claims (serverconf reads
	// Googlebot-Image/1.0 as claiming Googlebot-Image, not Googlebot), so
	// its refusals, throttles and checks are those of the groups naming
	// the crawler itself, whatever groups its operator's reading obeys.
	for _, i := range named {
		g := x.groups[i].g
		c.Refused = c.Refused || g.Enforce && c.Fetch != "all"
		c.Verified = c.Verified || g.Verified
		if g.Throttle != nil && c.Throttle == "" {
			c.Throttle = fmt.Sprintf("%s, burst %d", g.Throttle.Rate, g.Throttle.Burst)
		}
	}
	return c
}

// policyPageFile puts the policy page into the site's tree, last, so that
// a path the build writes already, or below a file it writes, is an error
// at policy_page. The build's time is not read: the page is dated by the
// crawler catalogue, so that a build on another day writes it again alike.
func policyPageFile(t tree.Tree, pos *manifest.Positions, m *manifest.Site, _ time.Time) diag.List {
	var errs diag.List
	if m.PolicyPage == "" {
		return nil
	}
	p := strings.TrimPrefix(m.PolicyPage, "/")
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			if _, ok := t[p[:i]]; ok {
				errs.Errorf(pos.Of("policy_page"), "policy_page", "%s lies below /%s, a file the build writes", m.PolicyPage, p[:i])
				return errs
			}
		}
	}
	if _, ok := t[p]; ok {
		errs.Errorf(pos.Of("policy_page"), "policy_page", "%s is a file the build writes already", m.PolicyPage)
		return errs
	}
	data, err := RenderPolicyPage(m)
	if err != nil {
		errs.Errorf(pos.Of("policy_page"), "policy_page", "%v", err)
		return errs
	}
	put(t, p, data, &errs)
	return errs
}

// naming returns the groups that name agent (compared case-insensitively).
func (x *policyIndex) naming(agent string) []int {
	k := strings.ToLower(agent)
	var out []int
	for i, g := range x.groups {
		if g.lower[k] {
			out = append(out, i)
		}
	}
	return out
}
