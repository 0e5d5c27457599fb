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
	Apple   = Kind{appLink("well_known.app_links.apple"), "apple-app-site-association", "well_known.app_links.apple", "iOS", CheckApple}
	Android = Kind{appLink("well_known.app_links.android"), "assetlinks.json", "well_known.app_links.android", "Android", CheckAssetLinks}
)

// appLink is the source key names, a JSON file relative to the manifest.
func appLink(key string) kit.SourceFile {
	return kit.SourceFile{Of: func(site *manifest.Site) string {
		if s := kit.Value[string](site, key); s != nil {
			return *s
		}
		return ""
	}}
}

// NewValue returns a new empty source path (kit.Owner).
func (Kind) NewValue() any { return new(string) }

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
