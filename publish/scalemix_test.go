package publish

import (
	"os"
	"strings"
	"testing"

	"github.com/discgen/discgen/tools/hostgen"
)

// The scale benchmark's tenant mixes. "realistic" (the default) writes
// tenant manifests as users write them, of sizes that vary from tenant to
// tenant; "uniform" writes scaleSite's one small shape for every tenant,
// the mix of the runs BENCHMARKS.md recorded before the realistic one, kept
// to compare with them. DISCGEN_SCALE_MIX chooses.
const (
	mixRealistic = hostgen.MixRealistic
	mixUniform   = hostgen.MixUniform
)

// scaleMix is the mix DISCGEN_SCALE_MIX names.
func scaleMix(tb testing.TB) string {
	switch m := os.Getenv("DISCGEN_SCALE_MIX"); m {
	case "", mixRealistic:
		return mixRealistic
	case mixUniform:
		return mixUniform
	default:
		tb.Fatalf("DISCGEN_SCALE_MIX=%q: want %s or %s", m, mixRealistic, mixUniform)
		return ""
	}
}

// realisticSite writes the site of n tenants as users write them:
// hostgen.RealisticSite.
func realisticSite(tb testing.TB, dir string, n int) string {
	tb.Helper()
	return hostgen.RealisticSite(tb, dir, n)
}

// realisticTenant is the manifest of user, the seed choosing its sizes:
// hostgen.RealisticTenant.
func realisticTenant(user string, seed uint64) []byte { return hostgen.RealisticTenant(user, seed) }

// TestRealisticSite builds a small realistic host: no tenant refused, none
// with an error, and the heavier tenants among them.
func TestRealisticSite(t *testing.T) {
	const n = 200
	built, heavy, refused := 0, 0, 0
	for i := range n {
		if strings.Contains(string(realisticTenant("u", uint64(i))), "x-about.txt") {
			heavy++
		}
	}
	if heavy == 0 || heavy > n/5 {
		t.Errorf("%d heavier tenants of %d, want a few", heavy, n)
	}
	sum := Run(Options{Manifest: realisticSite(t, t.TempDir(), n), Now: goldenNow, Mode: Render}, func(u *Unit) {
		if u.Diags.HasErrors() || u.Status == Refused {
			if refused++; refused <= 3 {
				t.Errorf("%s: %v: %v", u.Manifest, u.Status, u.Diags)
			}
		}
		if u.Kind == Tenant && u.Status == Built {
			built++
		}
	})
	if !sum.SiteOK || sum.Failed || built != n {
		t.Fatalf("realistic site: %+v, %d tenants built, want %d", sum, built, n)
	}
}
