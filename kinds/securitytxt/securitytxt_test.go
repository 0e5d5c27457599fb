package securitytxt

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/kinds/kit"
)

// validSecurityTxt has no finding at testNow.
func validSecurityTxt() File {
	return File{
		Contact:            []string{"mailto:security@fict.org", "https://www.fict.org/security", "tel:+1-201-555-0123"},
		Expires:            "2027-06-01T00:00:00Z",
		Encryption:         []string{"https://www.fict.org/pgp-key.txt", "openpgp4fpr:5f2de5521c63a801ab59ccb603d49de44b29100f", "dns:5d2d37ab76d47d36._openpgpkey.fict.org?type=OPENPGPKEY"},
		Acknowledgments:    []string{"https://www.fict.org/hall-of-fame.html"},
		PreferredLanguages: []string{"en", "fr", "zh-Hant-TW"},
		Canonical:          []string{"https://www.fict.org/.well-known/security.txt"},
		Policy:             []string{"https://www.fict.org/security-policy"},
		Hiring:             []string{"https://www.fict.org/jobs"},
		CSAF:               []string{"https://www.fict.org/.well-known/csaf/provider-metadata.json"},
	}
}

func TestCheckSecurityTxtValid(t *testing.T) {
	if fs := CheckFile(validSecurityTxt(), testNow); len(fs) != 0 {
		t.Errorf("findings for a valid model:\n%s", findingLines(fs))
	}
	// The smallest valid file: one contact and an expiry.
	min := File{Contact: []string{"mailto:a@b.example"}, Expires: "180d"}
	if fs := CheckFile(min, testNow); len(fs) != 0 {
		t.Errorf("findings for a minimal model:\n%s", findingLines(fs))
	}
}

func TestCheckSecurityTxtRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		modify func(*File)
		want   []string // kit.Finding.String() of every finding, in order
	}{
		// contact
		{"no contact", func(s *File) { s.Contact = nil },
			[]string{"contact: at least one contact is required (RFC 9116 section 2.5.3)"}},
		{"contact http", func(s *File) { s.Contact[1] = "http://www.fict.org/security" },
			[]string{"contact[1]: web URI must use https"}},
		{"contact HTTP upper case", func(s *File) { s.Contact[1] = "HTTP://www.fict.org/security" },
			[]string{"contact[1]: web URI must use https"}},
		{"contact bare address", func(s *File) { s.Contact[0] = "security@fict.org" },
			[]string{`contact[0]: "security@fict.org" is not a URI; write "mailto:security@fict.org"`}},
		{"contact relative", func(s *File) { s.Contact[0] = "/security" },
			[]string{`contact[0]: "/security" is not an absolute URI`}},
		{"contact other scheme", func(s *File) { s.Contact[0] = "ftp://fict.org/security" },
			[]string{"contact[0]: contact must be a mailto:, tel: or https: URI, not ftp:"}},
		{"contact mailto without address", func(s *File) { s.Contact[0] = "mailto:?subject=bug" },
			[]string{`contact[0]: "mailto:?subject=bug" has no address`}},
		{"contact tel without number", func(s *File) { s.Contact[2] = "tel:" },
			[]string{`contact[2]: "tel:" has no number`}},
		{"contact https without host", func(s *File) { s.Contact[1] = "https:/security" },
			[]string{`contact[1]: "https:/security" has no host`}},
		{"contact empty", func(s *File) { s.Contact[0] = "" },
			[]string{"contact[0]: value is empty"}},
		{"contact invalid", func(s *File) { s.Contact[1] = "https://www.fict.org:port/" },
			[]string{`contact[1]: "https://www.fict.org:port/" is not a valid URI`}},
		{"contact duplicate", func(s *File) { s.Contact = append(s.Contact, "mailto:security@fict.org") },
			[]string{"warning: contact[3]: duplicate of contact[0]"}},
		// line injection and characters a URI cannot hold
		{"newline", func(s *File) { s.Contact[0] = "mailto:a@b.example\nContact: mailto:evil@x.example" },
			[]string{`contact[0]: "mailto:a@b.example\nContact: mailto:evil@x.example" contains a control character`}},
		{"carriage return", func(s *File) { s.Policy[0] = "https://www.fict.org/\r" },
			[]string{`policy[0]: "https://www.fict.org/\r" contains a control character`}},
		{"space", func(s *File) { s.Hiring[0] = "https://www.fict.org/our jobs" },
			[]string{`hiring[0]: "https://www.fict.org/our jobs" contains a space`}},
		{"non-ASCII", func(s *File) { s.Acknowledgments[0] = "https://www.fict.org/merci-à-vous" },
			[]string{`acknowledgments[0]: "https://www.fict.org/merci-à-vous" contains a non-ASCII character; percent-encode it`}},
		{"expires newline", func(s *File) { s.Expires = "180d\nContact: x" },
			[]string{`expires: "180d\nContact: x" contains a control character`}},
		// expires
		{"no expires", func(s *File) { s.Expires = "" },
			[]string{"expires: expires is required (RFC 9116 section 2.5.5)"}},
		{"expires unparsable", func(s *File) { s.Expires = "soon" },
			[]string{`expires: "soon" is neither an RFC 3339 timestamp (2027-06-01T00:00:00Z) nor a duration (180d)`}},
		{"expires date only", func(s *File) { s.Expires = "2027-06-01" },
			[]string{`expires: "2027-06-01" has no time of day; write it quoted, as "2027-06-01T00:00:00Z"`}},
		{"expires in the past", func(s *File) { s.Expires = "2026-01-01T00:00:00Z" },
			[]string{"expires: expires 2026-01-01T00:00:00Z is in the past (now is 2026-11-22T03:04:05Z)"}},
		{"expires equal to now", func(s *File) { s.Expires = "2026-11-22T03:04:05Z" },
			[]string{"expires: expires 2026-11-22T03:04:05Z is in the past (now is 2026-11-22T03:04:05Z)"}},
		{"expires zero duration", func(s *File) { s.Expires = "0h" },
			[]string{`expires: duration "0h" is shorter than 61d: it counts from the start of the build's month, so a monthly build could not renew it before it comes within 30 days of expiring; write 61d or more, or an RFC 3339 time`}},
		{"expires more than a year", func(s *File) { s.Expires = "2027-11-22T03:04:06Z" },
			[]string{"warning: expires: expires 2027-11-22T03:04:06Z is more than a year ahead; RFC 9116 recommends less than a year"}},
		// Durations count from the month's start, 2026-11-01.
		{"expires 56 weeks", func(s *File) { s.Expires = "56w" },
			[]string{"warning: expires: expires 2027-11-28T00:00:00Z is more than a year ahead; RFC 9116 recommends less than a year"}},
		{"expires 53 weeks", func(s *File) { s.Expires = "53w" }, nil},
		{"expires within 30 days", func(s *File) { s.Expires = "29d" },
			[]string{`expires: duration "29d" is shorter than 61d: it counts from the start of the build's month, so a monthly build could not renew it before it comes within 30 days of expiring; write 61d or more, or an RFC 3339 time`}},
		{"expires one second ahead", func(s *File) { s.Expires = "2026-11-22T03:04:06Z" },
			[]string{"warning: expires: expires 2026-11-22T03:04:06Z is less than 30 days away"}},
		{"expires too long", func(s *File) { s.Expires = "200y" },
			[]string{`expires: duration "200y" is longer than 100 years`}},
		// other URI fields
		{"encryption http", func(s *File) { s.Encryption[0] = "http://www.fict.org/pgp-key.txt" },
			[]string{"encryption[0]: web URI must use https"}},
		{"encryption relative", func(s *File) { s.Encryption[0] = "pgp-key.txt" },
			[]string{`encryption[0]: "pgp-key.txt" is not an absolute URI`}},
		{"acknowledgments http", func(s *File) { s.Acknowledgments[0] = "http://www.fict.org/thanks" },
			[]string{"acknowledgments[0]: web URI must use https"}},
		{"canonical http", func(s *File) { s.Canonical[0] = "http://www.fict.org/.well-known/security.txt" },
			[]string{"canonical[0]: web URI must use https"}},
		{"policy http", func(s *File) { s.Policy[0] = "http://www.fict.org/security-policy" },
			[]string{"policy[0]: web URI must use https"}},
		{"policy duplicate", func(s *File) { s.Policy = append(s.Policy, "https://www.fict.org/security-policy") },
			[]string{"warning: policy[1]: duplicate of policy[0]"}},
		{"hiring http", func(s *File) { s.Hiring[0] = "http://www.fict.org/jobs" },
			[]string{"hiring[0]: web URI must use https"}},
		{"hiring empty", func(s *File) { s.Hiring[0] = "" },
			[]string{"hiring[0]: value is empty"}},
		{"csaf http", func(s *File) { s.CSAF[0] = "http://www.fict.org/provider-metadata.json" },
			[]string{"csaf[0]: web URI must use https"}},
		{"csaf not https", func(s *File) { s.CSAF[0] = "ftp://www.fict.org/provider-metadata.json" },
			[]string{"csaf[0]: csaf must be an https: URI, not ftp:"}},
		// preferred_languages
		{"language invalid", func(s *File) { s.PreferredLanguages[1] = "en_US" },
			[]string{`preferred_languages[1]: "en_US" is not an RFC 5646 language tag`}},
		{"language with comma", func(s *File) { s.PreferredLanguages[0] = "en, fr" },
			[]string{`preferred_languages[0]: "en, fr" is not an RFC 5646 language tag`}},
		{"language empty", func(s *File) { s.PreferredLanguages[0] = "" },
			[]string{"preferred_languages[0]: language tag is empty"}},
		{"language duplicate", func(s *File) { s.PreferredLanguages = append(s.PreferredLanguages, "EN") },
			[]string{"warning: preferred_languages[3]: duplicate of preferred_languages[0]"}},
		// several findings come in field order, then value order
		{"order", func(s *File) {
			s.CSAF[0] = "http://a.example/"
			s.Contact = []string{"http://a.example/", "mailto:a@b.example", "http://b.example/"}
			s.Expires = ""
		}, []string{
			"contact[0]: web URI must use https",
			"contact[2]: web URI must use https",
			"expires: expires is required (RFC 9116 section 2.5.5)",
			"csaf[0]: web URI must use https",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := validSecurityTxt()
			tc.modify(&s)
			got := CheckFile(s, testNow)
			if g, w := findingLines(got), strings.Join(tc.want, "\n"); g != w {
				t.Errorf("findings\n got:\n%s\nwant:\n%s", g, w)
			}
			wantErr := slices.ContainsFunc(tc.want, func(s string) bool { return !strings.HasPrefix(s, "warning: ") })
			if hasErrors(got) != wantErr {
				t.Errorf("HasErrors = %v, want %v", hasErrors(got), wantErr)
			}
		})
	}
}

// TestCheckSecurityTxtYearBoundary: a year ahead is judged by the calendar,
// so exactly one year ahead is still fine, in a leap year too.
func TestCheckSecurityTxtYearBoundary(t *testing.T) {
	for _, tc := range []struct {
		now     time.Time
		expires string
		warn    bool
	}{
		{testNow, "2027-11-22T03:04:05Z", false},
		{testNow, "2027-11-22T03:04:06Z", true},
		{time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC), "366d", false}, // 2028 is a leap year
		{time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC), "367d", true},
		{time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), "1y", false},
		{time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), "366d", true},
		{testNow, "61d", false},
		{testNow, "2026-12-22T03:04:05Z", false},
		{testNow, "2026-12-22T03:04:04Z", true},
	} {
		s := File{Contact: []string{"mailto:a@b.example"}, Expires: tc.expires}
		fs := CheckFile(s, tc.now)
		if got := len(fs) == 1 && fs[0].Warning; got != tc.warn || len(fs) > 1 {
			t.Errorf("now %v, expires %s: findings %q, want a warning: %v", tc.now, tc.expires, findingLines(fs), tc.warn)
		}
	}
}

func TestFindingString(t *testing.T) {
	if got := (kit.Finding{Field: "contact[0]", Message: "m"}).String(); got != "contact[0]: m" {
		t.Errorf("error finding String() = %q", got)
	}
	if got := (kit.Finding{Field: "expires", Warning: true, Message: "m"}).String(); got != "warning: expires: m" {
		t.Errorf("warning finding String() = %q", got)
	}
}

func findingLines(fs []kit.Finding) string {
	var lines []string
	for _, f := range fs {
		lines = append(lines, f.String())
	}
	return strings.Join(lines, "\n")
}

func hasErrors(fs []kit.Finding) bool {
	for _, f := range fs {
		if !f.Warning {
			return true
		}
	}
	return false
}

func FuzzValidLanguageTag(f *testing.F) {
	for _, s := range []string{"en", "zh-Hant-TW", "x-a", "en-a-bb", "i-klingon", "en--"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		// A valid tag never needs quoting on the Preferred-Languages line.
		if kit.ValidLanguageTag(tag) && checkText(tag) != "" {
			t.Fatalf("ValidLanguageTag accepted %q", tag)
		}
	})
}
