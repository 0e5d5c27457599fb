package publish

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A tenant whose directory holds the state directory is refused, as the
// site's own output is: its files would be published beside the records
// the tenant could rewrite. The other tenants are built.
func TestStateInsideTenantRefused(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"site.yaml": isolationSite}
	for _, u := range []string{"alice", "bob"} {
		files["users/"+u+"/public_html/autodisc.yaml"] = tenantYAML("/~" + u + "/")
	}
	writeFiles(t, dir, files)
	const alice, bob = "users/alice/public_html", "users/bob/public_html"
	state := filepath.Join(dir, alice, "state")
	o := publishAt(t, dir, func(opt *Options) { opt.StateDir = state })
	if got := o.with(Built); !slices.Equal(got, []string{bob}) {
		t.Errorf("built %v, want only %s", got, bob)
	}
	if o.status[alice] != Refused || !strings.Contains(o.reasons(alice), "state directory "+state+" lies inside "+filepath.Join(dir, alice)) {
		t.Errorf("%s: %v %q, want refused for the state directory inside it", alice, o.status[alice], o.reasons(alice))
	}
	if _, err := os.Lstat(filepath.Join(dir, alice, "autodisc")); err == nil {
		t.Errorf("%s/autodisc written", alice)
	}
}
