//go:build unix

package publish

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tenants glob whose wildcards reach inside a tenant's own directory
// reads that tenant's directories up to maxTenantEntries entries together,
// and finds up to maxTenantManifests manifests there: past either bound
// the tenant is refused in one line naming the bound, and every other
// tenant is built. The directory that holds the tenants (users/) is the
// host's, and is read in full.
func TestTenantDirectoriesBounded(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml": `version: 1
site:
  url: https://isp.example/
delegations:
  - path: "/~*/*/"
    only: [description.txt]
    tenants: "users/*/public_html/*.yaml"
  - path: "/s/*/*/"
    only: [description.txt]
    tenants: "home/*/sites/*/autodisc.yaml"
`,
		"users/alice/public_html/blog.yaml":  tenantYAML("/~alice/blog/"),
		"users/bob/public_html/blog.yaml":    tenantYAML("/~bob/blog/"),
		"users/cat/public_html/a.yaml":       tenantYAML("/~cat/a/"),
		"users/cat/public_html/b.yaml":       tenantYAML("/~cat/b/"),
		"home/dave/sites/one/autodisc.yaml":  tenantYAML("/s/dave/one/"),
		"home/dave/sites/two/autodisc.yaml":  tenantYAML("/s/dave/two/"),
		"home/fred/sites/main/autodisc.yaml": tenantYAML("/s/fred/main/"),
	})
	// links fills parent with n more names of one empty file: entries, as
	// a tenant makes them, at the cost of a name each.
	links := func(parent string, n int, name func(int) string) {
		t.Helper()
		one := filepath.Join(dir, parent, name(-1))
		if err := os.WriteFile(one, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		for i := range n - 1 {
			if err := os.Link(one, filepath.Join(dir, parent, name(i))); err != nil {
				t.Fatal(err)
			}
		}
	}
	// bob fills his public_html with names the glob matches, past the
	// bound on entries.
	links("users/bob/public_html", maxTenantEntries+100, func(i int) string { return fmt.Sprintf("p%d.yaml", i) })
	// erin has more sites than a tenant's bound, each a valid manifest.
	for i := range maxTenantManifests + 1 {
		writeFiles(t, dir, map[string]string{fmt.Sprintf("home/erin/sites/s%d/autodisc.yaml", i): "version: 1\ndescription: a site\n"})
	}
	// fred fills his sites/ past the bound.
	links("home/fred/sites", maxTenantEntries, func(i int) string { return fmt.Sprintf("d%d", i) })
	// users/ holds more entries than a tenant's bound: it is the host's.
	links("users", maxTenantEntries+10, func(i int) string { return fmt.Sprintf("u%d", i) })
	hostEntries := maxTenantEntries + 10 + 3 // and alice, bob, cat
	read := map[string]int{}                 // entries read, by directory as messages show it
	h := &hooks{listed: func(d string, n int) {
		rel, err := filepath.Rel(dir, d)
		if err != nil {
			t.Errorf("listed %s, outside the test's directory", d)
		}
		read[filepath.ToSlash(rel)] += n
	}}
	o := publishAt(t, dir, hooked(h, func(o *Options) { o.Mode = Render }))

	o.wantOnly(t, []string{"home/dave/sites/one", "home/dave/sites/two", "users/alice/public_html"}, map[string]string{
		"users/bob/public_html": fmt.Sprintf("users/bob/public_html holds more than %d entries", maxTenantEntries),
		"users/cat/public_html": `users/cat/public_html match "users/*/public_html/*.yaml"; a directory holds one tenant manifest`,
		"home/erin":             fmt.Sprintf(`home/erin match the tenants glob "home/*/sites/*/autodisc.yaml"; a tenant has up to %d`, maxTenantManifests),
		"home/fred":             fmt.Sprintf("home/fred hold more than %d entries", maxTenantEntries),
	})
	for _, r := range []string{"users/bob/public_html", "users/cat/public_html", "home/erin", "home/fred"} {
		if st := o.status[r]; st != Refused {
			t.Errorf("%s: %s, want refused", r, st)
		}
		if n := strings.Count(o.reasons(r), "\n"); n != 1 {
			t.Errorf("%s: reported in %d lines, want one:\n%.600s", r, n, o.reasons(r))
		}
	}
	if n := len(o.status); n != 7 {
		t.Errorf("%d tenant units, want 7 (three built, four refused): %.600v", n, o.status)
	}
	perTenant := map[string]int{}
	for d, n := range read {
		parts := strings.SplitN(d, "/", 3)
		if len(parts) >= 2 {
			perTenant[parts[0]+"/"+parts[1]] += n
		}
	}
	for _, r := range []string{"users/bob", "home/erin", "home/fred"} {
		if n := perTenant[r]; n == 0 || n > maxTenantEntries+1 {
			t.Errorf("read %d entries below %s, want 1 to %d", n, r, maxTenantEntries+1)
		}
	}
	if read["users"] != hostEntries {
		t.Errorf("read %d entries of users/, want all %d", read["users"], hostEntries)
	}

	// Shards refuse the same tenants, each reported by one shard.
	seen := map[string]Status{}
	for k := 1; k <= 3; k++ {
		for d, st := range publishAt(t, dir, func(o *Options) { o.Mode, o.Shard, o.Shards = Render, k, 3 }).status {
			if _, dup := seen[d]; dup {
				t.Errorf("%s reported by two shards", d)
			}
			seen[d] = st
		}
	}
	if !maps.Equal(seen, o.status) {
		t.Errorf("shards reported %v, the full build %v", seen, o.status)
	}
}
