package serverconf

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/tree"
)

const uaClaude = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"

// liveThrottle is GPTBot and ClaudeBot at 1/m with a burst of 3: within
// the test's few seconds each may have 4 requests, then 429.
var liveThrottle = &Throttle{ID: "example_org_test", Classes: []ThrottleClass{
	{Names: []string{"GPTBot", "ClaudeBot"}, Rate: Rate{N: 1, PerMinute: true}, Burst: 3},
}}

// serveNginxThrottle is serveNginx with nginx/discgen-throttle.conf
// included in the http block, as docs/commands.md says.
func serveNginxThrottle(t *testing.T, src tree.Tree, a Access, extra ...tree.Tree) int {
	t.Helper()
	livetest.NeedsNginx(t)
	dir, site, conf := liveSite(t, Nginx, src, a, extra...)
	return livetest.Nginx(t, dir, site, conf, filepath.Join(dir, "conf", filepath.FromSlash(NginxThrottleFile)))
}

// checkThrottle asks from 127.0.0.1 only, a bounded number of times: a
// browser is never limited, GPTBot has 1 + 3 requests and then 429 (in
// any case of its name, the key being the name), /robots.txt is served
// to it past its burst, ClaudeBot keeps its own budget, and a name that
// holds GPTBot but not as a product is not limited.
func checkThrottle(t *testing.T, port int) {
	t.Helper()
	get := func(ua, path string) int { return getFrom(t, port, "127.0.0.1", ua, path, nil) }
	expect := func(what string, n int, ua, path string, want int) {
		t.Helper()
		for i := range n {
			if got := get(ua, path); got != want {
				t.Errorf("%s: request %d of %d for %s: status %d, want %d", what, i+1, n, path, got, want)
				return
			}
		}
	}
	expect("browser before", 20, uaBrowser, "/open.txt", 200)
	expect("GPTBot within its burst", 4, uaGPT, "/open.txt", 200)
	expect("GPTBot past its burst", 3, uaGPT, "/open.txt", 429)
	expect("gptbot, the bare token", 1, "gptbot", "/open.txt", 429)
	expect("GPTBot's robots.txt", 10, uaGPT, "/robots.txt", 200)
	expect("browser after", 20, uaBrowser, "/open.txt", 200)
	expect("a lookalike", 10, uaLookalike, "/open.txt", 200)
	expect("ClaudeBot, its own budget", 4, uaClaude, "/open.txt", 200)
	expect("ClaudeBot past its burst", 1, uaClaude, "/open.txt", 429)
}

func TestLiveThrottleNginx(t *testing.T) {
	rendered, content := accessTree()
	t.Run("throttle", func(t *testing.T) {
		checkThrottle(t, serveNginxThrottle(t, rendered, Access{Throttle: liveThrottle}, content))
	})
	// The design's example: every crawler of the ai-training preset,
	// names of several words included, in one class.
	t.Run("preset", func(t *testing.T) {
		names := crawlers.Default().Expand(nil, []string{"ai-training"}, nil)
		if len(names) < 10 || !slices.Contains(names, "GPTBot") || !slices.Contains(names, "ClaudeBot") {
			t.Fatalf("ai-training: %v", names)
		}
		th := &Throttle{ID: "example_org_test", Classes: []ThrottleClass{{Names: names, Rate: Rate{N: 1, PerMinute: true}, Burst: 3}}}
		checkThrottle(t, serveNginxThrottle(t, rendered, Access{Throttle: th}, content))
	})
	// A refusal wins and is not counted: GPTBot's 403s on /private/ leave
	// its budget whole.
	t.Run("throttle+enforce", func(t *testing.T) {
		enf, _ := accessPolicy.Enforcements()
		port := serveNginxThrottle(t, rendered, Access{Enforce: enf, Throttle: liveThrottle}, content)
		for i := range 10 {
			if got := getFrom(t, port, "127.0.0.1", uaGPT, "/private/x.txt", nil); got != 403 {
				t.Fatalf("refused path, request %d: status %d, want 403", i+1, got)
			}
		}
		checkThrottle(t, port)
	})
}
