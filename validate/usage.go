package validate

import (
	"slices"
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/robots"
)

// usage checks usage preferences (the site's or a group's): path-scoped
// preferences have paths as Allow and Disallow do, each path once, each
// stating something; and it warns where a form that is written cannot say
// a preference (draft-ietf-aipref-vocab-07 has no ai-input category;
// Content-Signal has no path), rather than drop it silently.
func (v *checker) usage(path string, u *manifest.Usage) {
	if u == nil {
		return
	}
	cu, cs := model.UsageFormats(u)
	if u.AIInput != "" {
		if cs {
			v.warn(manifest.Key(path, "ai_input"), "ai_input is written as Content-Signal only: Content-Usage (draft-ietf-aipref-vocab-07) and the Content-Usage header have no category for it")
		} else {
			v.warn(manifest.Key(path, "ai_input"), "ai_input is not written: formats has no content-signal, and Content-Usage (draft-ietf-aipref-vocab-07) has no category for it")
		}
	}
	if u.Use != "" && !cs {
		v.warn(manifest.Key(path, "use"), "use is not written: formats has no content-signal, and Content-Usage (draft-ietf-aipref-vocab-07) has no such key")
	}
	if u.TrainAI == "" && u.Search == "" && u.AIInput == "" && u.Use == "" && len(u.Paths) == 0 {
		v.warn(path, "usage states no preference (train_ai, search, ai_input, use or paths)")
	}
	seen := map[string]string{}
	stated := false
	for i, p := range u.Paths {
		ip := manifest.Index(manifest.Key(path, "paths"), i)
		pp := manifest.Key(ip, "path")
		if v.rulePath(pp, p.Path, "robots.txt") {
			c := robots.Canonical(p.Path)
			if first, dup := seen[c]; dup {
				v.err(pp, "%q is given twice (first at %s)", p.Path, first)
			}
			seen[c] = v.pos.Of(pp).String()
		}
		if p.TrainAI == "" && p.Search == "" && p.AIInput == "" {
			v.err(ip, "%q states no preference: give train_ai, search or ai_input", p.Path)
			continue
		}
		if p.AIInput != "" {
			v.warn(manifest.Key(ip, "ai_input"), "ai_input cannot be said for a path: Content-Signal has no path and Content-Usage (draft-ietf-aipref-vocab-07) has no ai_input category; it is not written")
		}
		stated = true
	}
	// With both forms, a category a path overrides is left out of
	// Content-Signal, warned by generate at that path (it depends on the
	// site's and the group's preferences together).
	if stated && !cu {
		v.warn(manifest.Key(path, "paths"), "path-scoped preferences are not written: formats has no content-usage, and Content-Signal has no path")
	}
}

// expectUsage checks an expect entry's usage assertion: urls are URL
// paths, and only matter with usage.
func (v *checker) expectUsage(p string, e manifest.Expect) {
	if e.Usage == nil && e.License == "" && e.TDM == nil && len(e.URLs) > 0 {
		v.err(manifest.Key(p, "urls"), "urls are where usage is checked: give usage too, or list the paths under allowed or disallowed")
	}
	for j, u := range e.URLs {
		up := manifest.Index(manifest.Key(p, "urls"), j)
		if !strings.HasPrefix(u, "/") {
			v.err(up, "%q must be a URL path starting with \"/\"", u)
		} else {
			v.noSpace(up, u, "a URL path")
			v.escapes(up, u)
		}
	}
}

// starUsage warns where the "*" group states a preference the site's usage
// does not: a crawler with a group of its own reads only that group (RFC
// 9309 section 2.2.1), so the preference never reaches it.
func (v *checker) starUsage(path string, groups []manifest.Group, site *manifest.Usage) {
	named := false
	for _, g := range groups {
		named = named || len(g.Presets) > 0 || slices.ContainsFunc(g.Names, func(n string) bool { return n != "*" })
	}
	if !named {
		return
	}
	for i, g := range groups {
		if g.Usage == nil || !slices.Contains(g.Names, "*") {
			continue
		}
		for _, c := range []struct{ key, star, site string }{
			{"train_ai", g.Usage.TrainAI, siteValue(site, "train_ai")},
			{"search", g.Usage.Search, siteValue(site, "search")},
			{"ai_input", g.Usage.AIInput, siteValue(site, "ai_input")},
		} {
			if c.star != "" && c.site == "" {
				v.warn(manifest.Key(manifest.Key(manifest.Index(path, i), "usage"), c.key),
					"crawlers with a group of their own do not read the \"*\" group, so they do not get %s: put it in the site's usage to write it in every group", c.key)
			}
		}
	}
}

func siteValue(u *manifest.Usage, key string) string {
	if u == nil {
		return ""
	}
	switch key {
	case "train_ai":
		return u.TrainAI
	case "search":
		return u.Search
	}
	return u.AIInput
}
