package aipref

import "testing"

// TestCategoriesYield: Categories yields every category with its index, in
// the Content-Usage order, stops when the loop does, and what a caller
// changes in a yielded category does not reach the next caller.
func TestCategoriesYield(t *testing.T) {
	var got []string
	for i, c := range Categories {
		if i != len(got) {
			t.Errorf("index %d for %s, want %d", i, c.Manifest, len(got))
		}
		got = append(got, c.Manifest)
		c.Manifest = "changed"
	}
	if want := []string{"train_ai", "search", "ai_input"}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("categories %q, want %q", got, want)
	}
	n := 0
	for range Categories {
		n++
		break
	}
	if n != 1 {
		t.Errorf("%d categories after a break, want 1", n)
	}
	if s := (Prefs{TrainAI: PrefNo}).String(); s != "train_ai=no" {
		t.Errorf("Prefs.String() = %q after a caller changed its copy", s)
	}
}
