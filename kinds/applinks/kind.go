package applinks

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Kind is an app association file: Apple's or Android's, each at a key
// under well_known.app_links and a path under /.well-known/ of its own.
type Kind struct {
	name, key, consumer string
	source              func(*manifest.AppLinks) string
	check               func([]byte) []kit.JSONProblem
}

// Apple is /.well-known/apple-app-site-association, from
// well_known.app_links.apple; Android is /.well-known/assetlinks.json,
// from well_known.app_links.android.
var (
	Apple   = Kind{"apple-app-site-association", "well_known.app_links.apple", "iOS", func(a *manifest.AppLinks) string { return a.Apple }, CheckApple}
	Android = Kind{"assetlinks.json", "well_known.app_links.android", "Android", func(a *manifest.AppLinks) string { return a.Android }, CheckAssetLinks}
)

func (k Kind) value(site *manifest.Site) string {
	if site.WellKnown == nil || site.WellKnown.AppLinks == nil {
		return ""
	}
	return k.source(site.WellKnown.AppLinks)
}

func (k Kind) Name() string                   { return k.name }
func (k Kind) Key() string                    { return k.key }
func (k Kind) Path() string                   { return ".well-known/" + k.name }
func (k Kind) MediaType() string              { return "application/json" }
func (k Kind) Given(site *manifest.Site) bool { return k.value(site) != "" }

// Check finds nothing in the manifest's value, a path that validate
// checks as it checks every source; the file is checked when it is read
// (CheckShape).
func (k Kind) Check(*manifest.Site, kit.Build) []kit.Finding { return nil }

// Render returns no file: the file is the source, copied (Source).
func (k Kind) Render(*manifest.Site, kit.Build) ([]byte, bool) { return nil, false }

// Source returns the file's path relative to the manifest.
func (k Kind) Source(site *manifest.Site) (string, bool) {
	s := k.value(site)
	return s, s != ""
}

// CheckShape checks a copy by shape (CheckApple, CheckAssetLinks).
func (k Kind) CheckShape(data []byte) []kit.JSONProblem { return k.check(data) }

// Lint lints a hand-written copy by shape.
func (k Kind) Lint(data []byte) []diag.Diagnostic {
	return kit.JSONDiagnostics(k.check(data), kit.CodeJSON)
}

// Consumer names the consumer that follows no redirect: iOS or Android.
func (k Kind) Consumer() string { return k.consumer }
