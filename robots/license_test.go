package robots

import (
	"fmt"
	"testing"
)

func TestLicenses(t *testing.T) {
	got := fmt.Sprint(Licenses([]byte(`License: https://example.org/a.xml
User-agent: a
License: https://example.org/b.xml # before the rules
Disallow: /x
License: /c.xml
Allow: /y
License: https://example.org/d.xml

User-agent: b
Disallow:
license : https://example.org/e.xml
`)))
	want := "[{1 https://example.org/a.xml false} {3 https://example.org/b.xml true} {5 /c.xml true} {7 https://example.org/d.xml false} {11 https://example.org/e.xml false}]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Comments: a '#' before the colon makes a comment of the line,
	// after it ends the value; CRLF and a BOM are read as elsewhere.
	got = fmt.Sprint(Licenses([]byte("\xef\xbb\xbf# License: https://example.org/no.xml\r\n" +
		"User-agent: a # License: https://example.org/no2.xml\r\n" +
		"Disallow: /x # License: https://example.org/no3.xml\r\n" +
		"LICENSE:https://example.org/f.xml#frag\r\n" +
		"Lic#ense: https://example.org/no4.xml\r\n")))
	want = "[{4 https://example.org/f.xml false}]"
	if got != want {
		t.Errorf("comments: got  %s\nwant %s", got, want)
	}
}

// BenchmarkLicenses reads the License lines of a file of 100,000 rules,
// as check does for every file it reads.
func BenchmarkLicenses(b *testing.B) {
	data, _ := scaleFile(100000)
	data = append([]byte("License: https://example.org/l.xml\n"), data...)
	b.ReportAllocs()
	for b.Loop() {
		if len(Licenses(data)) != 1 {
			b.Fatal("want one License line")
		}
	}
}
