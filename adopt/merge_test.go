package adopt

import (
	"strings"
	"testing"
)

// Agents with the same rules share a group, as docs/commands.md says, across
// adjacent groups too (a built robots.txt writes a group an agent: 29
// repeated usage blocks for the ai-training preset); groups apart stay
// apart, so that the built file keeps the input's order. A merged group's
// comment goes with it.
func TestImportMergesSameRules(t *testing.T) {
	body := []byte(`# one
User-agent: AlphaBot
Disallow: /
Content-Usage: train-ai=n

# two
User-agent: BetaBot
Disallow: /
Content-Usage: train-ai=n

# three
User-agent: GammaBot
Disallow: /private/

# four
User-agent: DeltaBot
Disallow: /
Content-Usage: train-ai=n

User-agent: *
Disallow: /admin/
`)
	built, res := roundTrip(t, "robots.txt", body)
	y := string(res.YAML)
	if n := strings.Count(y, "- names:"); n != 4 {
		t.Errorf("%d groups, want 4 (AlphaBot and BetaBot in one):\n%s", n, y)
	}
	if !strings.Contains(y, "names: [AlphaBot, BetaBot]") {
		t.Errorf("AlphaBot and BetaBot do not share a group:\n%s", y)
	}
	last := -1
	for _, c := range []string{"# one", "# two", "# three", "# four"} {
		i := strings.Index(y, c)
		if i < 0 || i < last {
			t.Errorf("comment %q missing or out of order:\n%s", c, y)
		}
		last = max(last, i)
	}
	want := "User-agent: AlphaBot\n"
	for _, n := range []string{"BetaBot", "GammaBot", "DeltaBot", "*"} {
		if i, j := strings.Index(built, want), strings.Index(built, "User-agent: "+n+"\n"); i < 0 || j < i {
			t.Errorf("the built robots.txt lacks %s or has it before %q:\n%s", n, want, built)
		}
		want = "User-agent: " + n + "\n"
	}
}

// The file's comments come in the file's order, before the notes import
// adds to a group (a merge of one agent's groups, its lines kept as
// extensions).
func TestImportCommentsInOrder(t *testing.T) {
	body := []byte(`# about alpha
User-agent: AlphaBot
Disallow: /
Request-rate: 1/5

# about alpha again
User-agent: AlphaBot
Disallow: /tmp/
`)
	_, res := roundTrip(t, "robots.txt", body)
	y := string(res.YAML)
	a, b, n := strings.Index(y, "# about alpha\n"), strings.Index(y, "# about alpha again"), strings.Index(y, "# AlphaBot: the groups of lines 2, 7 merged")
	if a < 0 || b < 0 || n < 0 || !(a < b && b < n) {
		t.Errorf("comments out of order (want the file's two, then the merge note):\n%s", y)
	}
}
