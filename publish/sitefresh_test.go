package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A site whose tree is as the last build wrote it is not planned again
// (no output read or hashed): a stat per output says so, as for a tenant.
// A changed output, a changed manifest or --replace plan it again.
func TestSiteUnchangedSkipsPlan(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("version: 1\nsite: {url: \"https://example.org/\"}\ndelegations:\n")
	for i := range 50 {
		fmt.Fprintf(&b, "  - {path: /p%d/, inline: {description: \"Project %d\"}}\n", i, i)
	}
	writeFiles(t, dir, map[string]string{"site.yaml": b.String()})
	planned := 0
	h := &hooks{planSite: func(string) { planned++ }}

	build := func(mod func(*Options)) Status {
		t.Helper()
		o := publishAt(t, dir, hooked(h, mod))
		if o.site == nil || o.sum.Failed {
			t.Fatalf("build failed: %+v", o.sum)
		}
		return o.site.Status
	}
	if st := build(nil); st != Built || planned != 1 {
		t.Fatalf("first build: %s, planned %d times", st, planned)
	}
	if st := build(nil); st != Unchanged || planned != 1 {
		t.Errorf("no-change build: %s, planned %d times, want unchanged and no plan", st, planned)
	}
	// Someone changes an output: the next build sees it and restores it.
	f := filepath.Join(dir, "public/p7/autodisc/description.txt")
	if err := os.WriteFile(f, []byte("Project 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st := build(func(o *Options) { o.Replace = true }); st != Built || planned != 2 {
		t.Errorf("after an edit: %s, planned %d times", st, planned)
	}
	if data, _ := os.ReadFile(f); string(data) != "Project 7\n" {
		t.Errorf("edited output not restored: %q", data)
	}
	if st := build(nil); st != Unchanged || planned != 3 {
		// --replace is part of the key: a build without it plans once.
		t.Errorf("after --replace: %s, planned %d times", st, planned)
	}
	if st := build(nil); st != Unchanged || planned != 3 {
		t.Errorf("second no-change build: %s, planned %d times", st, planned)
	}
	// A changed manifest changes the tree, and so the key.
	writeFiles(t, dir, map[string]string{"site.yaml": strings.Replace(b.String(), "Project 3\"", "Project three\"", 1)})
	if st := build(nil); st != Built || planned != 4 {
		t.Errorf("after a manifest edit: %s, planned %d times", st, planned)
	}
	// --check and --dry-run always compare the bytes.
	if st := build(func(o *Options) { o.Mode = Check }); st != Unchanged || planned != 5 {
		t.Errorf("--check: %s, planned %d times", st, planned)
	}
}

// BenchmarkSiteInlineNoChange: a no-change build of a site with n inline
// delegatees (three files each), against its first build in the same run.
//
//	go test ./publish -run '^$' -bench SiteInline -benchtime 5x
func BenchmarkSiteInlineNoChange(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			var m strings.Builder
			m.WriteString("version: 1\nsite: {url: \"https://example.org/\"}\ndelegations:\n")
			for i := range n {
				fmt.Fprintf(&m, "  - {path: /p%d/, inline: {description: \"Project %d\", feeds: [{url: /p%d/feed.atom}]}}\n", i, i, i)
			}
			writeFiles(b, dir, map[string]string{"site.yaml": m.String()})
			opt := Options{Manifest: filepath.Join(dir, "site.yaml"), Now: goldenNow, Out: filepath.Join(dir, "public"), StateDir: filepath.Join(dir, ".state")}
			if sum := Run(opt, func(*Unit) {}); sum.Failed {
				b.Fatal("first build failed")
			}
			b.ResetTimer()
			for range b.N {
				var st Status
				Run(opt, func(u *Unit) {
					if u.Kind == Site {
						st = u.Status
					}
				})
				if st != Unchanged {
					b.Fatalf("no-change build: %s", st)
				}
			}
		})
	}
}
