package verify

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/rights"
	"github.com/discgen/discgen/robots"
)

// LicenseReading is the licence a robots.txt names: the URL of its first
// global License line (RSL 1.0), as the rights package reads it, and the
// line; "" and 0 where it names none. Others are the file's other License
// lines, global or inside a group, in order: a reader that takes one
// licence may take any of them.
type LicenseReading struct {
	URL    string
	Line   int
	Others []robots.LicenseLine
}

func (l LicenseReading) text() string {
	if l.URL == "" {
		return "none"
	}
	return fmt.Sprintf("%s (line %d)", l.URL, l.Line)
}

// names reports whether the file names the licence url on any License
// line.
func (l LicenseReading) names(url string) bool {
	if l.URL == url {
		return true
	}
	for _, o := range l.Others {
		if o.Value == url {
			return true
		}
	}
	return false
}

// extra returns the file's License lines that name a licence other than
// its first global one and that other does not name, the first line of
// each.
func (l LicenseReading) extra(other LicenseReading) []robots.LicenseLine {
	var out []robots.LicenseLine
	seen := map[string]bool{}
	for _, o := range l.Others {
		if o.Value == l.URL || seen[o.Value] || other.names(o.Value) {
			continue
		}
		seen[o.Value] = true
		out = append(out, o)
	}
	return out
}

// repeats counts the file's other License lines that name its first
// global licence again.
func (l LicenseReading) repeats() (n int, lines []string) {
	for _, o := range l.Others {
		if o.Value == l.URL {
			n++
			lines = append(lines, fmt.Sprint(o.Num))
		}
	}
	return n, lines
}

// readLicense reads the licence of a robots.txt as a crawler does: the
// licence is global, the same at every path; and every other License
// line, which a reader may take instead.
func readLicense(data []byte) LicenseReading {
	r := rights.NewReader(data, nil, nil).At("/")
	out := LicenseReading{URL: r.License, Line: r.LicenseLine}
	for _, l := range robots.Licenses(data) {
		if l.Num != out.Line {
			out.Others = append(out.Others, l)
		}
	}
	return out
}

// reportLicense puts the licence comparison on a result: another licence
// (or none, or one the build does not name, on any License line) is a
// failure; the build's licence on another line, or named again, is a
// note. It reports whether the licences are the same.
func (m Meaning) reportLicense(r *Result) bool {
	b, s := m.BuiltLicense, m.ServedLicense
	if b.URL != s.URL {
		r.fail("differs from the build in meaning for every crawler: licence (License line, RSL 1.0) %s in the build, %s as served", b.text(), s.text())
		return false
	}
	same := true
	besides := func(l LicenseReading) string {
		if l.URL == "" {
			return ""
		}
		return " besides " + l.text()
	}
	for _, l := range s.extra(b) {
		r.fail("differs from the build in meaning for every crawler: licence (License line, RSL 1.0) %s (line %d) as served%s, which the build does not name: a reader that takes one licence may take either", l.Value, l.Num, besides(s))
		same = false
	}
	for _, l := range b.extra(s) {
		r.fail("differs from the build in meaning for every crawler: licence (License line, RSL 1.0) %s (line %d) in the build%s, not as served", l.Value, l.Num, besides(b))
		same = false
	}
	if b.URL != "" && b.Line != s.Line {
		r.Notes = append(r.Notes, fmt.Sprintf("the licence (License line, RSL 1.0) is the build's, %s, on line %d as served and line %d in the build", b.URL, s.Line, b.Line))
	}
	if n, lines := s.repeats(); s.URL != "" && n > 0 {
		if bn, _ := b.repeats(); bn != n {
			r.Notes = append(r.Notes, fmt.Sprintf("the licence (License line, RSL 1.0) %s is named again on line %s as served", s.URL, strings.Join(lines, ", ")))
		}
	}
	return same
}
