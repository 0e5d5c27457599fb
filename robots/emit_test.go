package robots

import (
	"errors"
	"strings"
	"testing"
)

// Two shared records that would each have to come first: "bot" is in
// "robot" and "xy" is in "xyz". Emit splits one of them.
// Names that are substrings of one another in both directions across
// groups: one record per agent orders them without a cycle.
func TestEmitSubstringCycle(t *testing.T) {
	p := Policy{Groups: []PolicyGroup{
		{Agents: []string{"bot", "xyz"}},
		{Agents: []string{"robot", "xy"}, Rules: []PathRule{{Path: "/"}}},
		{Agents: []string{"*"}, Rules: []PathRule{{Path: "/private"}}},
	}}
	out, err := Emit(p)
	if err != nil {
		t.Fatal(err)
	}
	f := Parse(out)
	if len(f.Groups) != 5 {
		t.Errorf("want 5 records (one per agent), got %d:\n%s", len(f.Groups), out)
	}
	for _, a := range []string{"bot", "xyz", "robot", "xy", "other"} {
		for _, u := range []string{"/", "/private/x", "/public"} {
			want := p.Evaluate(a, u).Allowed
			if g := f.Match(a, u).Allowed; g != want {
				t.Errorf("RFC 9309 %s %s: %v, want %v", a, u, g, want)
			}
			if g := f.Match1996(a, u).Allowed; g != want {
				t.Errorf("1996 %s %s: %v, want %v\n%s", a, u, g, want, out)
			}
		}
	}
}

func TestEmitOrdersSubstringsFirst(t *testing.T) {
	p := Policy{Groups: []PolicyGroup{
		{Agents: []string{"googlebot"}, Rules: []PathRule{{Path: "/g"}}},
		{Agents: []string{"*"}, Rules: []PathRule{{Path: "/"}}},
		{Agents: []string{"bot"}, Rules: []PathRule{{Path: "/b"}}},
		{Agents: []string{"GoogleBot"}, Rules: []PathRule{{Path: "/h"}}}, // merged with googlebot
	}}
	out, err := Emit(p)
	if err != nil {
		t.Fatal(err)
	}
	want := "User-agent: bot\nDisallow: /b\n\nUser-agent: googlebot\nDisallow: /g\nDisallow: /h\n\nUser-agent: *\nDisallow: /\n"
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestEmitCanonicalPaths(t *testing.T) {
	p := Policy{Groups: []PolicyGroup{{Agents: []string{"a"}, Rules: []PathRule{
		{Path: "/%7ejoe/%2f/%3c/caf\u00e9/a b/%zz"},
	}}}}
	out, err := Emit(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"Disallow: /~joe/%2F/%3C/caf%C3%A9/a%20b/%25zz",
		"Disallow: /%7Ejoe/%2F/%3C/caf%C3%A9/a%20b/%25zz",
	} {
		if !strings.Contains(string(out), line+"\n") {
			t.Errorf("missing %q in:\n%s", line, out)
		}
	}
}

func TestEmitTail(t *testing.T) {
	p := Policy{
		Groups:   []PolicyGroup{{Agents: []string{"*"}, CrawlDelay: "0.5", Extensions: []Extension{{"Clean-param", "ref /articles/"}}}},
		Sitemaps: []string{"https://www.fict.org/sitemap.xml"},
		MobileAgents: []MobileAgent{
			{"/home/user2/", "atp://user2.fict.org:831"},
			{"/home/", "none"},
			{"/", "atp://www.fict.org:8001"},
			{"/home/user1/", "atp://user1.fict.org:854"},
		},
		Host: "www.fict.org",
	}
	out, err := Emit(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `User-agent: *
Disallow:
Crawl-delay: 0.5
Clean-param: ref /articles/

Mobile-agent-server: / atp://www.fict.org:8001
Mobile-agent-server: /home/ none
Mobile-agent-server: /home/user2/ atp://user2.fict.org:831
Mobile-agent-server: /home/user1/ atp://user1.fict.org:854
Host: www.fict.org
Sitemap: https://www.fict.org/sitemap.xml
`
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
	// Seed 002's matrix ("later lines override"), its user2 typo corrected.
	f := Parse(out)
	for url, want := range map[string]string{
		"http://www.fict.org/index.html":            "atp://www.fict.org:8001",
		"http://www.fict.org/services/index.html":   "atp://www.fict.org:8001",
		"http://www.fict.org/robots.txt":            "atp://www.fict.org:8001",
		"http://www.fict.org/home/":                 "none",
		"http://www.fict.org/home/user1/":           "atp://user1.fict.org:854",
		"http://www.fict.org/home/user1/index.html": "atp://user1.fict.org:854",
		"http://www.fict.org/home/user2/index.html": "atp://user2.fict.org:831",
		"http://www.fict.org/home/user3/index.html": "none",
	} {
		if got, _, _ := f.MobileAgentServer(url); got != want {
			t.Errorf("%s: server %q, want %q", url, got, want)
		}
	}
	if len(f.Groups) != 1 || len(f.Groups[0].Other) != 2 || len(f.Sitemaps) != 1 || len(f.Hosts) != 1 {
		t.Errorf("parsed back: %+v", f)
	}
}

func TestEmitRejects(t *testing.T) {
	for name, p := range map[string]Policy{
		"agent with version": {Groups: []PolicyGroup{{Agents: []string{"bot/2.1"}}}},
		"agent with space":   {Groups: []PolicyGroup{{Agents: []string{"Google bot"}}}},
		"agent with colon":   {Groups: []PolicyGroup{{Agents: []string{"bot:x"}}}},
		"no agents":          {Groups: []PolicyGroup{{}}},
		"relative path":      {Groups: []PolicyGroup{{Agents: []string{"a"}, Rules: []PathRule{{Path: "x"}}}}},
		"newline in path":    {Groups: []PolicyGroup{{Agents: []string{"a"}, Rules: []PathRule{{Path: "/x\nDisallow: /"}}}}},
		"comment in path":    {Groups: []PolicyGroup{{Agents: []string{"a"}, Rules: []PathRule{{Path: "/x#y"}}}}},
		"extension allow":    {Groups: []PolicyGroup{{Agents: []string{"a"}, Extensions: []Extension{{"Allowed", "/"}}}}},
		"extension colon":    {Groups: []PolicyGroup{{Agents: []string{"a"}, Extensions: []Extension{{"a:b", "c"}}}}},
		"newline in delay":   {Groups: []PolicyGroup{{Agents: []string{"a"}, CrawlDelay: "1\nUser-agent: x"}}},
		"sitemap newline":    {Sitemaps: []string{"http://x/\r"}},
		"mobile bad path":    {MobileAgents: []MobileAgent{{"home", "none"}}},
		"mobile space":       {MobileAgents: []MobileAgent{{"/", "a b"}}},
		"host with comment":  {Host: "a#b"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := Emit(p)
			var pe *PolicyError
			if !errors.As(err, &pe) {
				t.Fatalf("Emit = %q, %v; want a *PolicyError", out, err)
			}
		})
	}
}

func TestPortability(t *testing.T) {
	p := Policy{Groups: []PolicyGroup{
		{Agents: []string{"aa"}, Rules: []PathRule{{Path: "/*.php"}, {Allow: true, Path: "/x$"}}},
		{Agents: []string{"bb"}, Rules: []PathRule{{Allow: true, Path: "/d/index.html"}, {Path: "/q%3fx"}, {Path: "/~1~2~3~4"}}, CrawlDelay: "5"},
		{Agents: []string{"bb"}, CrawlDelay: "6"},
		{Agents: []string{"cc"}, Rules: []PathRule{{Path: "/plain"}}},
	}}
	got := map[string][]string{}
	for _, f := range Portability(p) {
		got[f.Code] = append(got[f.Code], f.Agent+" "+f.Pattern)
	}
	want := map[string][]string{
		CodeWildcard:       {"aa /*.php", "aa /x$"},
		CodeIndexHTML:      {"bb /d/index.html"},
		CodeReservedEscape: {"bb /q%3fx"},
		CodeTildeVariants:  {"bb /~1~2~3~4"},
		CodeCrawlDelay:     {"bb ", "bb ", "bb "},
		CodeEscapedTilde:   {"bb /~1~2~3~4"}, // /%7E1%7E2%7E3%7E4 is longer than /d/index.html
	}
	for code, w := range want {
		if strings.Join(got[code], "|") != strings.Join(w, "|") {
			t.Errorf("%s: got %q, want %q", code, got[code], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("unexpected codes: %v", got)
	}
	// The wildcard warning is real: the two readings of the emitted file
	// disagree.
	out, _ := Emit(p)
	f := Parse(out)
	if f.Match("aa", "/x.php").Allowed == f.Match1996("aa", "/x.php").Allowed {
		t.Errorf("expected the readings to disagree on /x.php")
	}
}

// Agents with the same rules in a different order share a record.
// Agents with the same rules still get a record each: npm
// robots-txt-parser gives a record's rules to its last User-agent line only.
func TestEmitRecordPerAgent(t *testing.T) {
	p := Policy{Groups: []PolicyGroup{
		{Agents: []string{"a"}, Rules: []PathRule{{Path: "/x"}, {Allow: true, Path: "/y"}}},
		{Agents: []string{"b"}, Rules: []PathRule{{Allow: true, Path: "/y"}, {Path: "/x"}}},
	}}
	out, err := Emit(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := "User-agent: a\nAllow: /y\nDisallow: /x\n\nUser-agent: b\nAllow: /y\nDisallow: /x\n"; string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// The findings about readers of other languages, each naming them.
func TestPortabilityReaders(t *testing.T) {
	p := Policy{Groups: []PolicyGroup{
		{Agents: []string{"bot"}, Rules: []PathRule{{Path: "/a"}}},
		{Agents: []string{"googlebot"}, Rules: []PathRule{{Path: "/b"}, {Allow: true, Path: "/b/pub"}}},
		{Agents: []string{"x"}, Rules: []PathRule{{Path: "//host"}, {Path: "/q?"}}},
	}}
	got := map[string]string{}
	for _, f := range Portability(p) {
		got[f.Code] += f.Agent + ": " + f.Message + "\n"
	}
	for code, want := range map[string][]string{
		CodeSubstringNames: {"googlebot:", "urllib.robotparser", "webrobots", "WWW::RobotRules"},
		CodeShortName:      {"x:", "temoto/robotstxt"},
		CodeDoubleSlash:    {"//host", "urllib.robotparser", "protego"},
		CodeAllowUnread:    {"googlebot:", "/b/pub", "WWW::RobotRules"},
		CodeEmptyQuery:     {"/q?", "robots-parser", "robots-txt-guard"},
	} {
		for _, w := range want {
			if !strings.Contains(got[code], w) {
				t.Errorf("%s: %q lacks %q", code, got[code], w)
			}
		}
	}
	if strings.Count(got[CodeSubstringNames], "\n") != 1 {
		t.Errorf("R026 once per pair: %q", got[CodeSubstringNames])
	}
	// Same rules: no R026.
	p.Groups[1].Rules = []PathRule{{Path: "/a"}}
	for _, f := range Portability(p) {
		if f.Code == CodeSubstringNames {
			t.Errorf("R026 for names with the same rules: %s", f.Message)
		}
	}
}

// R036: where the %7E spelling Emit writes of a rule with '~' is as long
// as a rule of the other kind that the path itself is shorter than, npm
// robots-txt-parser (each rule matched anywhere in the URL, the longest
// deciding, Allow at a tie) reads a URL with %7E otherwise than the same
// URL with '~' and than RFC 9309. unanchoredVerdict models that reader on
// the emitted file.
func TestPortabilityEscapedTilde(t *testing.T) {
	al := func(p string) PathRule { return PathRule{Allow: true, Path: p} }
	dl := func(p string) PathRule { return PathRule{Path: p} }
	for _, c := range []struct {
		rules []PathRule
		want  string // the pattern warned about, or ""
		url   string // a URL the warning is about
	}{
		{[]PathRule{al("/abc/"), al("/~joe"), dl("/"), dl("/x.html")}, "/~joe", "/x.html/a/%7Ejoe/x"},
		{[]PathRule{al("/~joe"), dl("/x.htm")}, "/~joe", "/x.htm/%7Ejoe"},         // 5 < 6 <= 7
		{[]PathRule{dl("/~joe"), al("/x.htm")}, "/~joe", "/x.htm/%7Ejoe"},         // a Disallow outranks
		{[]PathRule{dl("/~joe"), al("/abcd")}, "/~joe", "/abcd/%7Ejoe"},           // as long: Allow won with '~'
		{[]PathRule{al("/~joe"), dl("/abcd")}, "", ""},                            // as long: Allow wins either way
		{[]PathRule{al("/~joe"), dl("/x.html/")}, "", ""},                         // longer than the spelling
		{[]PathRule{al("/~joe"), dl("/x")}, "", ""},                               // shorter than the path
		{[]PathRule{al("/joe"), dl("/x.html")}, "", ""},                           // no '~'
		{[]PathRule{al("/~a~b"), dl("/x.html/a")}, "/~a~b", "/x.html/a/%7Ea%7Eb"}, // two tildes: 5 < 9 <= 9
	} {
		p := Policy{Groups: []PolicyGroup{{Agents: []string{"webcrawler"}, Rules: c.rules}}}
		var got []string
		for _, f := range Portability(p) {
			if f.Code == CodeEscapedTilde {
				got = append(got, f.Pattern)
				for _, w := range []string{"webcrawler", "robots-txt-parser", strings.ReplaceAll(f.Pattern, "~", "%7E")} {
					if !strings.Contains(f.Message, w) {
						t.Errorf("%v: %q lacks %q", c.rules, f.Message, w)
					}
				}
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%v: R036 on %q, want %q", c.rules, got, c.want)
		}
		if c.url == "" {
			continue
		}
		// The warning is real: the reader reads the URL with %7E otherwise
		// than with '~', which it reads as RFC 9309 does.
		out, err := Emit(p)
		if err != nil {
			t.Fatal(err)
		}
		f := Parse(out)
		esc, plain := c.url, strings.ReplaceAll(c.url, "%7E", "~")
		rfc := p.Evaluate("webcrawler", "http://example.com"+esc).Allowed
		if unanchoredVerdict(f, "webcrawler", esc) == rfc || unanchoredVerdict(f, "webcrawler", plain) != rfc {
			t.Errorf("%v: %s: robots-txt-parser's reading %v (with '~' %v), RFC 9309 %v", c.rules, esc, unanchoredVerdict(f, "webcrawler", esc), unanchoredVerdict(f, "webcrawler", plain), rfc)
		}
	}
}

// unanchoredVerdict reads path as npm robots-txt-parser does: every rule
// of the agent's records found anywhere in it, the longest deciding,
// Allow at a tie; allowed when none is found.
func unanchoredVerdict(f *File, agent, path string) bool {
	best, allow := -1, true
	for _, gi := range f.groupsFor(ProductToken(agent)) {
		for _, r := range f.Groups[gi].Rules {
			if r.Value == "" || !strings.Contains(path, r.Value) {
				continue
			}
			if n := len(r.Value); n > best || n == best && r.Allow {
				best, allow = n, r.Allow
			}
		}
	}
	return allow
}
