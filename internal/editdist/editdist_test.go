package editdist

import "testing"

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"disallow", "disallow", 0},
		{"dissallow", "disallow", 1}, // insertion
		{"disalow", "disallow", 1},   // deletion
		{"descripton", "description", 1},
		{"kitten", "sitting", 3},
		{"useragent", "user-agent", 1},
		{"flaw", "lawn", 2},
	} {
		if got := Levenshtein(c.a, c.b); got != c.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Levenshtein(c.b, c.a); got != c.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d (symmetry)", c.b, c.a, got, c.want)
		}
	}
}

func TestTransposed(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"tpye", "type", 1},
		{"chekc", "check", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
		{"ca", "abc", 3}, // optimal string alignment: no edit of a swapped pair
	} {
		if got := Transposed(c.a, c.b); got != c.want {
			t.Errorf("Transposed(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	known := []string{"check", "dry-run", "type", "format", "tenant"}
	for _, c := range []struct{ s, want string }{
		{"chek", "check"},
		{"tpye", "type"},
		{"FORMAT", "format"},
		{"tenants", "tenant"},
		{"zzzz", ""},
		{"ty", ""}, // two edits from "type": not less than half of it
		// The same words in another order, or joined otherwise.
		{"ai_train", "train_ai"},
		{"train-ai", "train_ai"},
		{"input_ai", "ai_input"},
		{"ai_search", ""},
	} {
		if got := Closest(c.s, append(known, "train_ai", "ai_input", "search")); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}
