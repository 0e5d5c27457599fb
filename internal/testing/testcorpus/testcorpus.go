// Package testcorpus gathers the manifests of the repository for tests
// that run over all of them: the examples and every manifest of the
// validation vectors.
//
// Only _test.go files import it, as internal/layout checks.
package testcorpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Manifests returns the manifests found under the repository root (a
// path relative to the test's package, such as ".."). It fails the test
// when it finds fewer than min: a glob that matches nothing would test
// nothing.
func Manifests(t testing.TB, root string, min int) [][]byte {
	t.Helper()
	var out [][]byte
	for _, glob := range []string{"examples/*.yaml", "examples/tenants/*/autodisc.yaml"} {
		files, _ := filepath.Glob(filepath.Join(root, glob))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
	vectors, _ := filepath.Glob(filepath.Join(root, "validate", "testdata", "vectors", "*.txt"))
	for _, f := range vectors {
		arc, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, af := range arc.Files {
			if strings.HasSuffix(af.Name, ".yaml") {
				out = append(out, af.Data)
			}
		}
	}
	if len(out) < min {
		t.Fatalf("found %d manifests, want at least %d", len(out), min)
	}
	return out
}
