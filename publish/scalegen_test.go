package publish

import (
	"fmt"
	"strings"
	"testing"

	"github.com/discgen/discgen/tools/hostgen"
)

// scaleSite writes the site of n tenants of one small shape:
// hostgen.ScaleSite.
func scaleSite(tb testing.TB, dir string, n int) string {
	tb.Helper()
	return hostgen.ScaleSite(tb, dir, n)
}

// writeHost writes the site manifest site and n tenants: hostgen.WriteHost.
func writeHost(tb testing.TB, dir, site string, n int, tenant func(user string, i int) []byte) string {
	tb.Helper()
	return hostgen.WriteHost(tb, dir, site, n, tenant)
}

// heavyTenant is a tenant manifest of user near the size limit: 120,000
// disallow rules, 3.5 MB, within the size and node limits, valid.
func heavyTenant(user string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\npath: /~%s/\nagents:\n  - names: [\"*\"]\n    disallow:\n", user)
	for i := range 120_000 {
		fmt.Fprintf(&b, "      - /~%s/p%07d/\n", user, i)
	}
	return []byte(b.String())
}

func TestScaleSite(t *testing.T) {
	const n = 25
	built := 0
	sum := Run(Options{Manifest: scaleSite(t, t.TempDir(), n), Now: goldenNow, Mode: Render}, func(u *Unit) {
		if u.Diags.HasErrors() {
			t.Errorf("%s: %v", u.Dir, u.Diags)
		}
		if u.Kind == Tenant {
			built++
			if len(u.Tree) != 9 {
				t.Errorf("%s: %d files, want 9: %v", u.Manifest, len(u.Tree), u.Tree.Paths())
			}
		}
	})
	if !sum.SiteOK || sum.Failed || built != n {
		t.Fatalf("scale site: %+v, %d tenants built, want %d", sum, built, n)
	}
}

// BenchmarkRenderTenants times Run in Render mode (discover, load,
// validate and render; no writing) over a site with n tenants. Its
// ns/tenant metric is the wall time of one run divided by the number of
// tenants; cpu-ns/tenant is the CPU time (user and system, all threads)
// the process spent per tenant, which other load on shared cores disturbs
// less than the wall time.
func BenchmarkRenderTenants(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			manifest := scaleSite(b, b.TempDir(), n)
			b.ResetTimer()
			cpu := cpuTime()
			for b.Loop() {
				built := 0
				Run(Options{Manifest: manifest, Now: goldenNow, Mode: Render}, func(u *Unit) {
					if u.Kind == Tenant && u.Status == Built {
						built++
					}
				})
				if built != n {
					b.Fatalf("built %d tenants, want %d", built, n)
				}
			}
			cpu = cpuTime() - cpu
			per := float64(b.N) * float64(n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/tenant")
			if cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/per, "cpu-ns/tenant")
			}
		})
	}
}
