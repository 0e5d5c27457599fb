package robots

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestOrderMemoPerNameSet: a policy's record order is remembered in the
// NameSet it gives, not in the package: a second plan of the same names
// with the same set finds it there, another set keeps its own, and a policy
// without a set leaves every memo as it was; the bytes are the same in
// every case, and plans made at once share a set safely.
func TestOrderMemoPerNameSet(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	names := randomNames(r, 2*orderMemoMin, "abcd")
	policy := func(set *NameSet) Policy {
		p := Policy{Names: set}
		for i, n := range names {
			p.Groups = append(p.Groups, PolicyGroup{Agents: []string{n}, Rules: []PathRule{{Path: "/" + n + "/", Allow: i%3 == 0}}})
		}
		return p
	}
	emit := func(p Policy) string {
		t.Helper()
		out, err := Emit(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	a, b := NewNameSet(names[:orderMemoMin]), NewNameSet(names[:orderMemoMin])
	want := emit(policy(nil))
	if a.orders.missed != 0 || b.orders.missed != 0 {
		t.Fatalf("a plan without a set was remembered in a set: %d, %d", a.orders.missed, b.orders.missed)
	}
	for range 2 {
		if got := emit(policy(a)); got != want {
			t.Fatalf("with a set:\n%s\nwant\n%s", got, want)
		}
	}
	if a.orders.missed != 1 || len(a.orders.byKey) != 1 {
		t.Errorf("set a: %d orders computed, %d kept after two plans of one policy, want 1 and 1", a.orders.missed, len(a.orders.byKey))
	}
	if b.orders.missed != 0 || len(b.orders.byKey) != 0 {
		t.Errorf("set b holds %d orders it never planned", len(b.orders.byKey))
	}
	if got := emit(policy(b)); got != want || b.orders.missed != 1 {
		t.Errorf("set b: %d orders computed for its first plan, want 1 (output equal: %v)", b.orders.missed, got == want)
	}
	emit(policy(nil))
	if a.orders.missed != 1 || b.orders.missed != 1 {
		t.Errorf("a plan without a set changed a memo: %d, %d", a.orders.missed, b.orders.missed)
	}

	c := NewNameSet(names)
	var wg sync.WaitGroup
	outs := make([]string, 8)
	for i := range outs {
		wg.Go(func() {
			out, err := Emit(policy(c))
			if err != nil {
				t.Error(err)
			}
			outs[i] = string(out)
		})
	}
	wg.Wait()
	for i, out := range outs {
		if out != want {
			t.Errorf("plan %d made at once with others differs", i)
		}
	}
	if len(c.orders.byKey) != 1 {
		t.Errorf("%d orders kept for one policy planned at once, want 1", len(c.orders.byKey))
	}
}
