package publish

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// recordingCollector records what a build tells its Collector.
type recordingCollector struct {
	mu    sync.Mutex
	calls []string
	held  []int64
}

func (c *recordingCollector) Start() { c.add("start") }
func (c *recordingCollector) Done()  { c.add("done") }
func (c *recordingCollector) Hold(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, "hold")
	c.held = append(c.held, n)
}

func (c *recordingCollector) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, s)
}

// The Collector hears of the tenants' phase and of the memory budget a
// large tenant manifest takes, then of its release.
func TestCollectorFollowsBudget(t *testing.T) {
	dir := t.TempDir()
	var big []byte
	manifest := writeHost(t, dir, `version: 1
site:
  url: https://isp.example/
delegations:
  - path: "~*"
    tenants: "users/*/public_html/autodisc.yaml"
`, 3, func(user string, i int) []byte {
		var b strings.Builder
		fmt.Fprintf(&b, "version: 1\npath: /~%s/\nagents:\n  - names: [\"*\"]\n    disallow:\n", user)
		rules := 2
		if i == 1 {
			rules = 4000 // past smallManifest: a cost taken from the budget
		}
		for r := range rules {
			fmt.Fprintf(&b, "      - /~%s/p%05d/\n", user, r)
		}
		if i == 1 {
			big = []byte(b.String())
		}
		return []byte(b.String())
	})
	cost := manifestCost(big)
	if cost == 0 {
		t.Fatalf("the large tenant's manifest (%d bytes) costs nothing: make it larger", len(big))
	}
	c := &recordingCollector{}
	sum := Run(Options{Manifest: manifest, Mode: Render, Collector: c}, func(u *Unit) {
		if u.Status != Built {
			t.Errorf("%s: %v %v", u.Manifest, u.Status, u.Diags)
		}
	})
	if sum.Count[Built] != 4 || sum.Failed {
		t.Fatalf("summary %+v: want the site and 3 tenants built", sum)
	}
	if len(c.calls) < 2 || c.calls[0] != "start" || c.calls[len(c.calls)-1] != "done" {
		t.Fatalf("calls %v: want start first and done last", c.calls)
	}
	if !slices.Contains(c.held, cost) {
		t.Errorf("held %v: want the large manifest's cost %d", c.held, cost)
	}
	if c.held[len(c.held)-1] != 0 {
		t.Errorf("held %v: the last is not 0 (budget given back)", c.held)
	}
}
