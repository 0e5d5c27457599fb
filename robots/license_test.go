package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
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
	want := "[{1 https://example.org/a.xml false false} {3 https://example.org/b.xml true true} {5 /c.xml true true} {7 https://example.org/d.xml false true} {11 https://example.org/e.xml false true}]"
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
	want = "[{4 https://example.org/f.xml false true}]"
	if got != want {
		t.Errorf("comments: got  %s\nwant %s", got, want)
	}
	// After the last group and a blank line, with only global records
	// after it, a License line is in no group; a group after it, or no
	// blank line between it and the rules, puts it in the one before.
	for data, want := range map[string]string{
		"User-agent: *\nDisallow: /x\n\nSitemap: https://example.org/s.xml\nLicense: https://example.org/f.xml\n":      "[{5 https://example.org/f.xml false false}]",
		"User-agent: *\nDisallow: /x\n\nLicense: https://example.org/f.xml\nUser-agent: b\nDisallow: /\n":              "[{4 https://example.org/f.xml false true}]",
		"User-agent: *\nDisallow: /x\nLicense: https://example.org/f.xml\n\n":                                          "[{3 https://example.org/f.xml false true}]",
		"User-agent: *\nDisallow: /x\n \t\r\nLicense: https://example.org/f.xml\r\nLicense: https://example.org/g.xml": "[{4 https://example.org/f.xml false false} {5 https://example.org/g.xml false false}]",
		"User-agent: *\n\nLicense: https://example.org/f.xml\n":                                                        "[{3 https://example.org/f.xml true true}]",
	} {
		if got := fmt.Sprint(Licenses([]byte(data))); got != want {
			t.Errorf("%q: got  %s\nwant %s", data, got, want)
		}
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

// licensesReference is Licenses written plainly, line by line, as the
// test's reading of the rule: the fast paths of Licenses must agree with it.
func licensesReference(data []byte) []LicenseLine {
	var out []LicenseLine
	inGroup, rules, blank := false, false, false
	var pending, open []int
	grouped := func() {
		for _, i := range open {
			out[i].Grouped = true
		}
		open, blank = nil, false
	}
	for num, line := range strings.Split(string(skipBOM(data)), "\n") {
		if strings.Trim(line, " \t\v\f\r") == "" {
			blank = blank || inGroup
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.Contains(k, "#") {
			continue
		}
		key := strings.TrimSpace(k)
		if strings.EqualFold(key, "license") {
			v, _, _ = strings.Cut(v, "#")
			out = append(out, LicenseLine{Num: num + 1, Value: strings.TrimSpace(v), InGroup: inGroup && !rules, Grouped: inGroup && (!blank || !rules)})
			if inGroup && blank && rules {
				open = append(open, len(out)-1)
			}
			if inGroup && rules {
				pending = append(pending, len(out)-1)
			}
			continue
		}
		switch FieldKind(key) {
		case KindUserAgent:
			if rules || !inGroup {
				pending = nil
			}
			inGroup, rules = true, false
			grouped()
		case KindAllow, KindDisallow:
			rules = true
			for _, i := range pending {
				out[i].InGroup = true
			}
			pending = nil
			grouped()
		}
	}
	return out
}

func TestLicensesAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 27))
	parts := []string{"License", "license", "LICENSE", "LiCeNsE", "User-agent", "user-agent", "useragent", "USER AGENT",
		"Allow", "allow", "Disallow", "disallow", "DISALLOW", "Dissallow", "Sitemap", "Crawl-delay", "X-Other",
		":", ":", ":", " ", "\t", "\v", "\u00a0", "\u0085", "#", "/a", "https://example.org/l.xml", "\r", "*", "lic"}
	for i := range 20000 {
		var b strings.Builder
		if i%7 == 0 {
			b.WriteString("\xef\xbb\xbf")
		}
		for range 1 + r.IntN(12) {
			for range r.IntN(6) {
				b.WriteString(parts[r.IntN(len(parts))])
			}
			if r.IntN(10) > 0 {
				b.WriteString("\n")
			}
		}
		data := []byte(b.String())
		got, want := fmt.Sprint(Licenses(data)), fmt.Sprint(licensesReference(data))
		if got != want {
			t.Fatalf("%q:\n got  %s\nwant %s", data, got, want)
		}
	}
}
