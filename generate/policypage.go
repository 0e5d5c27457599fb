package generate

import (
	"bytes"
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
// policy_page (design section 16) as of now: every crawler of the
// shipped catalogue, by preset, then each crawler the manifest names that
// the catalogue does not list, in order of first mention; for each, the
// groups that name it decide (the "*" groups for a crawler none names,
// and for a group with inherit_wildcard too), as RFC 9309 selects them.
// Nil when the manifest has no policy_page.
func PolicyPage(m *manifest.Site, now time.Time) *policypage.Page {
	if m.PolicyPage == "" {
		return nil
	}
	cat := crawlers.Default()
	pp := policyGroups(m)
	p := &policypage.Page{SiteURL: m.Site.URL, Built: now.UTC().Format(time.DateOnly), Catalogue: cat.Date}
	listed := map[string]bool{}
	for _, preset := range cat.Presets() {
		as, _ := cat.Preset(preset)
		s := policypage.Section{ID: "preset-" + preset, Title: preset, About: cat.Purposes[preset]}
		for _, a := range as {
			listed[strings.ToLower(a.Name)] = true
			c := pp.crawler(a.Name)
			c.Operator, c.Checked = a.Operator, a.Checked
			if a.Control {
				c.Operator += " (a control token: no crawler sends it; the operator's other crawlers read its rules to decide what they may use)"
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
			c := pp.crawler(n)
			c.Operator = search[k]
			if c.Operator == "" {
				c.Operator = "not in the catalogue"
			}
			other.Crawlers = append(other.Crawlers, c)
		}
	}
	if len(other.Crawlers) > 0 {
		p.Sections = append(p.Sections, other)
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
	p.Others = pp.crawler("*")
	return p
}

// RenderPolicyPage renders the page of PolicyPage.
func RenderPolicyPage(m *manifest.Site, now time.Time) ([]byte, error) {
	p := PolicyPage(m, now)
	if p == nil {
		return nil, nil
	}
	var b bytes.Buffer
	if err := policypage.Render(&b, p); err != nil {
		return nil, fmt.Errorf("policy_page: %v", err)
	}
	return b.Bytes(), nil
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
}

func policyGroups(m *manifest.Site) *policyIndex {
	x := &policyIndex{site: m}
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
// "*" or a name no group names).
func (x *policyIndex) crawler(name string) policypage.Crawler {
	c := policypage.Crawler{Name: name}
	k := strings.ToLower(name)
	var named []int
	if name != "*" {
		for i, g := range x.groups {
			if g.lower[k] {
				named = append(named, i)
			}
		}
	}
	decide := named
	if len(named) == 0 {
		decide = x.stars
	}
	for _, i := range named {
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
// at policy_page.
func policyPageFile(t tree.Tree, pos *manifest.Positions, m *manifest.Site, now time.Time) diag.List {
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
	data, err := RenderPolicyPage(m, now)
	if err != nil {
		errs.Errorf(pos.Of("policy_page"), "policy_page", "%v", err)
		return errs
	}
	put(t, p, data, &errs)
	return errs
}
