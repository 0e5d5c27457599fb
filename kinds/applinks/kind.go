package applinks

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Kind is an app association file: Apple's or Android's, each at a key
// under well_known.app_links and a path under /.well-known/ of its own.
type Kind struct {
	kit.SourceFile
	name, key, consumer string
	check               func([]byte) []kit.JSONProblem
}

// Apple is /.well-known/apple-app-site-association, from
// well_known.app_links.apple; Android is /.well-known/assetlinks.json,
// from well_known.app_links.android.
var (
	Apple   = Kind{appLink(func(a *manifest.AppLinks) string { return a.Apple }), "apple-app-site-association", "well_known.app_links.apple", "iOS", CheckApple}
	Android = Kind{appLink(func(a *manifest.AppLinks) string { return a.Android }), "assetlinks.json", "well_known.app_links.android", "Android", CheckAssetLinks}
)

// appLink is the source a key under well_known.app_links names.
func appLink(pick func(*manifest.AppLinks) string) kit.SourceFile {
	return kit.SourceFile{Of: func(site *manifest.Site) string {
		if site.WellKnown == nil || site.WellKnown.AppLinks == nil {
			return ""
		}
		return pick(site.WellKnown.AppLinks)
	}}
}

func (k Kind) Name() string      { return k.name }
func (k Kind) Key() string       { return k.key }
func (k Kind) Path() string      { return ".well-known/" + k.name }
func (k Kind) MediaType() string { return "application/json" }

// CheckShape checks a copy by shape (CheckApple, CheckAssetLinks).
func (k Kind) CheckShape(data []byte) []kit.JSONProblem { return k.check(data) }

// Lint lints a hand-written copy by shape.
func (k Kind) Lint(data []byte) []diag.Diagnostic {
	return kit.JSONDiagnostics(k.check(data), kit.CodeJSON)
}

// Consumer names the consumer that follows no redirect: iOS or Android.
func (k Kind) Consumer() string { return k.consumer }
