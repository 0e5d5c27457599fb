package applinks

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
)

// Kind is an app association file: Apple's or Android's, each at a key
// under well_known.app_links and a path under /.well-known/ of its own.
type Kind struct {
	kit.SourceFile
	name, key, consumer string
	check               func([]byte) []kit.JSONProblem
}

// Apple returns the kind of /.well-known/apple-app-site-association, from
// well_known.app_links.apple.
func Apple() Kind {
	return Kind{kit.SourceAt("well_known.app_links.apple"), "apple-app-site-association", "well_known.app_links.apple", "iOS", CheckApple}
}

// Android returns the kind of /.well-known/assetlinks.json, from
// well_known.app_links.android.
func Android() Kind {
	return Kind{kit.SourceAt("well_known.app_links.android"), "assetlinks.json", "well_known.app_links.android", "Android", CheckAssetLinks}
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
