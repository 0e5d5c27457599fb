package aipref

import "testing"

func TestParseSignal(t *testing.T) {
	for _, c := range []struct {
		value, prefs, use string
		problems          int
	}{
		{"search=yes, ai-input=yes, ai-train=no", "train_ai=no, search=yes, ai_input=yes", "", 0},
		{"search=yes,ai-train=no,use=reference", "train_ai=no, search=yes", "reference", 0}, // Cloudflare's managed file
		{"use=forever", "none", "", 1},
		{"ai-train=n", "none", "", 1},
		{"ai-training=no", "none", "", 1},
		{"search=yes, search=no", "search=no", "", 1},
		{"search=yes, ai-train=(no), x=%\"%c3%a9\"", "search=yes", "", 2},
	} {
		p, use, problems := ParseSignal(c.value)
		if p.String() != c.prefs || use != c.use || len(problems) != c.problems {
			t.Errorf("ParseSignal(%q) = %s, %q; want %s, %d problems", c.value, p, problems, c.prefs, c.problems)
		}
	}
}
