//go:build unix

package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/testing/testenv"
)

// Swapping a tenant's home for a symlink after the walk opened it never
// moves a write: the files land in the directory the walk opened.
func TestSwapAfterWalk(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                           isolationSite,
		"users/u44/public_html/autodisc.yaml": tenantYAML("/~u44/"),
		"victim/public_html/keep.txt":         "the victim's",
	})
	home, aside := filepath.Join(dir, "users/u44"), filepath.Join(dir, "u44.moved")
	h := &hooks{walked: func(string) {
		if err := os.Rename(home, aside); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(filepath.Join(dir, "victim"), home); err != nil {
			t.Error(err)
		}
	}}
	o := publishAt(t, dir, hooked(h, nil))
	if got := o.with(Built); !slices.Equal(got, []string{"users/u44/public_html"}) {
		t.Fatalf("built %v: %v", got, o.diags)
	}
	if exists(filepath.Join(dir, "victim/public_html/autodisc")) {
		t.Errorf("the write followed the symlink swapped in for users/u44")
	}
	if !exists(filepath.Join(aside, "public_html/autodisc/description.txt")) {
		t.Errorf("the tenant's files are not in the directory the walk opened")
	}
}

// A goroutine swaps a tenant's home for a symlink and back, again and
// again, while builds run: no write ever lands in the symlink's target.
func TestSwapRace(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                           isolationSite,
		"users/u44/public_html/autodisc.yaml": tenantYAML("/~u44/"),
		"victim/public_html/keep.txt":         "the victim's",
	})
	for i := range 20 {
		writeFiles(t, dir, map[string]string{fmt.Sprintf("users/n%02d/public_html/autodisc.yaml", i): tenantYAML(fmt.Sprintf("/~n%02d/", i))})
	}
	// The names swapped through lie outside users/, so the glob sees
	// users/u44 alone: a directory or a symlink.
	home, aside, link := filepath.Join(dir, "users/u44"), filepath.Join(dir, "u44.real"), filepath.Join(dir, "u44.link")
	testenv.Symlink(t, filepath.Join(dir, "victim"), link)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	swaps := 0
	wg.Go(func() {
		// Bounded even if the builds stall.
		for ; swaps < 1000000; swaps++ {
			select {
			case <-stop:
				return
			default:
			}
			if os.Rename(home, aside) != nil {
				continue
			}
			os.Rename(link, home)
			time.Sleep(20 * time.Microsecond)
			os.Rename(home, link)
			os.Rename(aside, home)
		}
	})
	for i := range 40 {
		// A new manifest each time, so that every build writes.
		data := []byte(fmt.Sprintf("%s# build %d\n", tenantYAML("/~u44/"), i))
		for _, d := range []string{home, aside} {
			writeNoFollow(d, "public_html/autodisc.yaml", data)
		}
		publishAt(t, dir, func(o *Options) { o.Jobs = 2 })
	}
	close(stop)
	wg.Wait()
	t.Logf("%d swaps", swaps)
	ents, err := os.ReadDir(filepath.Join(dir, "victim/public_html"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"keep.txt"}) {
		t.Errorf("the victim's directory now holds %v: a write was redirected", names)
	}
}

// writeNoFollow writes name below dir when dir is a directory, not a
// symlink, at the moment it is opened; otherwise it does nothing.
func writeNoFollow(dir, name string, data []byte) {
	parent, err := confined.OpenTop(filepath.Dir(dir))
	if err != nil {
		return
	}
	defer parent.Close()
	d, err := parent.OpenDir(filepath.Base(dir))
	if err != nil {
		return
	}
	defer d.Close()
	r, err := d.Root()
	if err != nil {
		return
	}
	defer r.Close()
	r.WriteFile(name, data, 0o644)
}
