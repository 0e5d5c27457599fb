package securitytxt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/kinds/kit"
)

// MaxExpiresDuration is the longest duration an expires value may give.
const MaxExpiresDuration = 100 * 365 * 24 * time.Hour

// MinExpiresDuration is the shortest duration an expires value may give.
// A relative expires counts from the start of the build's month, so a
// file built on the month's last day carries an Expires up to 31 days
// older than the same build on the next month's first day. 61 days (the
// longest month, 31 days, plus the 30 days within which CheckFile
// warns) keeps a file built at any time of a month more than 30 days from
// expiring, so a monthly build renews it before the warning can fire.
const MinExpiresDuration = 61 * 24 * time.Hour

var durationUnits = map[byte]time.Duration{
	'h': time.Hour,
	'd': 24 * time.Hour,
	'w': 7 * 24 * time.Hour,
	'y': 365 * 24 * time.Hour,
}

// rfc3339Shape is RFC 3339 section 5.6's date-time, upper-cased.
var rfc3339Shape = lazyre.New(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`)

// ResolveExpires turns a manifest expires value into an absolute time in
// UTC, truncated to whole seconds (security.txt carries no fractions). The
// value is an absolute time or a duration added to the start (00:00:00
// UTC on the first day) of the month of now, the build's time (--now or
// SOURCE_DATE_EPOCH), so every build of one month writes the same Expires
// and `build --check` agrees on any two days of it:
//
//	expires   = date-time / duration    ; date-time as in RFC 3339 section 5.6
//	duration  = 1*DIGIT unit            ; no sign, no spaces, no fractions
//	unit      = "h" / "d" / "w" / "y"   ; hour, 24h day, 7d week, 365d year
//
// Examples: 2027-06-01T00:00:00Z, 2027-06-01T02:00:00+02:00, 12h, 180d,
// 26w, 1y. A duration may not be shorter than MinExpiresDuration (61d)
// nor longer than MaxExpiresDuration. Calendar units
// (months, leap years) are left out on purpose: "1y" is exactly 365 days,
// so the same manifest and the same now always give the same bytes. A date
// without a time of day or a time zone is refused, with a message that
// gives its final form, quoted (unquoted, YAML 1.1 readers take it for a
// date).
func ResolveExpires(expires string, now time.Time) (time.Time, error) {
	if expires == "" {
		return time.Time{}, errors.New("expires is empty")
	}
	if d, ok, err := parseDuration(expires); ok {
		if err != nil {
			return time.Time{}, err
		}
		return MonthStart(now).Add(d), nil
	}
	// RFC 3339 section 5.6 allows a lower-case "t" and "z"; time.Parse
	// does not. time.Parse also takes a one-digit hour, which RFC 3339
	// does not: the shape is checked first.
	t, err := time.Parse(time.RFC3339, strings.ToUpper(expires))
	if err == nil && rfc3339Shape.MatchString(strings.ToUpper(expires)) {
		return t.UTC().Truncate(time.Second), nil
	}
	if _, err := time.Parse(time.DateOnly, expires); err == nil {
		return time.Time{}, fmt.Errorf("%q has no time of day; write it quoted, as %q", expires, expires+"T00:00:00Z")
	}
	if _, err := time.Parse("2006-01-02T15:04:05", expires); err == nil {
		return time.Time{}, fmt.Errorf("%q has no time zone; write it quoted, as %q (UTC)", expires, expires+"Z")
	}
	return time.Time{}, fmt.Errorf("%q is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)", expires)
}

// parseDuration reports whether s has the shape of a duration (digits and
// a unit letter) and, if so, its value or why it is refused.
func parseDuration(s string) (time.Duration, bool, error) {
	if len(s) < 2 {
		return 0, false, nil
	}
	unit, ok := durationUnits[s[len(s)-1]]
	digits := s[:len(s)-1]
	if !ok || !kit.IsDigits(digits) {
		return 0, false, nil
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || n > uint64(MaxExpiresDuration/unit) {
		return 0, true, fmt.Errorf("duration %q is longer than 100 years", s)
	}
	d := time.Duration(n) * unit
	if d < MinExpiresDuration {
		return 0, true, fmt.Errorf("duration %q is shorter than 61d: it counts from the start of the build's month, so a monthly build could not renew it before it comes within 30 days of expiring; write 61d or more, or an RFC 3339 time", s)
	}
	return d, true, nil
}

// MonthStart returns 00:00:00 UTC on the first day of t's month in UTC: the
// time a relative expires counts from.
func MonthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}
