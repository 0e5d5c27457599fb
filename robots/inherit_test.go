package robots

import (
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"
)

// A named group with InheritWildcard gets the "*" rules too, merged as RFC
// 9309 merges groups: the longest match of the union decides, Allow wins a
// tie. Every reader of the emitted file agrees.
func TestInheritWildcard(t *testing.T) {
	p := Policy{Groups: []PolicyGroup{
		{Agents: []string{"GPTBot"}, InheritWildcard: true, Rules: []PathRule{{Allow: true, Path: "/blog/"}, {Path: "/shop/"}}},
		{Agents: []string{"plainbot"}, Rules: []PathRule{{Allow: true, Path: "/blog/"}}},
		{Agents: []string{"*"}, Rules: []PathRule{{Path: "/admin/"}, {Path: "/blog/"}, {Allow: true, Path: "/shop/open/"}, {Path: "/blog/drafts/"}}},
	}}
	out, err := Emit(p)
	if err != nil {
		t.Fatal(err)
	}
	f := Parse(out)
	for _, c := range []struct {
		agent, path string
		allowed     bool
	}{
		{"GPTBot", "/admin/x", false},       // from *
		{"GPTBot", "/blog/x", true},         // its own Allow ties *'s Disallow: Allow wins
		{"GPTBot", "/blog/drafts/x", false}, // *'s longer Disallow
		{"GPTBot", "/shop/x", false},        // its own
		{"GPTBot", "/shop/open/x", true},    // *'s longer Allow
		{"GPTBot", "/other", true},
		{"plainbot", "/admin/x", true}, // no inheritance: RFC 9309 groups stand alone
		{"otherbot", "/admin/x", false},
		{"otherbot", "/blog/x", false},
	} {
		if got := p.Evaluate(c.agent, c.path); got.Allowed != c.allowed {
			t.Errorf("Evaluate(%s, %s) = %v, want %v", c.agent, c.path, got.Allowed, c.allowed)
		}
		readers := map[string]bool{
			"rfc9309":    f.Match(c.agent, c.path).Allowed,
			"1996":       f.Match1996(c.agent, c.path).Allowed,
			"grobotstxt": grobotstxt.AgentAllowed(string(out), c.agent, "https://example.com"+c.path),
		}
		for r, got := range readers {
			if got != c.allowed {
				t.Errorf("%s: %s %s allowed=%v, want %v\n%s", r, c.agent, c.path, got, c.allowed, out)
			}
		}
	}
	if rec, _, _ := strings.Cut(string(out), "\n\n"); !strings.Contains(rec, "GPTBot") || !strings.Contains(rec, "Disallow: /admin/\n") {
		t.Errorf("GPTBot's record does not carry *'s rules:\n%s", out)
	}
}
