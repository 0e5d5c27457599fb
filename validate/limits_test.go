package validate_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/validate"
	"github.com/jimsmart/grobotstxt"
)

func siteDiags(t *testing.T, src string) []string {
	t.Helper()
	doc, errs := manifest.LoadSite("m.yaml", []byte(src), "")
	if doc == nil {
		t.Fatalf("load: %v", errs)
	}
	var out []string
	for _, d := range append(errs, checkSite(doc, validate.Options{Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})...) {
		if d.Severity.String() == "error" {
			out = append(out, fmt.Sprintf("%d:%d: %s: %s", d.Line, d.Col, d.Path, d.Message))
		}
	}
	return out
}

// TestLongRuleRefused: Google's parser reads 16,663 bytes of a line and
// cuts the rest, so "Disallow: /aaa...a/private" longer than that was
// read as a shorter rule with no warning. Every one-line value is now
// bounded at MaxValueBytes, with an error at its position.
func TestLongRuleRefused(t *testing.T) {
	long := "/" + strings.Repeat("a", 16_663) + "/private"
	src := "version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n  - names: [x]\n    disallow: [" + long + "]\n"
	got := siteDiags(t, src)
	if len(got) != 1 || !strings.HasPrefix(got[0], "5:16: agents[0].disallow[0]: ") || !strings.Contains(got[0], "a one-line value holds at most 4096") {
		t.Errorf("got %q, want one error at agents[0].disallow[0] saying the limit", got)
	}
	// The cut is real: Google's parser reads the long rule as its first
	// 16,653 bytes, which disallow a URL the whole rule does not match. If
	// a new version reads the whole line, this fails: the limit's reason
	// is to be looked at again.
	txt := "User-agent: x\nDisallow: " + long + "\n"
	if grobotstxt.AgentAllowed(txt, "x", "https://example.org"+long[:16_653]+"zzz") {
		t.Error("grobotstxt now reads the whole line: the premise of the limit no longer holds")
	}
	val := "https://example.org/" + strings.Repeat("d", validate.MaxValueBytes)
	for _, src := range []string{
		"version: 1\nsite: {url: \"https://example.org/\", description: \"" + val + "\"}\n",
		"version: 1\nsite: {url: \"https://example.org/\"}\nicons: [\"" + val + "\"]\n",
		"version: 1\nsite: {url: \"https://example.org/\"}\nsitemaps: [\"" + val + "\"]\n",
		"version: 1\nsite: {url: \"https://example.org/\"}\nfiles: {x-a: [\"" + val + "\"]}\n",
	} {
		if got := siteDiags(t, src); len(got) != 1 || !strings.Contains(got[0], "holds at most") {
			t.Errorf("%.60q...: %q, want the limit", src, got)
		}
	}
}

// TestLongestRuleReadWhole: a rule of MaxValueBytes whose every byte
// is percent-encoded when written still fits one line Google's parser
// reads whole.
func TestLongestRuleReadWhole(t *testing.T) {
	path := "/" + strings.Repeat("é", (validate.MaxValueBytes-1)/2)
	src := "version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n  - names: [x]\n    disallow: [" + path + "]\n"
	if got := siteDiags(t, src); len(got) != 0 {
		t.Fatalf("refused: %q", got)
	}
	out, err := robots.Emit(robots.Policy{Groups: []robots.PolicyGroup{{Agents: []string{"x"}, Rules: []robots.PathRule{{Path: path}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(out), "\n") {
		if len(line) >= 2083*8-1 {
			t.Errorf("a line of %d bytes", len(line))
		}
	}
	// The last character decides: the URL one short of it is allowed.
	if grobotstxt.AgentAllowed(string(out), "x", "https://example.org"+path) {
		t.Errorf("the rule is not read whole")
	}
	if !grobotstxt.AgentAllowed(string(out), "x", "https://example.org"+strings.TrimSuffix(path, "é")+"e") {
		t.Errorf("the rule matches a URL it should not")
	}
}
