//go:build unix

package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A full build applies its tenants in batches of at most applyBatch, each
// tenant reported once with what its batch did; a tenant whose output
// cannot be written is refused without stopping the others of its batch.
func TestBatchedWrite(t *testing.T) {
	n := 2*applyBatch + 5
	dir := t.TempDir()
	scaleSite(t, dir, n)
	// A file of the user's own where an output goes: refused, not
	// replaced, while its batch is written.
	foreign := filepath.Join(dir, "users", "u0000007", "public_html", "autodisc", "description.txt")
	if err := os.MkdirAll(filepath.Dir(foreign), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(foreign, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var sizes []int
	h := &hooks{batch: func(k int) {
		mu.Lock()
		sizes = append(sizes, k)
		mu.Unlock()
	}}

	o := publishAt(t, dir, hooked(h, func(o *Options) { o.Jobs = 16 }))
	bad := "users/u0000007/public_html"
	if got := len(o.with(Built)); got != n-1 {
		t.Errorf("built %d tenants, want %d", got, n-1)
	}
	if o.status[bad] != Refused || !strings.Contains(o.reasons(bad), "description.txt") {
		t.Errorf("%s: %s %q, want refused over description.txt", bad, o.status[bad], o.reasons(bad))
	}
	if data, _ := os.ReadFile(foreign); string(data) != "mine\n" {
		t.Errorf("the user's own file became %q", data)
	}
	total := 0
	for _, k := range sizes {
		if k < 1 || k > applyBatch {
			t.Errorf("a batch of %d plans, want 1 to %d", k, applyBatch)
		}
		total += k
	}
	if total != n {
		t.Errorf("batches %v hold %d plans, want %d", sizes, total, n)
	}
	if len(sizes) < 3 {
		t.Errorf("batches %v: %d plans in fewer than 3 batches of at most %d", sizes, n, applyBatch)
	}
	for i := range n {
		if i == 7 {
			continue
		}
		p := filepath.Join(dir, "users", fmt.Sprintf("u%07d", i), "public_html", "autodisc", "description.txt")
		if data, err := os.ReadFile(p); err != nil || !strings.Contains(string(data), fmt.Sprintf("u%07d", i)) {
			t.Errorf("%s: %q %v", p, data, err)
		}
	}

	// Nothing changed: every tenant but the refused one is unchanged, and
	// no batch is applied for them.
	sizes = nil
	o = publishAt(t, dir, hooked(h, nil))
	if got := len(o.with(Unchanged)); got != n-1 {
		t.Errorf("second build: %d unchanged, want %d (built %v)", got, n-1, o.with(Built))
	}
	if len(sizes) != 1 || sizes[0] != 1 {
		t.Errorf("second build applied batches %v, want one of the refused tenant alone", sizes)
	}
}

// The same manifest named twice (as two spellings of one path) is built
// and reported once: two plans of one root would race each other.
func TestTenantNamedTwice(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSite,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
	})
	f := filepath.Join(dir, "users/alice/public_html/autodisc.yaml")
	var sizes []int
	h := &hooks{batch: func(k int) { sizes = append(sizes, k) }}
	var got []Status
	var mu sync.Mutex
	Run(Options{
		Manifest: filepath.Join(dir, "site.yaml"), Now: goldenNow, Jobs: 4,
		StateDir: filepath.Join(dir, ".state"), Tenants: []string{f, filepath.Join(dir, "users/./alice/public_html/autodisc.yaml")},
		hooks: h,
	}, func(u *Unit) {
		mu.Lock()
		defer mu.Unlock()
		if u.Kind == Tenant {
			got = append(got, u.Status)
			if u.Status != Built && u.Status != Unchanged {
				t.Errorf("%s: %s %v %v", u.Dir, u.Status, u.Diags, u.Problem)
			}
		}
	})
	if len(got) != 1 || got[0] != Built {
		t.Errorf("reported %v, want the tenant built once", got)
	}
	if len(sizes) != 1 || sizes[0] != 1 {
		t.Errorf("batches %v, want one of one plan", sizes)
	}
	data, err := os.ReadFile(filepath.Join(dir, "users/alice/public_html/autodisc/description.txt"))
	if err != nil || !strings.Contains(string(data), "home of /~alice/") {
		t.Errorf("description.txt: %q %v", data, err)
	}
}

// The record name the pipeline gives output is the one output derives by
// itself: tenants written without it are unchanged with it, and the
// reverse.
func TestRecordNameAsOutputDerives(t *testing.T) {
	dir := t.TempDir()
	scaleSite(t, dir, 20)
	// The manifest and state named relative to the working directory, as
	// a user runs discgen.
	t.Chdir(dir)
	build := func(h *hooks) outcome {
		var o outcome
		o.status = map[string]Status{}
		Run(Options{Manifest: "site.yaml", Now: goldenNow, Jobs: 4, Out: "public", StateDir: ".discgen", hooks: h}, func(u *Unit) {
			if u.Kind == Tenant {
				o.status[u.Dir] = u.Status
			}
		})
		return o
	}
	byOutput := &hooks{noRecordName: true}
	o := build(byOutput)
	if n := len(o.with(Built)); n != 20 {
		t.Fatalf("built %d, want 20", n)
	}
	if o = build(nil); len(o.with(Unchanged)) != 20 {
		t.Errorf("with the record named by the pipeline: %v, want 20 unchanged", o.status)
	}
	if o = build(byOutput); len(o.with(Unchanged)) != 20 {
		t.Errorf("with the record named by output: %v, want 20 unchanged", o.status)
	}
}

// The batches in flight are cut to what the open-file limit holds.
func TestBatchersFor(t *testing.T) {
	for _, c := range []struct {
		jobs  int
		limit uint64
		want  int
	}{
		{64, 0, 1},
		{64, 1024, 1},
		{64, 2048, 2},
		{64, 4096, appliers},
		{64, 1 << 20, appliers},
		{1000, 4096, 1},
	} {
		if got := batchersFor(c.jobs, c.limit); got != c.want {
			t.Errorf("batchersFor(%d, %d) = %d, want %d", c.jobs, c.limit, got, c.want)
		}
	}
}
