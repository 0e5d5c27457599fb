package registry

import (
	"reflect"
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// typedInManifest lists the kinds whose value is still a field of
// manifest's typed model, each with the reason it stays there. Every
// other kind owns its value (kit.Owner): its type is in its own package,
// decoded at its key, so that adding such a kind touches neither manifest
// nor import's YAML writer.
var typedInManifest = map[string]string{
	"well_known.files": "the agent card is an entry of well_known.files, which is not its own (its Given is false)",
}

// manifestKeys returns the manifest paths of the typed model's fields
// that a kind's key may name: the site's top-level keys and well_known's.
func manifestKeys() map[string]bool {
	keys := map[string]bool{}
	for _, s := range []struct {
		prefix string
		t      reflect.Type
	}{{"", reflect.TypeFor[manifest.Site]()}, {"well_known.", reflect.TypeFor[manifest.WellKnown]()}} {
		for f := range s.t.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); f.IsExported() && name != "" && name != "-" {
				keys[s.prefix+name] = true
			}
		}
	}
	return keys
}

// TestValuesOwned: manifest declares no field for the key of a kind that
// owns its value, and each kind either owns its value or is listed in
// typedInManifest with its reason (and is typed there indeed).
func TestValuesOwned(t *testing.T) {
	fields := manifestKeys()
	// typed reports whether manifest has a field for key or a value
	// that holds it (well_known.app_links for well_known.app_links.apple).
	typed := map[string]bool{}
	for _, k := range All() {
		// well_known is the block of the well-known files, typed itself.
		for p := k.Key(); p != "" && p != "well_known"; p = manifest.Parent(p) {
			typed[k.Key()] = typed[k.Key()] || fields[p]
		}
	}
	for _, k := range All() {
		_, owner := k.(kit.Owner)
		reason, listed := typedInManifest[k.Key()]
		switch {
		case owner && typed[k.Key()]:
			t.Errorf("%s owns its value, but manifest still has a field for %s", k.Name(), k.Key())
		case owner && listed:
			t.Errorf("%s owns its value: take %s out of typedInManifest", k.Name(), k.Key())
		case !owner && !listed:
			t.Errorf("%s: %s is neither the kind's own value (kit.Owner) nor listed in typedInManifest", k.Name(), k.Key())
		case !owner && !typed[k.Key()]:
			t.Errorf("%s: typedInManifest lists %s, but manifest has no field for it", k.Name(), k.Key())
		case listed && reason == "":
			t.Errorf("%s: typedInManifest gives no reason why %s is typed in manifest", k.Name(), k.Key())
		}
	}
}
