package publish

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/sitemap"
)

// CheckSitemaps checks the sitemaps of the site manifest opt names against
// the output tree dir (sitemap.CheckDir, discgen validate -o): those the
// robots.txt the manifest builds names, or, when it builds none, the one
// in dir. An invalid manifest checks nothing (its errors are LoadSite's).
func CheckSitemaps(opt Options, dir string) diag.List {
	opt.Mode = Render
	site, _ := LoadSite(opt)
	if site == nil {
		return nil
	}
	var built []byte
	if e, ok := site.Tree["robots.txt"]; ok && e.Link == "" {
		built = e.Data
	}
	return sitemap.CheckDir(site.Doc.Value.Site.URL, built, dir)
}
