package wellknown

import (
	"testing"
	"time"
)

var testNow = time.Date(2026, 11, 22, 3, 4, 5, 0, time.UTC)

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
		{"12h", testNow, testNow.Add(12 * time.Hour)},
		{"180d", testNow, testNow.Add(180 * 24 * time.Hour)},
		{"26w", testNow, testNow.Add(26 * 7 * 24 * time.Hour)},
		{"1y", testNow, testNow.Add(365 * 24 * time.Hour)},
		{"0d", testNow, testNow},
		{"007d", testNow, testNow.Add(7 * 24 * time.Hour)},
		{"36500d", testNow, testNow.Add(MaxExpiresDuration)},
		{"100y", testNow, testNow.Add(MaxExpiresDuration)},
		// now in another zone and with a fraction: the result is UTC, whole seconds.
		{"1d", time.Date(2026, 1, 1, 10, 0, 0, 500, plus), time.Date(2026, 1, 2, 8, 0, 0, 0, time.UTC)},
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
		{"2027-06-01", `"2027-06-01" has no time of day; write it as 2027-06-01T00:00:00Z`},
		{"2027-06-01T00:00:00", `"2027-06-01T00:00:00" has no time zone; add "Z" for UTC`},
		{"36501d", `duration "36501d" is longer than 100 years`},
		{"101y", `duration "101y" is longer than 100 years`},
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
		if _, ok, _ := parseDuration(s); ok && (got.Before(testNow) || got.Sub(testNow) > MaxExpiresDuration) {
			t.Fatalf("ResolveExpires(%q) = %v, outside [now, now+100y]", s, got)
		}
	})
}
