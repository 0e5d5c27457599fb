//go:build unix

package publish

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/discgen/discgen/diag"
)

const bugMessage = "internal error (a bug in discgen; please report it): "

// bugAt matches the location a bug's message gives the operator.
var bugAt = regexp.MustCompile(`\(at publish/[a-z_]+\.go:\d+\)`)

// A panic while one tenant is loaded, rendered or planned refuses that
// tenant as a bug in discgen, and every other tenant is built: in a
// build, a render and a check.
func TestTenantPanic(t *testing.T) {
	for _, c := range []struct {
		stage string
		mode  Mode
	}{
		{"load", Write}, {"render", Write}, {"plan", Write},
		{"load", Render}, {"render", Render}, {"plan", Check},
	} {
		t.Run(fmt.Sprintf("%s/%d", c.stage, c.mode), func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"site.yaml": isolationSite}
			var built []string
			for _, u := range []string{"alice", "bob", "carol", "dave"} {
				files["users/"+u+"/public_html/autodisc.yaml"] = tenantYAML("~" + u)
				if u != "bob" {
					built = append(built, "users/"+u+"/public_html")
				}
			}
			writeFiles(t, dir, files)
			h := &hooks{stage: func(stage, d string) {
				if stage == c.stage && filepath.Base(filepath.Dir(d)) == "bob" {
					panic("boom at " + stage)
				}
			}}
			o := publishAt(t, dir, hooked(h, func(opt *Options) { opt.Mode = c.mode }))
			bob := "users/bob/public_html"
			o.wantOnly(t, built, map[string]string{bob: bugMessage + "boom at " + c.stage})
			t.Logf("%s", o.reasons(bob))
			// The operator is told where it happened.
			if !bugAt.MatchString(o.reasons(bob)) {
				t.Errorf("no location in %q", o.reasons(bob))
			}
			if n := strings.Count(o.reasons(bob), "\n"); n != 1 {
				t.Errorf("%d messages for bob, want 1: %q", n, o.reasons(bob))
			}
			// Nothing is kept of a panic: the next build tries again.
			if c.mode == Write {
				o = publishAt(t, dir, nil)
				o.wantOnly(t, []string{bob}, nil)
			}
		})
	}
}

// A panic while a batch is applied refuses the tenants of that batch,
// each as a bug in discgen; the other batches are applied.
func TestApplyPanic(t *testing.T) {
	const n = 150 // more than two batches hold
	dir := t.TempDir()
	files := map[string]string{"site.yaml": isolationSite}
	for i := range n {
		u := fmt.Sprintf("u%03d", i)
		files["users/"+u+"/public_html/autodisc.yaml"] = tenantYAML("~" + u)
	}
	writeFiles(t, dir, files)
	h := &hooks{stage: func(stage, d string) {
		if stage == "apply" && filepath.Base(filepath.Dir(d)) == "u077" {
			panic("boom")
		}
	}}
	o := publishAt(t, dir, hooked(h, nil))
	bad := "users/u077/public_html"
	if o.status[bad] != Refused || !strings.Contains(o.reasons(bad), bugMessage+"boom") || !bugAt.MatchString(o.reasons(bad)) {
		t.Errorf("%s: %s %q, want refused as a bug", bad, o.status[bad], o.reasons(bad))
	}
	refused := o.with(Refused)
	for _, r := range refused {
		if !strings.Contains(o.reasons(r), bugMessage) {
			t.Errorf("%s refused for %q", r, o.reasons(r))
		}
	}
	if len(refused) > applyBatch || len(o.with(Built))+len(refused) != n {
		t.Errorf("%d built, %d refused of %d; want one batch of at most %d refused", len(o.with(Built)), len(refused), n, applyBatch)
	}
	if !o.sum.Failed {
		t.Errorf("the run did not fail")
	}
	// The next build builds what the batch left.
	o = publishAt(t, dir, nil)
	if got := o.with(Built); len(got) != len(refused) {
		t.Errorf("the next build built %d, want %d", len(got), len(refused))
	}
	if len(o.with(Refused)) > 0 {
		t.Errorf("the next build refused %v", o.with(Refused))
	}
}

// A panic while the site's own files are built refuses the site as a bug
// in discgen, and every tenant is built.
func TestSitePanic(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"site.yaml": isolationSite}
	var built []string
	for _, u := range []string{"alice", "bob", "carol"} {
		files["users/"+u+"/public_html/autodisc.yaml"] = tenantYAML("~" + u)
		built = append(built, "users/"+u+"/public_html")
	}
	writeFiles(t, dir, files)
	h := &hooks{stage: func(stage, d string) {
		if stage == "site" {
			panic("boom at site")
		}
	}}
	o := publishAt(t, dir, hooked(h, nil))
	o.wantOnly(t, built, nil)
	var msgs []string
	for _, u := range o.sites {
		for _, d := range u.Diags {
			msgs = append(msgs, d.Message)
		}
	}
	if o.site == nil || o.site.Status != Refused || len(msgs) != 1 || !strings.HasPrefix(msgs[0], bugMessage+"boom at site") || !bugAt.MatchString(msgs[0]) {
		t.Errorf("the site: %+v, %q; want it refused as a bug, once", o.site, msgs)
	}
	if !o.sum.Failed {
		t.Errorf("the run did not fail")
	}
}

// A panic while one glob's tenants are walked stops that glob alone, with
// one message saying it is a bug: the tenants it found are built, and
// every other glob's.
func TestWalkPanic(t *testing.T) {
	dir := t.TempDir()
	site := isolationSite + `  - path: "/o/*"
    only: [description.txt, feeds.txt]
    tenants: "others/*/autodisc.yaml"
`
	files := map[string]string{"site.yaml": site}
	var others []string
	for _, u := range []string{"alice", "bob", "carol", "dave"} {
		files["users/"+u+"/public_html/autodisc.yaml"] = tenantYAML("~" + u)
		files["others/"+u+"/autodisc.yaml"] = tenantYAML("/o/" + u)
		others = append(others, "others/"+u)
	}
	writeFiles(t, dir, files)
	h := &hooks{stage: func(stage, d string) {
		if stage == "walk" && filepath.Base(filepath.Dir(d)) == "carol" {
			panic("boom in the walk")
		}
	}}
	o := publishAt(t, dir, hooked(h, nil))
	for _, r := range others {
		if o.status[r] != Built {
			t.Errorf("%s: %s %q, want built", r, o.status[r], o.reasons(r))
		}
	}
	if _, ok := o.status["users/carol/public_html"]; ok {
		t.Errorf("carol, whose walk panicked, reported %s", o.status["users/carol/public_html"])
	}
	for r, st := range o.status {
		if st != Built {
			t.Errorf("%s: %s %q", r, st, o.reasons(r))
		}
	}
	var msgs []string
	for _, u := range o.sites {
		for _, d := range u.Diags {
			if d.Severity == diag.Error {
				msgs = append(msgs, d.Message)
			}
		}
	}
	if len(msgs) != 1 || !strings.Contains(msgs[0], "users/*/public_html/autodisc.yaml") || !strings.Contains(msgs[0], bugMessage+"boom in the walk") || !bugAt.MatchString(msgs[0]) {
		t.Errorf("site errors %q; want one, naming the glob, saying it is a bug", msgs)
	}
	if !o.sum.Failed {
		t.Errorf("the run did not fail")
	}
}

// With --tenant files, a panic in the walk to one refuses that file as a
// bug, and the other files are built.
func TestNamedWalkPanic(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"site.yaml": isolationSite}
	var named []string
	for _, u := range []string{"alice", "bob", "carol"} {
		files["users/"+u+"/public_html/autodisc.yaml"] = tenantYAML("~" + u)
		named = append(named, filepath.Join(dir, "users", u, "public_html", "autodisc.yaml"))
	}
	writeFiles(t, dir, files)
	h := &hooks{stage: func(stage, d string) {
		if stage == "walk" && filepath.Base(filepath.Dir(d)) == "bob" {
			panic("boom in the walk")
		}
	}}
	o := publishAt(t, dir, hooked(h, func(opt *Options) { opt.Tenants = named }))
	bob := "users/bob/public_html"
	o.wantOnly(t, []string{"users/alice/public_html", "users/carol/public_html"}, map[string]string{bob: bugMessage + "boom in the walk"})
	if !bugAt.MatchString(o.reasons(bob)) {
		t.Errorf("no location in %q", o.reasons(bob))
	}
}
