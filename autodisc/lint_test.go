package autodisc

import (
	"strconv"
	"strings"
	"testing"
)

func TestLint(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       []string // "line: severity code", one per finding, in order
	}{
		{"description.txt", "Example Org\n", nil},
		{"description.txt", "Example Org\nSecond line\n", []string{"2: error A002"}},
		{"description.txt", strings.Repeat("x", 81) + "\n", []string{"1: warning A003"}},
		{"icons.txt", "/favicon.ico\nhttps://e.org/i.png\n", nil},
		{"icons.txt", "/a b.png\nftp://e.org/i.png\n/favicon.ico\n/favicon.ico\n", []string{"1: error A004", "2: error A004", "4: warning A008"}},
		{"feeds.txt", "https://e.org/news.atom\n[application/rss+xml] /updates\n", nil},
		{"feeds.txt", "/updates\n[application/rss+xml /x\n[] /y\n", []string{"1: warning A006", "2: error A005", "3: error A005"}},
		{"index.txt", "description.txt\nfeeds.txt\n", nil},
		{"index.txt", "a b.txt\nindex.txt\nfeeds.txt\nfeeds.txt\n", []string{"1: error A007", "2: warning A010", "4: warning A008"}},
		{"subdirectories.txt", "/~*/ icons.txt\r\n/projects/ - robots.txt\n", nil},
		{"subdirectories.txt", "../up\n/ok/\n", []string{"1: error A009"}},
		{"description.txt", "caf\xe9\n", []string{"0: error A001"}},
		{"robots.txt", "User-agent: *\n", []string{"0: error A011"}},
	} {
		var got []string
		for _, d := range Lint(c.name, []byte(c.data)) {
			got = append(got, strings.Join([]string{strconv.Itoa(d.Line) + ":", d.Severity.String(), d.Code}, " "))
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %q:\ngot  %q\nwant %q", c.name, c.data, got, c.want)
		}
	}
}
