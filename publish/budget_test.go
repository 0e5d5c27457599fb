package publish

import (
	"strings"
	"sync"
	"testing"
	"testing/synctest"
)

func TestManifestCost(t *testing.T) {
	for _, c := range []struct {
		data string
		want int64
	}{
		{tenantYAML("/~a/"), 0},
		{"version: 1\nagents:\n  - names: [\"*\"]\n    disallow: [/*.pdf, /a/*]\n", 0},
		{strings.Repeat("#", 100<<10), 100 << 10 * costPerByte},
		{strings.Repeat("#", 8<<20), costMax},
		{"a: &x [1]\nb: *x\n", costMax},
		{"a: &x [1]\nb: [*x, *x]\n", costMax},
		{"*x", costMax},
	} {
		if got := manifestCost([]byte(c.data)); got != c.want {
			t.Errorf("cost of %.40q: %d, want %d", c.data, got, c.want)
		}
	}
}

// A heavy request waiting for room is not passed by lighter ones that
// came after it, though they would fit; each gets room in the order it
// asked. In a synctest bubble, synctest.Wait returns once every goroutine
// is blocked: what has not been granted then never will be until a
// release.
func TestBudgetOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBudget(100)
		b.acquire(60)
		granted := make(chan int64, 3)
		var wg sync.WaitGroup
		for i, n := range []int64{80, 10, 30} {
			wg.Go(func() { granted <- b.acquire(n) })
			synctest.Wait()
			// 40 free: 10 and 30 would fit, but wait behind 80.
			if len(b.waiters) != i+1 || len(granted) != 0 {
				t.Fatalf("after asking for %d: %d waiting and %d granted, want %d and none", n, len(b.waiters), len(granted), i+1)
			}
		}
		// A small manifest never waits.
		if got := b.acquire(0); got != 0 {
			t.Errorf("a small manifest took %d", got)
		}
		b.release(60)
		synctest.Wait()
		if len(granted) != 2 {
			t.Fatalf("%d granted after the release, want 80 and 10", len(granted))
		}
		if a, c := <-granted, <-granted; a+c != 90 || a != 80 && a != 10 {
			t.Errorf("granted %d and %d after the release, want 80 and 10", a, c)
		}
		if len(b.waiters) != 1 || b.free != 10 {
			t.Errorf("%d waiting and %d free, want 30 waiting and 10 free", len(b.waiters), b.free)
		}
		b.release(80)
		synctest.Wait()
		if len(granted) != 1 {
			t.Fatalf("%d granted after the second release, want 30", len(granted))
		}
		if got := <-granted; got != 30 {
			t.Errorf("granted %d last, want 30", got)
		}
		wg.Wait()
		b.release(40)
		if b.free != 100 {
			t.Errorf("%d free at the end, want 100", b.free)
		}
	})
}

// A request over the whole budget is cut to it, and runs alone.
func TestBudgetOversized(t *testing.T) {
	b := newBudget(100)
	if got := b.acquire(1000); got != 100 || b.free != 0 {
		t.Errorf("took %d, %d left", got, b.free)
	}
	b.release(100)
}
