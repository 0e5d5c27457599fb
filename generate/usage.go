package generate

import (
	"slices"
	"strconv"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/validate"
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
		u.Prefs = robots.PrefsOf(m.TrainAI, m.Search, m.AIInput).Over(u.Prefs)
		for _, p := range m.Paths {
			u.Paths = append(u.Paths, robots.UsagePath{Path: p.Path, Prefs: robots.PrefsOf(p.TrainAI, p.Search, p.AIInput)})
		}
		if len(m.Formats) > 0 {
			formats = m.Formats
		}
	}
	u.ContentUsage, u.ContentSignal = validate.UsageFormats(&manifest.Usage{Formats: formats})
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
	want := robots.PrefsOf(e.Usage.TrainAI, e.Usage.Search, e.Usage.AIInput)
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
		for _, c := range robots.Categories {
			w := c.Get(want)
			if w == robots.PrefUnset || c.Get(got) == w {
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
