package main

import (
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/publish"
	"github.com/discgen/discgen/sitemap"
)

// validateSitemaps checks the sitemaps of the site manifest file against
// the output tree dir (sitemap.CheckDir): those the robots.txt the
// manifest builds names, or, when it builds none, the one in dir.
func validateSitemaps(file, env string, now time.Time, dir string) diag.List {
	site, _ := publish.LoadSite(publish.Options{Manifest: file, Env: env, Now: now, Mode: publish.Render})
	if site == nil {
		return nil
	}
	var built []byte
	if e, ok := site.Tree["robots.txt"]; ok && e.Link == "" {
		built = e.Data
	}
	return sitemap.CheckDir(site.Doc.Value.Site.URL, built, dir)
}
