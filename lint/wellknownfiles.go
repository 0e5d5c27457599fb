package lint

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/wellknown"
)

// The files of design section 13, each known by its name (rule 2): the
// kinds of the registry that lint a hand-written copy (ads.txt and
// app-ads.txt line by line, IAB Tech Lab ads.txt 1.1; the JSON files by
// shape; atproto-did as a DID alone), and the app association files,
// checked by shape.
const (
	AppleAppSiteAssociation Kind = "apple-app-site-association"
	AssetLinks              Kind = "assetlinks.json"
)

// sectionKinds lists them in the order usage text names them: the
// registry's files of the site's root, the app association files, then
// the registry's files under /.well-known/.
var sectionKinds = func() []Kind {
	var root, wk []Kind
	for _, k := range registry.All() {
		if _, ok := k.(kit.Linter); !ok {
			continue
		}
		if registry.WellKnown(k) {
			wk = append(wk, Kind(k.Name()))
		} else {
			root = append(root, Kind(k.Name()))
		}
	}
	return slices.Concat(root, []Kind{AppleAppSiteAssociation, AssetLinks}, wk)
}()

func sectionKind(k Kind) bool { return slices.Contains(sectionKinds, k) }

// sectionByName returns the kind a file's name gives it: its base name, or
// that name with a .json or .txt extension a hand-saved copy often gets
// (apple-app-site-association.json, atproto-did.txt).
func sectionByName(name string) (Kind, bool) {
	base := filepath.Base(name)
	for _, b := range []string{base, strings.TrimSuffix(base, ".json"), strings.TrimSuffix(base, ".txt")} {
		if k := Kind(b); sectionKind(k) {
			return k, true
		}
	}
	return "", false
}

// lintSection lints data as a section 13 kind; ok is false for another kind.
func lintSection(data []byte, kind Kind) (out []diag.Diagnostic, ok bool) {
	switch kind {
	case AppleAppSiteAssociation:
		return kit.JSONDiagnostics(wellknown.CheckAppleAssociation(data), kit.CodeJSON), true
	case AssetLinks:
		return kit.JSONDiagnostics(wellknown.CheckAssetLinks(data), kit.CodeJSON), true
	}
	for _, k := range registry.All() {
		if l, isLinter := k.(kit.Linter); isLinter && Kind(k.Name()) == kind {
			return l.Lint(data), true
		}
	}
	return nil, false
}
