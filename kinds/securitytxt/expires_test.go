package securitytxt

import (
	"strings"
	"testing"
	"time"
)

var testNow = time.Date(2026, 11, 22, 3, 4, 5, 0, time.UTC)

// testMonth is the start of testNow's month.
var testMonth = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func TestResolveExpires(t *testing.T) {
	plus := time.FixedZone("+02:00", 2*3600)
	for _, tc := range []struct {
		in   string
		now  time.Time
		want time.Time
	}{
		{"2027-06-01T00:00:00Z", testNow, time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC)},
		{"2027-06-01T02:00:00+02:00", testNow, time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC)},
		{"2027-06-01t00:00:00z", testNow, time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC)},
		{"2027-06-01T00:00:00.999Z", testNow, time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC)},
		// Durations count from the start of now's month (UTC).
		{"1464h", testNow, testMonth.Add(1464 * time.Hour)},
		{"180d", testNow, testMonth.Add(180 * 24 * time.Hour)},
		{"26w", testNow, testMonth.Add(26 * 7 * 24 * time.Hour)},
		{"1y", testNow, testMonth.Add(365 * 24 * time.Hour)},
		{"61d", testNow, testMonth.Add(MinExpiresDuration)},
		{"0090d", testNow, testMonth.Add(90 * 24 * time.Hour)},
		{"36500d", testNow, testMonth.Add(MaxExpiresDuration)},
		{"100y", testNow, testMonth.Add(MaxExpiresDuration)},
		// now in another zone and with a fraction: its month is the UTC
		// one, the result is UTC, whole seconds.
		{"61d", time.Date(2026, 2, 1, 1, 0, 0, 500, plus), time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)},
	} {
		got, err := ResolveExpires(tc.in, tc.now)
		if err != nil {
			t.Errorf("ResolveExpires(%q) error: %v", tc.in, err)
			continue
		}
		if !got.Equal(tc.want) || got.Location() != time.UTC || got.Nanosecond() != 0 {
			t.Errorf("ResolveExpires(%q) = %v, want %v in UTC", tc.in, got, tc.want)
		}
	}
}

func TestResolveExpiresErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "expires is empty"},
		{"2027-06-01", `"2027-06-01" has no time of day; write it quoted, as "2027-06-01T00:00:00Z"`},
		{"2027-06-01T00:00:00", `"2027-06-01T00:00:00" has no time zone; write it quoted, as "2027-06-01T00:00:00Z" (UTC)`},
		{"36501d", `duration "36501d" is longer than 100 years`},
		{"101y", `duration "101y" is longer than 100 years`},
		{"60d", `duration "60d" is shorter than 61d: it counts from the start of the build's month, so a monthly build could not renew it before it comes within 30 days of expiring; write 61d or more, or an RFC 3339 time`},
		{"1463h", `duration "1463h" is shorter than 61d: it counts from the start of the build's month, so a monthly build could not renew it before it comes within 30 days of expiring; write 61d or more, or an RFC 3339 time`},
		{"8w", `duration "8w" is shorter than 61d: it counts from the start of the build's month, so a monthly build could not renew it before it comes within 30 days of expiring; write 61d or more, or an RFC 3339 time`},
		{"0d", `duration "0d" is shorter than 61d: it counts from the start of the build's month, so a monthly build could not renew it before it comes within 30 days of expiring; write 61d or more, or an RFC 3339 time`},
		{"99999999999999999999999h", `duration "99999999999999999999999h" is longer than 100 years`},
		{"d", `"d" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
		{"180", `"180" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
		{"180m", `"180m" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
		{"-1d", `"-1d" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
		{"1.5d", `"1.5d" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
		{"180 d", `"180 d" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
		{"180D", `"180D" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
		{"1w2d", `"1w2d" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
		{"Tue, 01 Jun 2027 00:00:00 GMT", `"Tue, 01 Jun 2027 00:00:00 GMT" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
		{"2027-06-01T0:00:00Z", `"2027-06-01T0:00:00Z" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
		{"2027-13-01T00:00:00Z", `"2027-13-01T00:00:00Z" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`},
	} {
		_, err := ResolveExpires(tc.in, testNow)
		if err == nil {
			t.Errorf("ResolveExpires(%q) = nil error, want %q", tc.in, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("ResolveExpires(%q)\n got %q\nwant %q", tc.in, err.Error(), tc.want)
		}
	}
}

func FuzzResolveExpires(f *testing.F) {
	for _, s := range []string{"180d", "2027-06-01T00:00:00Z", "1y", "9999999999999999999h", "2027-06-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ResolveExpires(s, testNow)
		if err != nil {
			return
		}
		if got.Location() != time.UTC || got.Nanosecond() != 0 {
			t.Fatalf("ResolveExpires(%q) = %v, not whole seconds in UTC", s, got)
		}
		if _, ok, _ := parseDuration(s); ok && (got.Before(testMonth.Add(MinExpiresDuration)) || got.Sub(testMonth) > MaxExpiresDuration) {
			t.Fatalf("ResolveExpires(%q) = %v, outside [month+61d, month+100y]", s, got)
		}
	})
}

// A relative expires must not drift: every build of one month writes the
// same Expires, so --check agrees on any two days of it, and the file a
// build writes is never within 30 days of expiring, so a monthly build
// renews it before CheckFile's warning could fire. Checked for every
// hour of 2027 and 2028 (a leap year), for the shortest duration allowed
// and for the usual ones.
func TestRelativeExpiresDoesNotDrift(t *testing.T) {
	start := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, d := range []string{"61d", "1464h", "9w", "90d", "180d", "26w", "1y"} {
		var prev time.Time
		changes := 0
		for now := start; now.Before(end); now = now.Add(time.Hour) {
			got, err := ResolveExpires(d, now)
			if err != nil {
				t.Fatalf("ResolveExpires(%q, %v): %v", d, now, err)
			}
			if got.Before(now.Add(expiresSoon)) {
				t.Fatalf("ResolveExpires(%q, %v) = %v: within 30 days of now", d, now, got)
			}
			if !prev.IsZero() && !got.Equal(prev) {
				changes++
				if now.Day() != 1 || now.Hour() != 0 {
					t.Fatalf("ResolveExpires(%q) changed at %v, not at a month's start", d, now)
				}
			}
			prev = got
			s := File{Contact: []string{"mailto:security@example.org"}, Expires: d}
			if fs := CheckFile(s, now); len(fs) > 0 {
				t.Fatalf("CheckFile(expires %s) at %v: %v", d, now, fs)
			}
		}
		if changes != 23 {
			t.Errorf("expires %s changed %d times in 24 months, want 23 (once a month)", d, changes)
		}
	}
}

// The same through the rendered file: the Expires line of a security.txt
// built on the last second of a 31-day month is that of the month's first
// day, and more than 30 days away.
func TestRenderedExpiresMonthly(t *testing.T) {
	s := File{Contact: []string{"mailto:security@example.org"}, Expires: "61d"}
	first, err := RenderFile(s, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), "")
	if err != nil {
		t.Fatal(err)
	}
	last, err := RenderFile(s, time.Date(2027, 1, 31, 23, 59, 59, 0, time.UTC), "")
	if err != nil {
		t.Fatal(err)
	}
	if string(first) != string(last) {
		t.Errorf("January's first and last builds differ:\n%s\n%s", first, last)
	}
	if !strings.Contains(string(first), "Expires: 2027-03-03T00:00:00Z\n") {
		t.Errorf("want Expires 2027-03-03T00:00:00Z (January 1 + 61 days):\n%s", first)
	}
}
