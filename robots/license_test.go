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
