package securitytxt

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLintSecurityTxt(t *testing.T) {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name, data string
		want       []string // "line: severity code message-prefix"
	}{
		{"valid", "# ours\nContact: mailto:security@example.org\nExpires: 2027-06-01T00:00:00Z\nPreferred-Languages: en, fr\n", nil},
		{"missing everything", "# nothing\n", []string{
			"0: error S001 contact: ",
			"0: error S001 expires: ",
		}},
		{"rules at their lines", "Contact: mailto:a@example.org\r\nContact: http://example.org/sec\r\nExpires: 2026-10-01T00:00:00Z\r\nPolicy: http://example.org/p\r\n", []string{
			"2: error S001 contact[1]: ",
			"3: error S001 expires: ",
			"4: error S001 policy[0]: ",
		}},
		{"duration and repeated expires", "Contact: mailto:a@example.org\nExpires: 180d\nExpires: 2027-01-01T00:00:00Z\n", []string{
			"3: error S003 Expires is given again (first on line 2)",
		}},
		{"duration", "Contact: mailto:a@example.org\nExpires: 180d\n", []string{
			"2: error S003 Expires \"180d\" must be an RFC 3339 time",
		}},
		{"not a field", "Contact mailto:a@example.org\nExpires: 2027-06-01T00:00:00Z\n", []string{
			"1: error S002 ",
			"0: error S001 contact: ",
		}},
		{"bad language tag on its line", "Contact: mailto:a@example.org\nExpires: 2027-06-01T00:00:00Z\nPreferred-Languages: en, not a tag\n", []string{
			"3: error S001 preferred_languages[1]: ",
		}},
		{"extension fields are left alone", "Contact: mailto:a@example.org\nExpires: 2027-06-01T00:00:00Z\nX-Team: red\n", nil},
		{"signed", "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nContact: mailto:a@example.org\nExpires: 2027-06-01T00:00:00Z\n-----BEGIN PGP SIGNATURE-----\n\niQ==\n-----END PGP SIGNATURE-----\n", []string{
			"1: warning S004 ",
		}},
	} {
		got := LintFile([]byte(c.data), now)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d findings, want %d: %v", c.name, len(got), len(c.want), got)
			continue
		}
		for i, d := range got {
			s := strings.Join([]string{strconv.Itoa(d.Line) + ":", d.Severity.String(), d.Code, d.Message}, " ")
			if !strings.HasPrefix(s, c.want[i]) {
				t.Errorf("%s: finding %d = %q, want prefix %q", c.name, i, s, c.want[i])
			}
		}
	}
}
