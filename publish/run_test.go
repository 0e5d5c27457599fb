package publish

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/discgen/discgen/diag"
)

// A site refused before anything is built is a unit like any other: it is
// counted, and its diagnostics come sorted.
func TestRunCountsEarlyRefusal(t *testing.T) {
	dir := t.TempDir()
	man := filepath.Join(dir, "site.yaml")
	// Two errors, the later one in the file first in the schema's order.
	os.WriteFile(man, []byte("version: 1\nsite: {url: \"https://example.org/\"}\nicons: [{url: 3}]\nagents: [{names: [\"bad name\"], allow: [/]}]\n"), 0o644)
	var units []*Unit
	sum := Run(Options{Manifest: man, Out: filepath.Join(dir, "public"), StateDir: filepath.Join(dir, "state"), Now: time.Unix(0, 0)}, func(u *Unit) { units = append(units, u) })
	if len(units) != 1 || units[0].Status != Refused {
		t.Fatalf("units: %+v", units)
	}
	if sum.Count[Refused] != 1 || !sum.Failed || sum.SiteOK {
		t.Errorf("summary %+v: want the refused site counted", sum)
	}
	d := units[0].Diags
	if len(d) < 2 || !slices.IsSortedFunc(d, func(a, b diag.Diagnostic) int { return a.Line - b.Line }) {
		t.Errorf("diagnostics not sorted: %v", d)
	}
}
