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
