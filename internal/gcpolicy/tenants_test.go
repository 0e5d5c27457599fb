package gcpolicy

import (
	"testing"
)

func TestTenantsFollowsHeld(t *testing.T) {
	limit := int64(96 << 20)
	var calls []int64
	tn := &Tenants{set: func(n int64) int64 {
		old := limit
		if n >= 0 {
			limit = n
			calls = append(calls, n)
		}
		return old
	}}
	tn.Hold(1 << 20) // before Start: nothing
	if len(calls) != 0 {
		t.Fatalf("Hold before Start set the limit: %v", calls)
	}
	tn.Start()
	base := retained() + Headroom
	if limit > 96<<20 || limit < Headroom {
		t.Fatalf("after Start: limit %d MiB, want between %d MiB and 96 MiB", limit>>20, Headroom>>20)
	}
	if base < 96<<20 && limit != base {
		// The test binary's own retained memory is small; the limit is the base.
		t.Errorf("after Start: limit %d, want %d (retained + Headroom)", limit, base)
	}
	started := limit
	tn.Hold(8 << 20)
	if want := min(96<<20, started+16<<20); limit != want {
		t.Errorf("Hold(8 MiB): limit %d MiB, want %d MiB", limit>>20, want>>20)
	}
	tn.Hold(1 << 30)
	if limit != 96<<20 {
		t.Errorf("Hold(1 GiB): limit %d MiB, want the ceiling, 96 MiB", limit>>20)
	}
	tn.Hold(0)
	if limit != started {
		t.Errorf("Hold(0): limit %d, want %d", limit, started)
	}
	tn.Done()
	if limit != 96<<20 {
		t.Errorf("Done: limit %d MiB, want 96 MiB back", limit>>20)
	}
	n := len(calls)
	tn.Hold(1 << 20)
	tn.Done()
	if len(calls) != n {
		t.Errorf("Hold and Done after Done set the limit: %v", calls[n:])
	}
}

func TestTenantsEnvironmentWins(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	tn := NewTenants()
	called := false
	tn.set = func(int64) int64 { called = true; return 0 }
	tn.Start()
	tn.Hold(1 << 20)
	tn.Done()
	if called {
		t.Error("with GOMEMLIMIT set, Tenants changed the soft limit")
	}
}
