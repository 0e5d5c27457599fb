package robots

import (
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"
)

// realTokens are User-agent tokens real crawlers publish that hold digits
// or dots (from the ai.robots.txt list and the operators' pages; see
// crawlers/NOTICE.md).
var realTokens = []string{"MJ12bot", "AI2Bot", "Ai2Bot-Dolma", "Channel3Bot", "Crawl4AI", "img2dataset", "360Spider"}

func TestRealTokensAccepted(t *testing.T) {
	for _, name := range realTokens {
		p := Policy{Groups: []PolicyGroup{
			{Agents: []string{name}, Rules: []PathRule{{Path: "/"}}},
			{Agents: []string{"*"}, Rules: []PathRule{{Path: "/private/"}}},
		}}
		out, err := Emit(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(string(out), "User-agent: "+name+"\n") {
			t.Errorf("%s not written as given:\n%s", name, out)
		}
		if msg, _ := AgentNameError(name); msg != "" {
			t.Errorf("AgentNameError(%q) = %q", name, msg)
		}
		// The manifest means the name as given.
		if p.Evaluate(name+"/1.0", "/x").Allowed {
			t.Errorf("%s: Evaluate allows /x", name)
		}
		// The 1996 reading finds the record by the name.
		if Parse(out).Match1996(name+"/1.0", "/x").Allowed {
			t.Errorf("%s: Match1996 allows /x\n%s", name, out)
		}
		// Google's C++ parser keeps only the leading [A-Za-z_-] run of the
		// line (Match follows it); the warning says what it reads.
		r := GoogleReading(name)
		if r == "" {
			t.Fatalf("GoogleReading(%q) is empty", name)
		}
		f := Parse(out)
		if tok := ProductToken(name); tok != "" {
			if !strings.Contains(r, `as "`+tok+`"`) {
				t.Errorf("GoogleReading(%q) = %q; want it to name %q", name, r, tok)
			}
			if f.Match(tok, "/x").Allowed {
				t.Errorf("%s: the Google reading does not give the group to %s", name, tok)
			}
		} else if !f.Match(name, "/x").Allowed {
			t.Errorf("%s: the Google reading gives the group to a name it cannot read", name)
		}
		// grobotstxt departs from Google here: it reads RFC 7231 tokens
		// (digits and dots included), so it obeys the group as written.
		if grobotstxt.AgentAllowed(string(out), name, "https://example.com/x") {
			t.Errorf("%s: grobotstxt does not obey the group", name)
		}
	}
}

func TestAgentNameRefused(t *testing.T) {
	for name, hint := range map[string]string{
		"Googlebot/2.1": `write "Googlebot"`,
		"MJ12bot/v1.4":  `write "MJ12bot"`,
		"Google bot":    "one token",
		"a:b":           "one token",
		"":              "",
		"360":           "one token",
		"é":             "one token",
	} {
		msg, h := AgentNameError(name)
		if msg == "" {
			t.Errorf("%q accepted", name)
			continue
		}
		if !strings.Contains(h, hint) {
			t.Errorf("%q: hint %q, want it to contain %q", name, h, hint)
		}
		if _, err := Emit(Policy{Groups: []PolicyGroup{{Agents: []string{name}}}}); err == nil {
			t.Errorf("Emit accepted %q", name)
		}
	}
	if msg, _ := AgentNameError("*"); msg != "" {
		t.Errorf("* refused: %s", msg)
	}
}

func TestCheckedName(t *testing.T) {
	for agent, want := range map[string]string{
		"Googlebot":     "",
		"Googlebot/2.1": `uses only "Googlebot"`,
		"MJ12bot":       `uses only "MJ"`,
		"360Spider":     "no product token",
	} {
		got := CheckedName(agent)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("CheckedName(%q) = %q, want %q", agent, got, want)
		}
	}
}

func TestLintCrawlerName(t *testing.T) {
	fs := Lint([]byte("User-agent: MJ12bot\nDisallow: /\n"))
	if len(fs) != 1 || fs[0].Code != CodeCrawlerName || fs[0].Severity.String() != "warning" || !strings.Contains(fs[0].Message, `"MJ"`) {
		t.Errorf("Lint = %v", fs)
	}
}
