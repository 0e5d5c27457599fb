package llmstxt

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	got := string(Render(Doc{
		Title:   "Fict.org",
		Summary: "Home of the robots.txt examples",
		Details: "\n\nThe examples of the 1996 draft.  \r\n\n- kept as they were\n\n",
		Sections: []Section{
			{Name: "Docs", Links: []Link{
				{Title: "Robots examples", URL: "https://www.fict.org/robots/examples.md", Notes: "the 1996 examples"},
				{Title: "Plain", URL: "https://www.fict.org/plain.md"},
			}},
			{Name: "Optional", Links: []Link{{Title: "History", URL: "https://www.fict.org/history.md"}}},
		},
	}))
	want := `# Fict.org

> Home of the robots.txt examples

The examples of the 1996 draft.

- kept as they were

## Docs

- [Robots examples](https://www.fict.org/robots/examples.md): the 1996 examples
- [Plain](https://www.fict.org/plain.md)

## Optional

- [History](https://www.fict.org/history.md)
`
	if got != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
	if min := string(Render(Doc{Title: "T"})); min != "# T\n" {
		t.Errorf("title only: %q", min)
	}
}

// TestInlineCannotOpenStructure renders hostile values in every one-line
// place and checks the structure of the file stays what it was: one H1,
// one blockquote, the sections and list items given, the link text ending
// at its own "](". A value both readers read as given (Unreadable) is
// written as it is; any other has every markdown character escaped.
func TestInlineCannotOpenStructure(t *testing.T) {
	hostile := []string{
		"# heading", "## Optional", "x ## y #", "](https://evil.example/) [", "[a](https://evil.example/)",
		"![img](https://evil.example/x.png)", "<script>alert(1)</script>", "<https://evil.example/>",
		"*em* _em_ `code` ~~del~~", "&lt;b&gt; &#35;", "a | b | c", "\\[escaped\\]", "- item", "> quote", "1. item",
		"a_b & c!",
	}
	for _, h := range hostile {
		d := Doc{Title: h, Summary: h, Sections: []Section{{Name: h, Links: []Link{{Title: h, URL: "https://www.example.org/a", Notes: h}}}}}
		out := string(Render(d))
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 7 {
			t.Fatalf("%q: %d lines:\n%s", h, len(lines), out)
		}
		checks := []struct {
			line   string
			prefix string
			field  Field
		}{{lines[0], "# ", FieldTitle}, {lines[2], "> ", FieldSummary}, {lines[4], "## ", FieldSection}, {lines[6], "- [", FieldLink}}
		for _, c := range checks {
			if !strings.HasPrefix(c.line, c.prefix) {
				t.Errorf("%q: line %q does not start with %q", h, c.line, c.prefix)
			}
			rest := strings.TrimPrefix(c.line, c.prefix)
			if c.field == FieldLink {
				i := strings.Index(rest, "](https://www.example.org/a)")
				if i < 0 {
					t.Fatalf("%q: no destination in %q", h, c.line)
				}
				rest = rest[:i]
			}
			if Unreadable(c.field, h) == "" {
				if rest != h {
					t.Errorf("%q: written as %q, want it as it is", h, rest)
				}
				continue
			}
			for i := 0; i < len(rest); i++ {
				switch {
				case rest[i] == '\\':
					i++ // an escape and the character it escapes
				case strings.IndexByte(markdownSpecial, rest[i]) >= 0:
					t.Errorf("%q: unescaped %q in %q", h, rest[i], c.line)
				}
			}
		}
	}
	if got := string(Render(Doc{Title: "a_b & c!"})); got != "# a_b & c!\n" {
		t.Errorf("a value markdown reads as given is escaped: %q", got)
	}
}

// markdownSpecial are the characters that must not stand unescaped in a
// value Unreadable refuses, written out here rather than taken from the
// package.
const markdownSpecial = "\\`*_[]<>#&~|!"

func TestDestination(t *testing.T) {
	for in, want := range map[string]string{
		"https://a.example/x(1).md":  "https://a.example/x%281%29.md",
		"https://a.example/a b":      "https://a.example/a%20b",
		"https://a.example/<x>\\y":   "https://a.example/%3Cx%3E%5Cy",
		"https://a.example/ok?q=1#f": "https://a.example/ok?q=1#f",
	} {
		if got := Destination(in); got != want {
			t.Errorf("Destination(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHeading(t *testing.T) {
	for _, c := range []struct {
		in   string
		line string // "" when no heading
	}{
		{"para\n\n- list\n", ""},
		{"# H1", "# H1"},
		{"text\n\n   ### three spaces\n", "   ### three spaces"},
		{"#hashtag is not a heading\n####### seven is not either", ""},
		{"    # indented code\n", ""},
		{"```sh\n# a comment in code\n```\nafter", ""},
		{"~~~~\n# code\n~~~\n# still code\n~~~~\n## out", "## out"},
		{"Title\n=====\n", "====="},
		{"Title\n---\n", "---"},
		{"\n---\nthematic break above\n", ""},
		{"- item\n---\n", ""},
		{"#\n", "#"},
		{"a\r\n## crlf\r\n", "## crlf"},
	} {
		off, line := Heading(c.in)
		if line != c.line {
			t.Errorf("Heading(%q) = %q, want %q", c.in, line, c.line)
			continue
		}
		if c.line == "" {
			if off != -1 {
				t.Errorf("Heading(%q) offset %d, want -1", c.in, off)
			}
		} else if !strings.HasPrefix(c.in[off:], c.line) {
			t.Errorf("Heading(%q) offset %d does not point at %q", c.in, off, c.line)
		}
	}
}

// TestParseRoundTrip: what Render writes, Parse reads back to the same
// document, hostile values included.
func TestParseRoundTrip(t *testing.T) {
	docs := []Doc{
		{Title: "T"},
		{Title: "T", Summary: "> not a quote ## x"},
		{Title: "T", Details: "para\n\n```\n## in code\n```\n\n> quoted"},
		{Title: "[a](b) \\ `c`", Summary: "s", Details: "d", Sections: []Section{
			{Name: "Docs ## x", Links: []Link{{Title: "](x) [", URL: "https://a.example/x%281%29", Notes: ": n *e*"}, {Title: "plain", URL: "https://a.example/"}}},
			{Name: "Empty"},
			{Name: "Optional", Links: []Link{{Title: "h", URL: "https://a.example/h"}}},
		}},
	}
	for _, d := range docs {
		out := Render(d)
		got, err := Parse(out)
		if err != nil {
			t.Errorf("%q: %v", out, err)
			continue
		}
		if again := Render(got); string(again) != string(out) {
			t.Errorf("round trip:\n%s\nbecame\n%s", out, again)
		}
		if got.Title != d.Title || got.Summary != d.Summary || len(got.Sections) != len(d.Sections) {
			t.Errorf("%q: parsed %+v", out, got)
		}
	}
	for _, bad := range []string{"", "no title\n", "# T", "# T\n\n## S\n\n* [a](b)\n", "# T\n\n## S\n\n- [a](b) notes\n", "# T\n\n## S\n\n- [a(b)\n"} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%q: parsed", bad)
		}
	}
}
