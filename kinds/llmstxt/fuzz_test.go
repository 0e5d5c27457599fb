package llmstxt

import (
	"strings"
	"testing"
)

// FuzzRender: whatever one-line values hold, the file has exactly the
// structure given (one H1, one blockquote, one H2, one list item with one
// link), and Heading never panics and points at a heading line.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"", "# x", "[a](b)", "\\", "`x`", "<b>", "&amp;", "a ## b #", "](x) [", "- y", "> q"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if strings.ContainsAny(a+b, "\r\n") || a == "" || b == "" {
			t.Skip("one-line, non-empty values only: validation refuses line breaks, and an empty summary is none")
		}
		out := string(Render(Doc{Title: a, Summary: b, Sections: []Section{{Name: b, Links: []Link{{Title: a, URL: "https://x.example/" + b, Notes: b}}}}}))
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 7 || !strings.HasPrefix(lines[0], "# ") || lines[2][:2] != "> " || !strings.HasPrefix(lines[4], "## ") || !strings.HasPrefix(lines[6], "- [") {
			t.Fatalf("structure changed:\n%s", out)
		}
		// The item's link text ends at the first unescaped "]", which
		// must be followed by the destination.
		item := lines[6][3:]
		for i := 0; i < len(item); i++ {
			if item[i] == '\\' {
				i++
				continue
			}
			if item[i] == ']' {
				if !strings.HasPrefix(item[i:], "](https://x.example/") {
					t.Fatalf("link text ends early: %q", lines[6])
				}
				break
			}
			if item[i] == '[' || item[i] == '<' && Unreadable(FieldLink, a) != "" {
				t.Fatalf("unescaped %q in link text: %q", item[i], lines[6])
			}
		}
		d := a + "\n" + b
		if off, line := Heading(d); off >= 0 && !strings.HasPrefix(d[off:], line) {
			t.Fatalf("Heading(%q) = %d, %q", d, off, line)
		}
	})
}
