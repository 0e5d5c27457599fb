package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A build whose state directory lies inside a tenant's directory is
// refused before anything is built: the tenant owning that directory
// could rewrite the records of every output root, the site's and the
// other tenants'. Nothing is written, the state directory included.
func TestStateInsideTenantRefused(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"site.yaml": isolationSite}
	for _, u := range []string{"alice", "bob"} {
		files["users/"+u+"/public_html/autodisc.yaml"] = tenantYAML("/~" + u + "/")
	}
	writeFiles(t, dir, files)
	const alice = "users/alice/public_html"
	for _, state := range []string{filepath.Join(dir, alice, "state"), filepath.Join(dir, alice)} {
		o := publishAt(t, dir, func(opt *Options) { opt.StateDir = state })
		if got := o.with(Built); len(got) != 0 {
			t.Errorf("state %s: built %v, want nothing", state, got)
		}
		if o.site == nil || o.site.Status != Refused || !strings.Contains(fmt.Sprint(o.site.Diags), "the state directory "+state+" lies inside "+filepath.Join(dir, alice)) {
			t.Errorf("state %s: site %+v, want refused for the state directory inside a tenant's", state, o.site)
		}
		for _, p := range []string{filepath.Join(dir, alice, "autodisc"), filepath.Join(dir, "public"), filepath.Join(dir, alice, "state")} {
			if _, err := os.Lstat(p); err == nil {
				t.Errorf("state %s: %s written", state, p)
			}
		}
	}
}

func TestHoldsDir(t *testing.T) {
	p, err := parsePattern("/srv", "users/*/public_html/autodisc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for abs, want := range map[string]string{
		"/srv/users/alice/public_html":          "/srv/users/alice/public_html",
		"/srv/users/alice/public_html/.discgen": "/srv/users/alice/public_html",
		"/srv/users/alice/public_html/a/b":      "/srv/users/alice/public_html",
		"/srv/users/alice":                      "",
		"/srv/users/alice/private/.discgen":     "",
		"/srv/.discgen":                         "",
		"/var/lib/discgen":                      "",
		"/srv/users":                            "",
	} {
		got, ok := p.holdsDir(abs)
		if got != want || ok != (want != "") {
			t.Errorf("holdsDir(%q) = %q, %v; want %q", abs, got, ok, want)
		}
	}
	flat, err := parsePattern("/srv", "tenants/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := flat.holdsDir("/srv/tenants/.discgen"); !ok || got != "/srv/tenants" {
		t.Errorf("tenants/*.yaml: holdsDir = %q, %v; want /srv/tenants", got, ok)
	}
}
