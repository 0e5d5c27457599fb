// Package sitebuild renders a site manifest, and optionally its tenants,
// in memory for the commands that read a build rather than write one
// (verify, report) and for tests. It is the one place those call the
// build pipeline, so a change of the pipeline's API is one edit here.
package sitebuild

import (
	"time"

	"github.com/discgen/discgen/build"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/tree"
)

// Options says what to render.
type Options struct {
	Manifest      string
	Env           string
	Now           time.Time
	RobotsSymlink bool
	// Tenants renders the tenants too.
	Tenants bool
}

// Tenant is one tenant's rendered tree.
type Tenant struct {
	Manifest string
	Space    pathspace.Space
	Tree     tree.Tree
}

// Site is a valid site manifest and what it renders.
type Site struct {
	Doc     *manifest.Doc[manifest.Site]
	Tree    tree.Tree
	Tenants []Tenant
}

// Build loads, validates and renders. It returns nil when the site
// manifest is invalid; the diagnostics hold every error and warning (a
// refused tenant's included).
func Build(opt Options) (*Site, diag.List) {
	res := build.Run(build.Options{Manifest: opt.Manifest, Env: opt.Env, Now: opt.Now, RobotsSymlink: opt.RobotsSymlink, SiteOnly: !opt.Tenants})
	if res.Site == nil {
		return nil, res.Diags
	}
	data, err := limited.ReadFile(opt.Manifest, manifest.MaxBytes)
	if err != nil {
		var l diag.List
		l.Errorf(diag.Pos{File: opt.Manifest}, "", "cannot read manifest: %v", err)
		return nil, l
	}
	doc, errs := manifest.LoadSite(opt.Manifest, data, opt.Env)
	if doc == nil {
		return nil, errs
	}
	s := &Site{Doc: doc, Tree: res.Site.Tree}
	for _, t := range res.Tenants {
		s.Tenants = append(s.Tenants, Tenant{Manifest: t.Manifest, Space: t.Space, Tree: t.Tree})
	}
	return s, res.Diags
}
