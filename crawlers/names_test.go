package crawlers

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/discgen/discgen/robots"
)

// TestNamesChangeNoFinding builds policies as tenants write them, presets
// beside names of their own (parts of catalogue names, names holding
// them, names of the catalogue itself), and wants the same R026 and R027
// findings and the same robots.txt with the catalogue's NameSet as
// without it.
func TestNamesChangeNoFinding(t *testing.T) {
	c := Default()
	presets := c.Presets()
	typed := []string{"bot", "Bot", "ai", "GPT", "spider", "crawler", "GPTBot", "GPTBot-News", "ClaudeBot",
		"x", "a", "Google", "Googlebot", "bingbot", "myclaudebotclone", "Amazonbot2", "Bytespider", "Applebot-Extended", "u0000001bot"}
	r := rand.New(rand.NewPCG(11, 12))
	findings := 0
	for range 300 {
		var p robots.Policy
		for range 1 + r.IntN(4) {
			var g robots.PolicyGroup
			var ps []string
			for range r.IntN(3) {
				ps = append(ps, presets[r.IntN(len(presets))])
			}
			var names []string
			for range r.IntN(4) {
				names = append(names, typed[r.IntN(len(typed))])
			}
			if r.IntN(5) == 0 {
				names = append(names, "*")
			}
			g.Agents = c.Expand(names, ps, nil)
			if len(g.Agents) == 0 {
				continue
			}
			g.Rules = []robots.PathRule{{Path: fmt.Sprintf("/p%d/", r.IntN(3))}}
			p.Groups = append(p.Groups, g)
		}
		q := p
		q.Names = c.Names()
		want, got := robots.NameFindings(p), robots.NameFindings(q)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("groups %v:\nfindings %v\nwant %v", p.Groups, got, want)
		}
		findings += len(want)
		a, err1 := robots.Emit(p)
		b, err2 := robots.Emit(q)
		if string(a) != string(b) || fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("groups %v:\n%s\nwant\n%s", p.Groups, b, a)
		}
	}
	if findings < 300 {
		t.Errorf("only %d findings in all: the policies do not exercise R026", findings)
	}
	t.Logf("%d findings", findings)
}

// TestNamesShared: policies of several goroutines use the catalogue's
// NameSet, and Holding's kept answers, at once (go test -race), as a
// build's workers do.
func TestNamesShared(t *testing.T) {
	c := Default()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			p := robots.Policy{Names: c.Names(), Groups: []robots.PolicyGroup{
				{Agents: c.Expand([]string{"bot", fmt.Sprintf("u%dbot", i)}, []string{"ai-training", "ai-search"}, nil), Rules: []robots.PathRule{{Path: "/a/"}}},
				{Agents: []string{"GPTBot-News", "Applebot"}, Rules: []robots.PathRule{{Path: "/b/"}}},
			}}
			for range 20 {
				Known().Holding("Applebot")
				robots.NameFindings(p)
				if _, err := robots.Emit(p); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}
