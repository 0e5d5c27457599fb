package model

import (
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/manifest"
)

// The readings of manifest values that validation checks and rendering
// writes alike: both take them from here, so that what is checked is
// what is written.

// SiteFilePath returns the output path (without the leading "/") at which
// the file at ref, a URL absolute or relative to siteURL, is published;
// ok false when ref names no file of the site: another origin, a path
// ending in "/", a query or a fragment.
func SiteFilePath(siteURL, ref string) (string, bool) {
	base, err := url.Parse(siteURL)
	if err != nil {
		return "", false
	}
	r, err := url.Parse(ref)
	if err != nil || r.RawQuery != "" || r.ForceQuery || r.Fragment != "" || strings.ContainsAny(ref, "?#") {
		return "", false
	}
	u := base.ResolveReference(r)
	if !strings.EqualFold(u.Scheme, base.Scheme) || !strings.EqualFold(u.Host, base.Host) || u.User != nil {
		return "", false
	}
	p := u.Path
	if p == "" || strings.HasSuffix(p, "/") {
		return "", false
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", false
		}
	}
	return p[1:], true
}

// UsageFormats reports which robots.txt forms a usage writes: both when
// formats is absent.
func UsageFormats(u *manifest.Usage) (contentUsage, contentSignal bool) {
	if u == nil || len(u.Formats) == 0 {
		return true, true
	}
	for _, f := range u.Formats {
		switch f {
		case "content-usage":
			contentUsage = true
		case "content-signal":
			contentSignal = true
		}
	}
	return contentUsage, contentSignal
}

// VerifiedNames returns the crawlers a verified group checks: its names
// and its presets' agents, without "*".
func VerifiedNames(g manifest.Group) []string {
	return slices.DeleteFunc(crawlers.Default().Expand(g.Names, g.Presets, g.ExceptAgents), func(n string) bool { return n == "*" })
}
