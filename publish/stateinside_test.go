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
	dir := aliceAndBob(t)
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

// The same through a symlink: a state directory named by a path outside
// every tenant's directory, whose real path lies inside one (a symlink on
// the way, the state directory itself missing or there), and a glob
// whose prefix is reached through a symlink, are refused as well.
func TestStateThroughSymlinkRefused(t *testing.T) {
	dir := aliceAndBob(t)
	alice := filepath.Join(dir, "users/alice/public_html")
	if err := os.Symlink(alice, filepath.Join(dir, "srv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(alice, "there"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, state := range []string{filepath.Join(dir, "srv", "state"), filepath.Join(dir, "srv", "there"), filepath.Join(dir, "srv")} {
		o := publishAt(t, dir, func(opt *Options) { opt.StateDir = state })
		if got := o.with(Built); len(got) != 0 {
			t.Errorf("state %s: built %v, want nothing", state, got)
		}
		if o.site == nil || o.site.Status != Refused || !strings.Contains(fmt.Sprint(o.site.Diags), "the state directory "+state+" lies inside") {
			t.Errorf("state %s: site %+v, want refused for the state directory inside a tenant's", state, o.site)
		}
	}
	// A state directory beside the tenants' is not refused.
	o := publishAt(t, dir, func(opt *Options) { opt.StateDir = filepath.Join(dir, "state") })
	if got := o.with(Built); len(got) != 2 {
		t.Errorf("state beside the tenants: built %v, want both", got)
	}
	// The glob's prefix (users) a symlink to the homes, the state
	// directory named by its real path.
	if err := os.Rename(filepath.Join(dir, "users"), filepath.Join(dir, "homes")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("homes", filepath.Join(dir, "users")); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "homes/bob/public_html/state")
	o = publishAt(t, dir, func(opt *Options) { opt.StateDir = state })
	if o.site == nil || o.site.Status != Refused || len(o.with(Built)) != 0 {
		t.Errorf("state %s below a prefix reached through a symlink: site %+v, built %v, want refused", state, o.site, o.with(Built))
	}
}

// aliceAndBob writes a host of two tenants, alice and bob, under
// isolationSite, in a new directory it returns.
func aliceAndBob(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{"site.yaml": isolationSite}
	for _, u := range []string{"alice", "bob"} {
		files["users/"+u+"/public_html/autodisc.yaml"] = tenantYAML("/~" + u + "/")
	}
	writeFiles(t, dir, files)
	return dir
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
