package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/discgen/discgen/diag"
)

// hostileLines are lines that each cost a parse something to keep: a rule,
// an extension line, a line without a key, a License line.
var hostileLines = map[string]func(i int) string{
	"wildcard rules": func(i int) string { return fmt.Sprintf("Disallow: /p%d/*a*b*c$\n", i) },
	"extension":      func(int) string { return "a:\n" },
	"unreadable":     func(int) string { return "x\n" },
	"orphan rules":   func(int) string { return "Disallow: /\n" },
}

func hostileFile(line func(int) string, agent bool, n int) []byte {
	var b strings.Builder
	if agent {
		b.WriteString("User-agent: *\n")
	}
	for i := range n {
		b.WriteString(line(i))
	}
	return []byte(b.String())
}

// Past the bound on lines that hold something, a parse stops: what it
// keeps is bounded whatever the file, and Cut names the line it stopped
// at. Blank and comment lines do not count.
func TestParseLineBound(t *testing.T) {
	for name, line := range hostileLines {
		agent := name != "orphan rules"
		data := hostileFile(line, agent, 150)
		data = append([]byte("# a comment\n\n"), data...)
		f := parse(data, 100)
		kept := len(f.Orphans) + len(f.Sitemaps) + len(f.Hosts) + len(f.MobileAgents)
		for _, g := range f.Groups {
			kept += len(g.Agents) + len(g.Rules) + len(g.Other)
		}
		unreadable := 0
		for _, fd := range f.Findings {
			if fd.Code == CodeUnreadable {
				unreadable++
			}
		}
		if kept+unreadable != 100 {
			t.Errorf("%s: %d lines kept and %d unreadable, want 100 in all", name, kept, unreadable)
		}
		if want := 2 + 100 + 1; f.Cut != want {
			t.Errorf("%s: Cut %d, want %d", name, f.Cut, want)
		}
		// Under the bound, nothing is cut.
		if f := parse(hostileFile(line, agent, 99), 100); f.Cut != 0 {
			t.Errorf("%s: 99 lines cut at %d", name, f.Cut)
		}
	}
	if MaxLines < 210_000 {
		t.Errorf("MaxLines %d is less than a manifest can build (200,000 rule lines and 5,000 agents)", MaxLines)
	}
}

// Past the bound on the lines lint checks, it reports what it found
// before and one error naming the bound, on the first line it did not
// check.
func TestLintLineBound(t *testing.T) {
	data := hostileFile(hostileLines["wildcard rules"], true, 150)
	fs := lint(data, 100)
	var cut []Finding
	last := 0
	for _, f := range fs {
		if f.Code == CodeTooManyLines {
			cut = append(cut, f)
			continue
		}
		last = max(last, f.Line)
	}
	if len(cut) != 1 || cut[0].Line != 101 || cut[0].Severity != diag.Error || !strings.Contains(cut[0].Message, "100 lines") {
		t.Fatalf("bound findings %v, want one error on line 101 naming 100 lines", cut)
	}
	if last != 100 {
		t.Errorf("the last finding is on line %d, want 100 (the last line checked)", last)
	}
	if MaxLintLines > MaxLines {
		t.Errorf("lint checks %d lines, more than Parse reads (%d)", MaxLintLines, MaxLines)
	}
	// A file under the bound draws no such finding.
	for _, f := range lint(hostileFile(hostileLines["wildcard rules"], true, 99), 100) {
		if f.Code == CodeTooManyLines {
			t.Errorf("99 lines: %v", f)
		}
	}
}

// A named group is checked against the "*" group's Disallow paths (R023)
// at a cost that does not grow with the "*" group's rules times the named
// groups: 20,000 of each took minutes.
func TestLintInheritManyGroups(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 20_000 {
		fmt.Fprintf(&b, "Disallow: /g%d\n", i)
	}
	for i := range 20_000 {
		fmt.Fprintf(&b, "\nUser-agent: bot%c%c%c\nAllow: /x%d\n", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26, i)
	}
	n := 0
	more := ""
	for _, f := range Lint([]byte(b.String())) {
		switch {
		case f.Code != CodeNoInherit:
		case strings.Contains(f.Message, "more R023 findings"):
			more = f.Message
		default:
			n++
		}
	}
	// One a distinct token (26³ of them), MaxListed of them listed.
	if want := "16576 more R023 findings are not listed, the first of them on this line (lint lists 1000 of each code)"; n != MaxListed || more != want {
		t.Errorf("%d R023 findings and %q, want %d and %q", n, more, MaxListed, want)
	}
}

// Patterns of many wildcards against long paths cost what their length
// costs, not its square: a file of 200 patterns "/a*a*a...*" and as many
// paths "/aaa..." of 16 kB took hours to lint.
func TestLintManyWildcards(t *testing.T) {
	star := "/" + strings.Repeat("a*", 8000)
	plain := "/" + strings.Repeat("a", 16000)
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 200 {
		fmt.Fprintf(&b, "Disallow: %s%d\nAllow: %s%d\n", star, i, plain, i)
	}
	fs := Lint([]byte(b.String()))
	if len(fs) == 0 {
		t.Fatal("no findings")
	}
	var m matcher
	if !m.match(plain, star) || m.match(plain, star+"b") || !m.match(plain, star+"$") || m.match(plain+"b", star+"a$") {
		t.Error("long wildcard patterns matched wrongly")
	}
}

// matchTable is the matcher as it was: the set of path prefixes the
// pattern read so far can match, one step per octet of the pattern. Its
// cost is the product of the lengths; it answers as match must.
func matchTable(path, pattern string) bool {
	pos := []int{0}
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '$' && i == len(pattern)-1:
			return pos[len(pos)-1] == len(path)
		case c == '*':
			lo := pos[0]
			pos = pos[:0]
			for p := lo; p <= len(path); p++ {
				pos = append(pos, p)
			}
		default:
			n := 0
			for _, p := range pos {
				if p < len(path) && path[p] == c {
					pos[n] = p + 1
					n++
				}
			}
			pos = pos[:n]
			if n == 0 {
				return false
			}
		}
	}
	return true
}

// The matcher answers as the table of every prefix does, on patterns and
// paths drawn from a few octets so that parts repeat and overlap.
func TestMatchAgreesWithTable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	draw := func(alphabet string, n int) string {
		b := make([]byte, r.IntN(n+1))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	var m matcher
	for range 200_000 {
		path := "/" + draw("ab$", 10)
		pattern := "/" + draw("ab*$", 8)
		if got, want := m.match(path, pattern), matchTable(path, pattern); got != want {
			t.Fatalf("match(%q, %q) = %v, want %v", path, pattern, got, want)
		}
	}
}

// A parse keeps MaxListed findings of a code and counts the others, with
// the line of the first: 400,000 lines without a key and 100,000 with a
// misspelt key held 600,000 findings, and took check out of a gibibyte
// of address space in one run of five.
func TestParseFindingsListed(t *testing.T) {
	f := Parse([]byte("User-agent: *\n" + strings.Repeat("x\n", MaxListed+10)))
	if len(f.Findings) != MaxListed || f.More[CodeUnreadable] != (Unlisted{N: 10, Line: MaxListed + 2}) {
		t.Errorf("%d findings kept and %+v more, want %d and 10 from line %d", len(f.Findings), f.More, MaxListed, MaxListed+2)
	}
	// Lint counts them with its own.
	var more []string
	for _, fd := range Lint([]byte("User-agent: *\n" + strings.Repeat("x\n", MaxListed+10))) {
		if strings.Contains(fd.Message, "more R021") {
			more = append(more, fmt.Sprintf("%d: %s", fd.Line, fd.Message))
		}
	}
	if want := "1002: 10 more R021 findings are not listed, the first of them on this line (lint lists 1000 of each code)"; len(more) != 1 || more[0] != want {
		t.Errorf("lint: %q, want %q", more, want)
	}
}

// LicensesBefore reads no line from end on: lint of 32 MiB of lines "a:"
// spent 1.7 of its 2.5 s reading License lines past the lines it checked.
func TestLicensesBefore(t *testing.T) {
	data := []byte("License: https://a.example/\nLicense: https://b.example/\nLicense: https://c.example/\n")
	if ls := LicensesBefore(data, 3); len(ls) != 2 || ls[1].Num != 2 {
		t.Errorf("before line 3: %+v", ls)
	}
	if ls := LicensesBefore(data, 0); len(ls) != 3 {
		t.Errorf("all: %+v", ls)
	}
}
