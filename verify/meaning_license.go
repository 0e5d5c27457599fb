package verify

import (
	"fmt"

	"github.com/discgen/discgen/rights"
)

// LicenseReading is the licence a robots.txt names: the URL of its first
// global License line (RSL 1.0), as the rights package reads it, and the
// line; "" and 0 where it names none.
type LicenseReading struct {
	URL  string
	Line int
}

func (l LicenseReading) text() string {
	if l.URL == "" {
		return "none"
	}
	return fmt.Sprintf("%s (line %d)", l.URL, l.Line)
}

// readLicense reads the licence of a robots.txt as a crawler does: the
// licence is global, the same at every path.
func readLicense(data []byte) LicenseReading {
	r := rights.NewReader(data, nil, nil).At("/")
	return LicenseReading{URL: r.License, Line: r.LicenseLine}
}

// reportLicense puts the licence comparison on a result: another licence
// (or none, or one the build does not name) is a failure; the build's
// licence on another line is a note. It reports whether the licences are
// the same.
func (m Meaning) reportLicense(r *Result) bool {
	b, s := m.BuiltLicense, m.ServedLicense
	if b.URL != s.URL {
		r.fail("differs from the build in meaning for every crawler: licence (License line, RSL 1.0) %s in the build, %s as served", b.text(), s.text())
		return false
	}
	if b.URL != "" && b.Line != s.Line {
		r.Notes = append(r.Notes, fmt.Sprintf("the licence (License line, RSL 1.0) is the build's, %s, on line %d as served and line %d in the build", b.URL, s.Line, b.Line))
	}
	return true
}
