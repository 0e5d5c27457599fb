package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// scaleFile returns a robots.txt of n rules: 20 named groups and a "*"
// group sharing the rules, paths of two to four segments drawn from a small
// vocabulary (so that many rules share prefixes with the URLs), about one
// rule in ten with a wildcard; and URLs to ask about.
func scaleFile(n int) (data []byte, urls []string) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "org", "serv", "~mak", "docs", "img", "x.html", "caf%C3%A9", "q?x=1"}
	path := func() string {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteString("/" + words[r.IntN(len(words))])
		}
		return b.String()
	}
	var b strings.Builder
	groups := 21
	for g := range groups {
		if g == groups-1 {
			b.WriteString("User-agent: *\n")
		} else {
			fmt.Fprintf(&b, "User-agent: bot%c%c\n", 'a'+g%26, 'a'+g/26)
		}
		for i := range n / groups {
			p := path()
			if i%10 == 0 {
				p = strings.Replace(p, "/", "/*", 1) + "$"
			}
			if i%2 == 0 {
				b.WriteString("Allow: " + p + "\n")
			} else {
				b.WriteString("Disallow: " + p + "\n")
			}
		}
		b.WriteString("\n")
	}
	for range 64 {
		urls = append(urls, "https://example.com"+path()+path())
	}
	return []byte(b.String()), urls
}

var sizes = []int{1000, 10000, 100000}

// loop runs body b.N times (via b.Loop) and reports, besides wall time,
// the process CPU time per iteration as cpu-ns/op.
func loop(b *testing.B, body func(i int)) {
	c0, ok := cpuTime()
	i := 0
	for b.Loop() {
		body(i)
		i++
	}
	if c1, ok1 := cpuTime(); ok && ok1 && b.N > 0 {
		b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkParse(b *testing.B) {
	for _, n := range sizes {
		data, _ := scaleFile(n)
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			loop(b, func(int) { Parse(data) })
		})
	}
}

// BenchmarkMatch asks one URL per iteration, for the "*" group (the agent
// is unlisted, so every group's agents are compared and the last group's
// n/21 rules are matched).
func BenchmarkMatch(b *testing.B) {
	for _, n := range sizes {
		data, urls := scaleFile(n)
		f := Parse(data)
		b.Run(fmt.Sprintf("rfc9309/rules=%d", n), func(b *testing.B) {
			loop(b, func(i int) { f.Match("OtherBot/1.0", urls[i%len(urls)]) })
		})
		b.Run(fmt.Sprintf("1996/rules=%d", n), func(b *testing.B) {
			loop(b, func(i int) { f.Match1996("OtherBot/1.0", urls[i%len(urls)]) })
		})
	}
}

// BenchmarkMatchOneGroup puts every rule in the one group asked about.
func BenchmarkMatchOneGroup(b *testing.B) {
	for _, n := range sizes {
		data, urls := scaleFile(n)
		f := Parse(data)
		var all Group
		for _, g := range f.Groups {
			all.Rules = append(all.Rules, g.Rules...)
		}
		all.Agents = []Agent{{Global: true}}
		f.Groups = []Group{all}
		b.Run(fmt.Sprintf("rfc9309/rules=%d", n), func(b *testing.B) {
			loop(b, func(i int) { f.Match("OtherBot", urls[i%len(urls)]) })
		})
	}
}

// BenchmarkWildcardWorstCase matches a pattern of many '*' against a long
// path that almost matches: the cost is bounded by len(pattern)*len(path).
func BenchmarkWildcardWorstCase(b *testing.B) {
	for _, n := range []int{100, 1000} {
		pattern := "/" + strings.Repeat("*a", n/2) + "b"
		path := "/" + strings.Repeat("a", n)
		var m matcher
		b.Run(fmt.Sprintf("len=%d", n), func(b *testing.B) {
			loop(b, func(int) {
				if m.match(path, pattern) {
					b.Fatal("matched")
				}
			})
		})
	}
}

func scalePolicy(n int) Policy {
	r := rand.New(rand.NewPCG(3, 4))
	var p Policy
	agents := 50
	for g := range agents {
		pg := PolicyGroup{Agents: []string{fmt.Sprintf("bot%c%c", 'a'+g%26, 'a'+g/26)}}
		if g == agents-1 {
			pg.Agents = []string{"*"}
		}
		for i := range n / agents {
			pg.Rules = append(pg.Rules, PathRule{Allow: i%2 == 0,
				Path: fmt.Sprintf("/d%d/~u%d/caf\u00e9-%d", r.IntN(100), i, r.IntN(1000))})
		}
		p.Groups = append(p.Groups, pg)
	}
	return p
}

func BenchmarkEmit(b *testing.B) {
	for _, n := range sizes {
		p := scalePolicy(n)
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			loop(b, func(int) {
				if _, err := Emit(p); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// groupsFile returns a robots.txt of n named groups of three rules each
// (distinct product tokens, some substrings of others, as real files have
// "bot" and "googlebot") and a "*" group at the end: the shape that made
// lint quadratic in the number of groups.
func groupsFile(n int) []byte {
	letters := func(i int) string {
		s := ""
		for ; i > 0 || s == ""; i /= 26 {
			s = string(rune('a'+i%26)) + s
		}
		return s
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "User-agent: crawler%sbot\n", letters(i))
		if i%100 == 0 {
			fmt.Fprintf(&b, "User-agent: crawler%s\n", letters(i/100))
		}
		fmt.Fprintf(&b, "Disallow: /p%d/\nAllow: /p%d/pub/\nDisallow: /~u%d\n\n", i, i, i)
	}
	b.WriteString("User-agent: *\nDisallow: /admin/\nDisallow: /tmp/\nAllow: /\n")
	return []byte(b.String())
}

// BenchmarkLintGroups lints files of 10k and 40k groups; Parse of the same
// file is the floor the ratio is taken against.
func BenchmarkLintGroups(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		data := groupsFile(n)
		b.Run(fmt.Sprintf("lint/groups=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			loop(b, func(int) { Lint(data) })
		})
		b.Run(fmt.Sprintf("parse/groups=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			loop(b, func(int) { Parse(data) })
		})
	}
}
