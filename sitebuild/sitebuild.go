// Package sitebuild renders a site manifest, and optionally its tenants,
// in memory for the commands that read a build rather than write one
// (verify, report) and for tests. It is the one place those call the
// build pipeline, so a change of the pipeline's API is one edit here.
//
// It is a top-level package at the level of verify and report, whose
// input it renders: it runs publish's render-only pipeline and imports
// manifest, pathspace and tree, so it sits above them all, not under
// internal/ with the ground helpers they import.
package sitebuild

import (
	"slices"
	"strings"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/publish"
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
	// FitProcs lets the tenants' run lower GOMAXPROCS to the host's
	// thread limit (publish.Options.FitProcs).
	FitProcs bool
}

// Tenant is one tenant's rendered tree.
type Tenant struct {
	Manifest string
	Space    pathspace.Space
	Tree     tree.Tree
}

// Site is a valid site manifest and what it renders.
type Site struct {
	Doc *manifest.Doc[manifest.Site]
	// Model is the manifest's validated model, which rendering takes.
	Model   *model.Site
	Tree    tree.Tree
	Tenants []Tenant
}

// Build loads, validates and renders. It returns nil when the site
// manifest is invalid; the diagnostics hold every error and warning (a
// refused tenant's included).
func Build(opt Options) (*Site, diag.List) {
	popt := publish.Options{Manifest: opt.Manifest, Env: opt.Env, Now: opt.Now, RobotsSymlink: opt.RobotsSymlink, Mode: publish.Render,
		FitProcs: opt.FitProcs}
	site, diags := publish.LoadSite(popt)
	if site == nil {
		return nil, diags
	}
	s := &Site{Doc: site.Doc, Model: site.Model, Tree: site.Tree}
	if !opt.Tenants {
		return s, diags
	}
	// The tenants: a render-only run of the whole pipeline, which reports
	// the site's diagnostics again with its own unit.
	var all diag.List
	publish.Run(popt, func(u *publish.Unit) {
		all.Append(u.Diags)
		if u.Kind != publish.Tenant || u.Status != publish.Built || u.Tree == nil {
			return
		}
		space, err := pathspace.Parse(pathspace.Root(), u.Space)
		if err != nil {
			all.Errorf(diag.Pos{File: u.Manifest}, "", "tenant space %q: %v", u.Space, err)
			return
		}
		s.Tenants = append(s.Tenants, Tenant{Manifest: u.Manifest, Space: space, Tree: u.Tree})
	})
	slices.SortFunc(s.Tenants, func(a, b Tenant) int { return strings.Compare(a.Manifest, b.Manifest) })
	all.Sort()
	return s, all
}
