package validate

import (
	"net/url"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/sitemap"
)

// sitemapRefs warns of a sitemap URL on another host than the site's,
// and of one given twice (sitemap.Refs; v.sitemaps has refused the ones
// that are not absolute).
func (v *checker) sitemapRefs(path, site string, urls []string) {
	refs := make([]sitemap.Ref, len(urls))
	for i, u := range urls {
		refs[i] = sitemap.Ref{URL: u, At: v.pos.Of(manifest.Index(path, i)).String()}
	}
	for _, p := range sitemap.Refs(site, refs) {
		if u, err := url.Parse(urls[p.Index]); p.Warning && err == nil && isASCII(u.Host) { // a non-ASCII host is refused already
			v.warn(manifest.Index(path, p.Index), "%s", p.Msg)
		}
	}
}
