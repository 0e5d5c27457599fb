//go:build linux

package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/internal/testing/otheruser"
	"github.com/discgen/discgen/output"
)

// A tenant's own journal directory, filled by its owner: root's build
// with --tenant-owner refuses a tenant whose directory is crowded
// (thousands of .new files), defers one whose owner holds the
// directory's lock (beside thousands of FIFOs named as journals), each
// in one line, and builds every other tenant.
func TestHostileJournalDirs(t *testing.T) {
	otheruser.NeedRoot(t)
	dir := writeFiles(t, livetest.Dir(t), map[string]string{
		"site.yaml":                             isolationSite,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/bob/public_html/autodisc.yaml":   tenantYAML("/~bob/"),
		"users/carol/public_html/autodisc.yaml": tenantYAML("/~carol/"),
	})
	for _, u := range []string{"bob", "carol"} {
		if err := os.Chown(filepath.Join(dir, "users", u, "public_html"), otheruser.Nobody, otheruser.Nobody); err != nil {
			t.Fatal(err)
		}
	}
	owner := func(o *Options) { o.TenantOwner = true }
	if o := publishAt(t, dir, owner); len(o.with(Built)) != 3 {
		t.Fatalf("first build: built %v: %v", o.with(Built), o.diags)
	}
	journal := func(u string) string {
		return output.RootStateDir(filepath.Join(dir, ".state"), "users/"+u+"/public_html") // its journal directory too
	}
	for i := range 2000 {
		name := fmt.Sprintf("%08d%s.new", i, strings.Repeat("x", 188))
		if err := os.WriteFile(filepath.Join(journal("bob"), name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(journal("carol"), fmt.Sprintf("%08d%s.jnl", i, strings.Repeat("x", 188))), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if !otheruser.Hold(t, otheruser.Nobody, journal("carol"), false) {
		t.Fatalf("carol's owner could not lock %s", journal("carol"))
	}
	for _, u := range []string{"alice", "bob", "carol"} {
		writeFiles(t, dir, map[string]string{"users/" + u + "/public_html/autodisc.yaml": tenantYAML("/~"+u+"/") + "feeds:\n  - url: /~" + u + "/feed.atom\n"})
	}
	o := publishAt(t, dir, owner)
	o.wantOnly(t, []string{"users/alice/public_html"}, map[string]string{
		"users/bob/public_html":   "holds more than 64 entries",
		"users/carol/public_html": "users/carol/public_html: its state is locked by another process (its owner's build?); deferred to the next build",
	})
	if st := o.status["users/carol/public_html"]; st != Skipped {
		t.Errorf("carol: %s, want skipped", st)
	}
	if st := o.status["users/bob/public_html"]; st != Refused {
		t.Errorf("bob: %s, want refused", st)
	}
	for _, u := range []string{"bob", "carol"} {
		if r := o.reasons("users/" + u + "/public_html"); strings.Count(r, "\n") != 1 {
			t.Errorf("%s: reported in %d lines, want one:\n%.500s", u, strings.Count(r, "\n"), r)
		}
	}
}
