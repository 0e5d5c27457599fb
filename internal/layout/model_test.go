package layout

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// The stages' arrows around the validated model (package model's doc).
// Rendering takes a model, which only validation makes, so a stage that
// renders has no reason to import validate: what it needs of the
// manifest's meaning is in the model. stageForbids lists, for a package,
// the packages its non-test files may not import, with the reason.
var stageForbids = map[string]map[string]string{
	"generate": {"validate": "generate renders a validated model (package model): what it reads of the manifest is there, and only validate makes one"},
}

func TestStageArrows(t *testing.T) {
	modPath, files := module(t)
	seen := map[string]bool{}
	for _, f := range files {
		forbids, ok := stageForbids[f.dir]
		if !ok {
			continue
		}
		seen[f.dir] = true
		if f.test {
			continue // a test validates a manifest to get a model
		}
		for _, im := range f.imports {
			dep, ok := strings.CutPrefix(im.path, modPath+"/")
			if !ok {
				continue
			}
			if why, ok := forbids[dep]; ok {
				t.Errorf("%s:%d imports %s: %s", f.name, im.line, dep, why)
			}
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(stageForbids)) {
		if !seen[dir] {
			t.Errorf("stageForbids lists %s, which holds no Go file: remove it from the list", dir)
		}
	}
}

// sealRoom is the package that holds the key to model's constructors,
// and sealImporters the packages whose code may import it: model, whose
// constructors ask for the key, and validate, which alone makes a model.
// A test may import it too, to make the model of a manifest validation
// would refuse and check what rendering does without relying on it.
const sealRoom = "internal/seal"

var sealImporters = map[string]string{
	"model":    "its constructors ask for the key",
	"validate": "validation makes the model of a manifest it found valid",
}

func TestSealImporters(t *testing.T) {
	modPath, files := module(t)
	used := map[string]bool{}
	for _, f := range files {
		for _, im := range f.imports {
			if im.path != modPath+"/"+sealRoom {
				continue
			}
			if f.test {
				continue
			}
			if _, ok := sealImporters[f.dir]; !ok {
				t.Errorf("%s:%d imports %s: only validation makes a model (package model's doc); take one from validate.Site or validate.Tenant", f.name, im.line, sealRoom)
				continue
			}
			used[f.dir] = true
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(sealImporters)) {
		if !used[dir] {
			t.Errorf("sealImporters lists %s, which no longer imports %s: remove it from the list", dir, sealRoom)
		}
	}
}
