package validate_test

import (
	"slices"
	"strings"
	"testing"
)

// TestThrottleErrors: a bad rate, a burst out of bounds, a throttle on
// "*" alone and a crawler throttled by two groups are each an error at its
// position, all in one run.
func TestThrottleErrors(t *testing.T) {
	src := `version: 1
site: {url: "https://example.org/"}
agents:
  - names: [GPTBot, ClaudeBot]
    allow: [/]
    throttle: {rate: 1r/s, burst: 10}
  - names: [CCBot]
    allow: [/]
    throttle: {rate: 0/m, burst: 100001}
  - names: [Bytespider]
    allow: [/]
    throttle: {rate: 100001/s, burst: -1}
  - names: ["*"]
    allow: [/]
    throttle: {rate: 1/s}
  - names: [gptbot, Amazonbot]
    allow: [/]
    throttle:
      rate: 2/s
  - names: [Applebot]
    allow: [/]
    throttle: {burst: 3}
`
	got := siteDiags(t, src)
	for _, want := range []string{
		`6:22: agents[0].throttle.rate: rate "1r/s" is not N/s or N/m`,
		`9:22: agents[1].throttle.rate: rate "0/m": at least 1`,
		`12:22: agents[2].throttle.rate: rate "100001/s": at most 100000`,
		`12:39: agents[2].throttle.burst: `,
		`15:5: agents[3].throttle: throttle needs named crawlers`,
		`9:34: agents[1].throttle.burst: `,
		`18:5: agents[4].throttle: gptbot is throttled by agents[0] already`,
		`22:15: agents[5].throttle: `,
	} {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
			t.Errorf("no error %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	if len(got) != 8 {
		t.Errorf("%d errors, want 8:\n%s", len(got), strings.Join(got, "\n"))
	}
}

// TestThrottleValid: the design's own example is no error, and a
// throttled name too long for the User-Agent expression is one.
func TestThrottleValid(t *testing.T) {
	src := "version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n  - presets: [ai-training]\n    allow: [/]\n    throttle: {rate: 1/s, burst: 10}\n"
	if got := siteDiags(t, src); len(got) != 0 {
		t.Errorf("errors %q", got)
	}
	long := "version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n  - names: [" + strings.Repeat("a", 1025) + "]\n    allow: [/]\n    throttle: {rate: 1/s}\n"
	if got := siteDiags(t, long); len(got) != 1 || !strings.HasPrefix(got[0], "4:13: agents[0].names[0]: ") {
		t.Errorf("errors %q, want one at the long name", got)
	}
}

// TestThrottleInDelegateeIgnored: server configuration slows only the
// site manifest's own groups, so a delegatee's throttle is warned at its
// key.
func TestThrottleInDelegateeIgnored(t *testing.T) {
	src := "version: 1\nsite: {url: \"https://example.org/\"}\ndelegations:\n  - path: /blog/\n    inline:\n      agents:\n        - names: [GPTBot]\n          disallow: [/blog/x/]\n          throttle: {rate: 1/s}\n"
	got := siteWarnings(t, src)
	if !slices.ContainsFunc(got, func(w string) bool {
		return strings.HasPrefix(w, "delegations[0].inline.agents[0].throttle: throttle is ignored here")
	}) {
		t.Errorf("no warning at the delegatee's throttle in %q", got)
	}
}
