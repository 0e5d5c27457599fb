package generate

import (
	"slices"
	"strconv"
	"strings"

	"github.com/discgen/discgen/aipref"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/robots"
)

// sitePolicy is the robots policy of a site manifest: its groups, each
// with its effective usage preferences (the site's, under the group's
// own), and the site's preferences for crawlers no group names.
func sitePolicy(m *manifest.Site) robots.Policy {
	p := policy(m.Agents, sitemapURLs(m), m.MobileAgents, m.Host)
	for i, g := range m.Agents {
		p.Groups[i].Usage = EffectiveUsage(m.Usage, g.Usage)
	}
	p.Usage = EffectiveUsage(m.Usage, nil)
	p.Licenses = licenseLines(m)
	return p
}

// EffectiveUsage merges a group's usage preferences over the site's: a
// preference the group states wins; path-scoped preferences of both are
// kept, the group's winning for the same path; the group's formats, if it
// gives any, else the site's. Nil when neither states anything.
func EffectiveUsage(site, group *manifest.Usage) *robots.Usage {
	if site == nil && group == nil {
		return nil
	}
	u := &robots.Usage{}
	var formats []string
	for _, m := range []*manifest.Usage{site, group} {
		if m == nil {
			continue
		}
		u.Prefs = aipref.PrefsOf(m.TrainAI, m.Search, m.AIInput).Over(u.Prefs)
		if m.Use != "" {
			u.Use = m.Use
		}
		for _, p := range m.Paths {
			u.Paths = append(u.Paths, robots.UsagePath{Path: p.Path, Prefs: aipref.PrefsOf(p.TrainAI, p.Search, p.AIInput)})
		}
		if len(m.Formats) > 0 {
			formats = m.Formats
		}
	}
	u.ContentUsage, u.ContentSignal = model.UsageFormats(&manifest.Usage{Formats: formats})
	if u.IsZero() {
		return nil
	}
	return u
}

// expectUsageURLs returns the URLs an expect entry's usage is checked at.
func expectUsageURLs(e manifest.Expect) []string {
	if len(e.URLs) == 0 {
		return []string{"/"}
	}
	return e.URLs
}

// checkExpectUsage checks an expect entry's usage assertion against the
// emitted file: at each URL the agent may fetch (preferences apply only
// there), the preferences it reads, both forms combined (a "no" wins), are
// those the entry states.
func checkExpectUsage(doc *manifest.Doc[manifest.Site], f *robots.File, i int, e manifest.Expect) diag.List {
	var errs diag.List
	if e.Usage == nil {
		return nil
	}
	ep := manifest.Index("expect", i)
	want := aipref.PrefsOf(e.Usage.TrainAI, e.Usage.Search, e.Usage.AIInput)
	for j, u := range expectUsageURLs(e) {
		at := manifest.Key(ep, "usage")
		if len(e.URLs) > 0 {
			at = manifest.Index(manifest.Key(ep, "urls"), j)
		}
		v, op := f.MatchEffective(e.Agent, u)
		if !v.Allowed {
			under := ""
			if op != nil && op.Changed() {
				under = " under " + readingName(op)
			}
			errs.Errorf(doc.Pos.Of(at), at, "%s may not fetch %s%s%s: usage preferences apply only where it may", e.Agent, u, under, decidedBy(v))
			continue
		}
		r := f.Usage(e.Agent, u)
		if op != nil && op.Changed() {
			r = f.UsageOperator(*op, u)
		}
		got := r.Combined()
		for _, c := range aipref.Categories {
			w := c.Get(want)
			if w == aipref.PrefUnset || c.Get(got) == w {
				continue
			}
			errs.Errorf(doc.Pos.Of(at), at, "%s reads %s=%s at %s, expected %s%s", e.Agent, c.Manifest, c.Get(got), u, w, usageLines(r))
		}
	}
	return errs
}

// usageLines names the robots.txt lines a reading comes from.
func usageLines(r robots.UsageReading) string {
	lines := append(slices.Clone(r.ContentUsageLines), r.ContentSignalLines...)
	if len(lines) == 0 {
		return " (no preference line applies)"
	}
	slices.Sort(lines)
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = strconv.Itoa(l)
	}
	return " (robots.txt lines " + strings.Join(parts, ", ") + ")"
}

// usageDiags checks what the robots.txt preference lines of each group (and
// of the "*" record that carries the site's usage) can say: a path
// Content-Usage cannot write under one it can is refused, since its
// readers would read the other path's preferences there; a category some
// path overrides is left out of Content-Signal (robots.Usage.SignalPrefs),
// with a warning at the path that overrides it.
func usageDiags(doc *manifest.Doc[manifest.Site]) diag.List {
	var errs diag.List
	m := doc.Value
	warned := map[string]bool{}
	check := func(gi int, u *robots.Usage) {
		if u == nil {
			return
		}
		if path, under := u.Unwritable(); path != "" && u.ContentUsage {
			at := usagePathKey(m, gi, path, "path")
			if !warned[at] {
				warned[at] = true
				errs.Errorf(doc.Pos.Of(at), at, "%s states nothing Content-Usage can say (train_ai or search, its own or its group's), so it has no Content-Usage line, and a reader of Content-Usage would read the preferences of %s there: give it train_ai or search", path, under)
			}
		}
		if !u.ContentSignal {
			return
		}
		for _, c := range u.SignalLeftOut() {
			for _, p := range u.Paths {
				v := c.Get(p.Prefs)
				if v == aipref.PrefUnset || v == c.Get(u.Prefs) {
					continue
				}
				at := usagePathKey(m, gi, robots.Canonical(p.Path), c.Manifest)
				if warned[at] {
					break
				}
				warned[at] = true
				others := "Content-Usage and the Content-Usage header say it per path"
				if c.ContentUsage == "" {
					others = "no other form can say " + c.Manifest + ", so it is not written at all"
				} else if !u.ContentUsage {
					others = "formats has no content-usage, so it is not written at all"
				}
				group := "its group says " + c.Get(u.Prefs).String()
				if c.Get(u.Prefs) == aipref.PrefUnset {
					group = "its group states none"
				}
				errs.Warnf(doc.Pos.Of(at), at, "%s is left out of Content-Signal: %s says %s where %s, and Content-Signal has no path, so a value it gave would be read here too; crawlers that read only Content-Signal see no %s preference anywhere; %s",
					c.Manifest, p.Path, v, group, c.Manifest, others)
				break
			}
		}
	}
	for i, g := range m.Agents {
		check(i, EffectiveUsage(m.Usage, g.Usage))
	}
	check(-1, EffectiveUsage(m.Usage, nil))
	return errs
}

// usagePathKey returns the manifest key of field of the path-scoped
// preference for canonical path that group gi's effective usage takes:
// the group's own, else the site's (gi -1: the site's).
func usagePathKey(m *manifest.Site, gi int, path, field string) string {
	if gi >= 0 && m.Agents[gi].Usage != nil {
		ps := m.Agents[gi].Usage.Paths
		for j := len(ps) - 1; j >= 0; j-- {
			if robots.Canonical(ps[j].Path) == path {
				return manifest.Key(manifest.Index(manifest.Key(manifest.Key(manifest.Index("agents", gi), "usage"), "paths"), j), field)
			}
		}
	}
	if m.Usage != nil {
		ps := m.Usage.Paths
		for j := len(ps) - 1; j >= 0; j-- {
			if robots.Canonical(ps[j].Path) == path {
				return manifest.Key(manifest.Index(manifest.Key("usage", "paths"), j), field)
			}
		}
	}
	return "usage"
}

// HeaderUsage returns the preferences the Content-Usage header says: a
// response is the same for every crawler, so it says the site's usage
// without the categories a group gives another value anywhere (a crawler
// of that group would read the site's value where its own differs). A
// category left out is warned at the group that changes it. When what is
// left has a path the header cannot write under one it can
// (robots.Usage.Unwritable), no header is sent, with a warning. The
// warnings are for builds that write --server configuration.
func HeaderUsage(s *model.Site) (*robots.Usage, diag.List) {
	doc := s.Doc()
	var errs diag.List
	m := doc.Value
	site := EffectiveUsage(m.Usage, nil)
	var dropped []aipref.Category
	isDropped := map[string]bool{}
	for i, g := range m.Agents {
		if g.Usage == nil {
			continue
		}
		eg := EffectiveUsage(m.Usage, g.Usage)
		for _, c := range aipref.Categories {
			if c.ContentUsage == "" || isDropped[c.Manifest] || site.Agrees(eg, c) {
				continue
			}
			isDropped[c.Manifest] = true
			dropped = append(dropped, c)
			at := manifest.Key(manifest.Index("agents", i), "usage")
			if g.Usage.TrainAI != "" && c.Manifest == "train_ai" || g.Usage.Search != "" && c.Manifest == "search" {
				at = manifest.Key(at, c.Manifest)
			}
			errs.Warnf(doc.Pos.Of(at), at, "%s is left out of the Content-Usage header (--server): a response is the same for every crawler, and this group's %s differs from the site's usage, so crawlers that read the header see no %s preference; robots.txt says it per group",
				c.Manifest, c.Manifest, c.Manifest)
		}
	}
	h := site.Without(dropped...)
	if h == nil {
		return nil, errs
	}
	if path, under := h.Unwritable(); path != "" {
		errs.Warnf(doc.Pos.Of("usage"), "usage", "no Content-Usage header is sent (--server): without the categories the groups change, %s states nothing the header can say and lies under %s, whose value a reader would read there", path, under)
		return nil, errs
	}
	return h, errs
}
