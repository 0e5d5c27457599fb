package adopt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/discgen/discgen/robots"
)

// hostileRobots is a robots.txt of agents × rules in one group, or of
// groups groups of one agent and one rule each.
func hostileRobots(agents, rules, groups int) []byte {
	var b strings.Builder
	for i := range agents {
		fmt.Fprintf(&b, "User-agent: b%x\n", i)
	}
	for i := range rules {
		fmt.Fprintf(&b, "Allow:/%x\n", i)
	}
	for i := range groups {
		fmt.Fprintf(&b, "User-agent: g%x\nDisallow: /%x\n", i, i)
	}
	return []byte(b.String())
}

// A robots.txt that holds more than a manifest may is refused in one
// line, before the work that grows with it: 115,000 groups took 825 MB,
// and 4,999 agents over 250,000 rules more than two minutes.
func TestImportBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"115,000 groups", hostileRobots(0, 0, 115_000), "robots.txt:10001: more than 5000 agent names; a manifest holds at most 5000: not imported"},
		{"4,999 agents x 250,000 rules", hostileRobots(4999, 250_000, 0), "robots.txt:1: more than 200000 rule lines (each group's agents times its Allow and Disallow lines); a manifest holds at most 200000: not imported"},
		{"5,001 agents", hostileRobots(5001, 1, 0), "robots.txt:5001: more than 5000 agent names"},
		// Lines a manifest would not hold as rules, but which each cost a
		// parse: 1.4 million of them, under the 4 MiB import reads, died
		// under a 1 GiB address-space limit.
		{"extension lines", []byte("User-agent: *\n" + strings.Repeat("a:\n", robots.MaxLines)), "robots.txt:500001: more than 500000 lines that hold a field or text; import reads at most 500000: not imported"},
		{"2,001 extension lines", []byte("User-agent: *\n" + strings.Repeat("a:\n", 2_001)), "robots.txt:2002: more than 2000 Crawl-delay and extension lines; import carries at most 2000 into a manifest: not imported"},
		{"lines without a key", []byte(strings.Repeat("x\n", robots.MaxLines+1)), "robots.txt:500001: more than 500000 lines"},
	} {
		if len(c.data) > MaxFile {
			t.Fatalf("%s: %d bytes, more than import reads", c.name, len(c.data))
		}
		res, err := Robots("robots.txt", c.data, Options{SiteURL: "https://example.com/", Now: goldenNow})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || res != nil {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// At the bounds, it is imported.
	for name, data := range map[string][]byte{
		"5,000 agents":             hostileRobots(5000, 1, 0),
		"100 agents x 2,000 rules": hostileRobots(100, 2000, 0),
	} {
		if _, err := Robots("robots.txt", data, Options{SiteURL: "https://example.com/", Now: goldenNow}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A comment goes with the group after it, found once for a run of
// comment lines: 40,000 of them took 4 s, and a million would take hours.
func TestManyCommentLines(t *testing.T) {
	data := "User-agent: a\nDisallow: /a\n" + strings.Repeat("# c\n", 1_000_000) + "User-agent: b\nDisallow: /b\n"
	if len(data) > MaxFile {
		t.Fatalf("%d bytes", len(data))
	}
	rp, err := importRobots("robots.txt", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rp.comments[1]); n != 1_000_000 {
		t.Errorf("%d comments on the second group, want 1000000 (first group %d)", n, len(rp.comments[0]))
	}
}

// The parser's warnings are listed up to robots.MaxListed of a kind, then
// counted: 500,000 lines without a key drew as many warnings, and with
// 100,000 rules took an import past 1 GiB of address space.
func TestImportWarningsListed(t *testing.T) {
	data := "User-agent: *\nDisallow: /\n" + strings.Repeat("x\n", robots.MaxListed+10)
	res, err := Robots("robots.txt", []byte(data), Options{SiteURL: "https://example.com/", Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	n, more := 0, ""
	for _, d := range res.Diags {
		switch {
		case strings.Contains(d.Message, "no \"key: value\" form"):
			n++
		case strings.Contains(d.Message, "more lines like"):
			more = d.String()
		}
	}
	if want := "robots.txt:1003:1: warning: 10 more lines like line 3 are not listed"; n != robots.MaxListed || more != want {
		t.Errorf("%d listed and %q, want %d and %q", n, more, robots.MaxListed, want)
	}
}
