package main

import (
	"time"

	"github.com/discgen/discgen/build"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/manifest"
)

// builtSite is what verify and report need from a build: the manifest as
// loaded and the trees it renders.
type builtSite struct {
	doc *manifest.Doc[manifest.Site]
	res *build.Result
}

// buildSite is the one place verify and report call the build pipeline;
// tenants says whether tenants are built too.
func buildSite(file, env string, now time.Time, tenants bool) (*builtSite, diag.List) {
	res := build.Run(build.Options{Manifest: file, Env: env, Now: now, SiteOnly: !tenants})
	if res.Site == nil {
		return nil, res.Diags
	}
	data, err := limited.ReadFile(file, manifest.MaxBytes)
	if err != nil {
		var l diag.List
		l.Errorf(diag.Pos{File: file}, "", "cannot read manifest: %v", err)
		return nil, l
	}
	doc, errs := manifest.LoadSite(file, data, env)
	if doc == nil {
		return nil, errs
	}
	return &builtSite{doc: doc, res: res}, res.Diags
}
