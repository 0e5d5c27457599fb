package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scaleSite writes, under dir, a site manifest delegating "~*" to the tenant
// manifests users/uNNNNNNN/public_html/autodisc.yaml, and n such manifests,
// each of the shape of a typical user page: a description, an icon, two
// feeds (one relative), its own robots rules and a delegation with an
// inline delegatee. It returns the site manifest's path. Every tenant is
// valid, so a build of the site renders n + 1 trees.
func scaleSite(tb testing.TB, dir string, n int) string {
	tb.Helper()
	site := `version: 1
site:
  url: https://isp.example/
  description: A shared host with many user pages
agents:
  - names: ["*"]
    disallow: [/cgi-bin/]
delegations:
  - path: "~*"
    except: [x-isp.txt]
    tenants: "users/*/public_html/autodisc.yaml"
    limits: {bytes: 16777216}   # heavyTenant writes 7.7 MB
files:
  x-isp.txt: hosted
`
	return writeHost(tb, dir, site, n, func(user string, _ int) []byte {
		return []byte(fmt.Sprintf(`version: 1
path: /~%[1]s/
description: The pages of user %[1]s
icons: [/~%[1]s/icon.png]
feeds:
  - url: feed.atom
  - url: /~%[1]s/notes
    type: application/feed+json
agents:
  - names: ["*"]
    disallow: [/~%[1]s/private/]
delegations:
  - path: blog/
    only: [feeds.txt, description.txt]
    inline:
      description: The blog of %[1]s
      feeds: [{url: posts.rss}]
`, user))
	})
}

// writeHost writes, under dir, the site manifest site and n tenant
// manifests users/uNNNNNNN/public_html/autodisc.yaml, the i-th being
// tenant("uNNNNNNN", i), and returns the site manifest's path.
func writeHost(tb testing.TB, dir, site string, n int, tenant func(user string, i int) []byte) string {
	tb.Helper()
	manifest := filepath.Join(dir, "site.yaml")
	if err := os.WriteFile(manifest, []byte(site), 0o644); err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		user := fmt.Sprintf("u%07d", i)
		tdir := filepath.Join(dir, "users", user, "public_html")
		if err := os.MkdirAll(tdir, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tdir, "autodisc.yaml"), tenant(user, i), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return manifest
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
