package lint

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
)

// The files of design section 13, each known by its name (rule 2): the
// kinds of the registry that lint a hand-written copy (ads.txt and
// app-ads.txt line by line, IAB Tech Lab ads.txt 1.1; the JSON files by
// shape; atproto-did as a DID alone).

// sectionKinds lists them in the order usage text names them, the
// registry's.
var sectionKinds = func() []Kind {
	var out []Kind
	for _, k := range registry.All() {
		if _, ok := k.(kit.Linter); ok {
			out = append(out, Kind(k.Name()))
		}
	}
	return out
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

// lintSection lints data as a section 13 kind, a kit.Dated kind's dates
// against now; ok is false for another kind.
func lintSection(data []byte, kind Kind, now time.Time) (out []diag.Diagnostic, ok bool) {
	for _, k := range registry.All() {
		if l, isLinter := k.(kit.Linter); isLinter && Kind(k.Name()) == kind {
			if d, dated := k.(kit.Dated); dated {
				return d.LintAt(data, now), true
			}
			return l.Lint(data), true
		}
	}
	return nil, false
}
