package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// Line ends, counted as robots_test.cc (ID_LinesNumbersAreCountedCorrectly)
// counts them: four directives, the last on line 6.
func TestParseLineEnds(t *testing.T) {
	files := map[string]string{
		"unix":    "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
		"dos":     "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
		"mac":     "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
		"nofinal": "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
		"mixed":   "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
	}
	for name, body := range files {
		t.Run(name, func(t *testing.T) {
			f := Parse([]byte(body))
			if len(f.Groups) != 2 {
				t.Fatalf("got %d groups, want 2", len(f.Groups))
			}
			g := f.Groups[1]
			if len(g.Rules) != 1 || g.Rules[0].Num != 6 || g.Rules[0].Allow {
				t.Fatalf("second group rules = %+v, want Disallow on line 6", g.Rules)
			}
			if f.Groups[0].Rules[0].Num != 2 || f.Groups[1].Agents[0].Num != 3 {
				t.Errorf("line numbers: allow %d, agent %d; want 2, 3", f.Groups[0].Rules[0].Num, f.Groups[1].Agents[0].Num)
			}
		})
	}
}

func TestParseBOM(t *testing.T) {
	for name, c := range map[string]struct {
		prefix string
		agents int
	}{
		"full":     {"\xEF\xBB\xBF", 1},
		"partial2": {"\xEF\xBB", 1},
		"partial1": {"\xEF", 1},
		"broken":   {"\xEF\x11\xBF", 0}, // the first line is garbage
	} {
		t.Run(name, func(t *testing.T) {
			f := Parse([]byte(c.prefix + "User-Agent: foo\nAllow: /AnyValue\n"))
			n := 0
			for _, g := range f.Groups {
				n += len(g.Agents)
			}
			if n != c.agents {
				t.Errorf("got %d User-agent lines, want %d", n, c.agents)
			}
		})
	}
	// A BOM in the middle of a file spoils its line.
	f := Parse([]byte("User-Agent: foo\n\xEF\xBB\xBFAllow: /AnyValue\n"))
	if len(f.Groups[0].Rules) != 0 || len(f.Groups[0].Other) != 1 {
		t.Errorf("BOM inside the file: rules %v, other %v", f.Groups[0].Rules, f.Groups[0].Other)
	}
}

func TestParseTyposAndMissingColon(t *testing.T) {
	body := strings.Join([]string{
		"useragent: a",                // 1
		"user agent: b",               // 2
		"User-agent c",                // 3 missing colon
		"disalow: /1",                 // 4
		"dissallow: /2",               // 5
		"dissalow: /3",                // 6
		"diasllow: /4",                // 7
		"disallaw: /5",                // 8
		"Disallow /6",                 // 9 missing colon
		"Allow: /7",                   // 10
		"site-map: http://x/s.xml",    // 11
		"disallow a b",                // 12 three words: skipped
		"Crawl-delay: 5",              // 13
		"Clean-param: ref /",          // 14
		"Mobile-agent-server: / none", // 15
		"Host: example.com",           // 16
	}, "\n")
	f := Parse([]byte(body))
	if len(f.Groups) != 1 {
		t.Fatalf("groups = %d, want 1", len(f.Groups))
	}
	g := f.Groups[0]
	var tokens []string
	for _, a := range g.Agents {
		tokens = append(tokens, a.Token)
	}
	if strings.Join(tokens, ",") != "a,b,c" {
		t.Errorf("agents = %v", tokens)
	}
	var rules []string
	for _, r := range g.Rules {
		rules = append(rules, r.String())
	}
	want := "Disallow: /1,Disallow: /2,Disallow: /3,Disallow: /4,Disallow: /5,Disallow: /6,Allow: /7"
	if strings.Join(rules, ",") != want {
		t.Errorf("rules = %v\nwant %s", rules, want)
	}
	if len(f.Sitemaps) != 1 || f.Sitemaps[0].Value != "http://x/s.xml" {
		t.Errorf("sitemaps = %+v", f.Sitemaps)
	}
	if len(g.Other) != 2 || g.Other[0].Kind != KindCrawlDelay || g.Other[1].Key != "Clean-param" {
		t.Errorf("other = %+v", g.Other)
	}
	if len(f.MobileAgents) != 1 || len(f.Hosts) != 1 {
		t.Errorf("mobile %v host %v", f.MobileAgents, f.Hosts)
	}
	lines := map[string][]int{}
	for _, fd := range f.Findings {
		lines[fd.Code] = append(lines[fd.Code], fd.Line)
	}
	if got := fmt.Sprint(lines[CodeTypo]); got != "[1 2 4 5 6 7 8 11]" {
		t.Errorf("typo findings on lines %v, want 1 2 4 5 6 7 8 11", got)
	}
	if got := fmt.Sprint(lines[CodeNoColon]); got != "[3 9]" {
		t.Errorf("missing-colon findings on lines %v, want 3 9", got)
	}
}

func TestParseRulesOutsideGroups(t *testing.T) {
	f := Parse([]byte("allow: /foo/bar/\n# c\ndisallow: /x\nuser-agent: a\ndisallow: /\n"))
	if len(f.Orphans) != 2 {
		t.Fatalf("orphans = %v", f.Orphans)
	}
	n := 0
	for _, fd := range f.Findings {
		if fd.Code == CodeOutsideGroup {
			n++
			if fd.Line != 1 && fd.Line != 3 {
				t.Errorf("finding on line %d", fd.Line)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d outside-group findings, want 2", n)
	}
}

// Long lines are cut at MaxLineLen bytes, as robots_test.cc
// (GoogleOnly_LineTooLong) shows.
func TestParseLongLines(t *testing.T) {
	disallow := "disallow: "
	long := "/x/" + strings.Repeat("a", MaxLineLen+1-3-len(disallow))
	body := "user-agent: FooBot\n" + disallow + long + "/qux\n"
	f := Parse([]byte(body))
	if !f.Match("FooBot", "http://foo.bar/fux").Allowed {
		t.Error("/fux should be allowed")
	}
	if f.Match("FooBot", "http://foo.bar"+long+"/fux").Allowed {
		t.Error("the cut rule should match " + "long/fux")
	}
	found := false
	for _, fd := range f.Findings {
		found = found || fd.Code == CodeLineTooLong && fd.Line == 2
	}
	if !found {
		t.Errorf("no line-too-long finding on line 2: %v", f.Findings)
	}

	allow := "allow: "
	a := "/x/" + strings.Repeat("a", MaxLineLen+1-3-len(allow))
	b := "/x/" + strings.Repeat("b", MaxLineLen+1-3-len(allow))
	body = "user-agent: FooBot\ndisallow: /\n" + allow + a + "/qux\n" + allow + b + "/qux\n"
	f = Parse([]byte(body))
	if f.Match("FooBot", "http://foo.bar/").Allowed {
		t.Error("/ should be disallowed")
	}
	if !f.Match("FooBot", "http://foo.bar"+a+"/qux").Allowed {
		t.Error("a/qux should be allowed")
	}
	if !f.Match("FooBot", "http://foo.bar"+b+"/fux").Allowed {
		t.Error("b/fux should be allowed by the cut rule")
	}
}

func TestParseGroupsNotEndedByOtherLines(t *testing.T) {
	f := Parse([]byte("User-agent: a\nSitemap: http://x/s\nCrawl-delay: 1\nUser-agent: b\nDisallow: /\nUser-agent: c\n"))
	if len(f.Groups) != 2 || len(f.Groups[0].Agents) != 2 {
		t.Fatalf("groups = %+v", f.Groups)
	}
	if v := f.Match("a", "/x"); v.Allowed || v.Line != 5 {
		t.Errorf("a: %+v, want disallowed by line 5", v)
	}
	if v := f.Match("c", "/x"); !v.Allowed || v.Line != 0 {
		t.Errorf("c: %+v, want allowed by no rule", v)
	}
}

// TestParseMixedLineEnds: lines end at "\r\n", "\r" or "\n", in any mix; each
// rule keeps its value and line number.
func TestParseMixedLineEnds(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	ends := []string{"\n", "\r", "\r\n", "\n\r", "\r\r", "\n\n"}
	for range 300 {
		var b strings.Builder
		b.WriteString("User-agent: *")
		num := 1
		type want struct {
			num  int
			path string
		}
		var wants []want
		for i := range r.IntN(30) {
			e := ends[r.IntN(len(ends))]
			b.WriteString(e)
			switch e {
			case "\r\n", "\n", "\r":
				num++
			default:
				num += 2
			}
			p := fmt.Sprintf("/p%d", i)
			b.WriteString("Disallow: " + p)
			wants = append(wants, want{num, p})
		}
		if r.IntN(2) == 0 {
			b.WriteString(ends[r.IntN(3)])
			num++
		}
		f := Parse([]byte(b.String()))
		if f.Lines != num {
			t.Fatalf("%q: %d lines, want %d", b.String(), f.Lines, num)
		}
		var rules []Rule
		for _, g := range f.Groups {
			rules = append(rules, g.Rules...)
		}
		if len(rules) != len(wants) {
			t.Fatalf("%q: %d rules, want %d", b.String(), len(rules), len(wants))
		}
		for i, w := range wants {
			if rules[i].Num != w.num || rules[i].Value != w.path {
				t.Fatalf("%q: rule %d is line %d %q, want line %d %q", b.String(), i, rules[i].Num, rules[i].Value, w.num, w.path)
			}
		}
	}
}

// TestParseGroupsOwnTheirRules: the groups' rules share one array, but an
// append to one group's rules leaves the next group's alone.
func TestParseGroupsOwnTheirRules(t *testing.T) {
	f := Parse([]byte("User-agent: a\nDisallow: /a1\nDisallow: /a2\nUser-agent: b\nDisallow: /b1\n"))
	if len(f.Groups) != 2 {
		t.Fatalf("%d groups", len(f.Groups))
	}
	_ = append(f.Groups[0].Rules, Rule{Pattern: "/x"})
	if got := f.Groups[1].Rules[0].Pattern; got != "/b1" {
		t.Errorf("the second group's rule is %q after an append to the first's", got)
	}
}
