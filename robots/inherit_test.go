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

// Enforcements gives each enforced agent its merged rules (inherited "*"
// rules included) in last-match-wins order, and leaves out what a server
// cannot match.
func TestEnforcements(t *testing.T) {
	p := Policy{Groups: []PolicyGroup{
		{Agents: []string{"GPTBot", "*"}, Enforce: true, Rules: []PathRule{{Path: "/a/"}, {Allow: true, Path: "/a/"}, {Path: "/q?x"}}},
		{Agents: []string{"gptbot"}, Rules: []PathRule{{Path: "/%7Eb"}}},
		{Agents: []string{"CCBot"}, Enforce: true, InheritWildcard: true, Rules: []PathRule{{Allow: true, Path: "/pub"}}},
		{Agents: []string{"*"}, Rules: []PathRule{{Path: "/"}}},
	}}
	enf, fs := p.Enforcements()
	var got []string
	for _, e := range enf {
		var rs []string
		for _, r := range e.Rules {
			rs = append(rs, r.String())
		}
		got = append(got, e.Agent+": "+strings.Join(rs, ", "))
	}
	want := []string{
		"GPTBot: Disallow: /a/, Disallow: /~b, Allow: /a/",           // by length, Disallow first
		"CCBot: Disallow: /, Disallow: /a/, Allow: /a/, Allow: /pub", // both "*" groups' rules
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(fs) != 2 || fs[0].Code != CodeNotEnforced || fs[0].Pattern != "/q?x" || fs[1].Agent != "CCBot" {
		t.Errorf("findings %v", fs)
	}
}
