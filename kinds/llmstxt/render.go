package llmstxt

import (
	"strings"
)

// Optional is the name of the section whose links a reader may skip.
const Optional = "Optional"

// Doc is an llms.txt file, its URLs resolved to absolute ones.
type Doc struct {
	Title    string
	Summary  string
	Details  string
	Sections []Section
}

// Section is one H2 section.
type Section struct {
	Name  string
	Links []Link
}

// Link is one list item of a section.
type Link struct {
	Title string
	URL   string
	Notes string
}

// Render writes d. Blocks are separated by one blank line; the file ends
// with a single line break. Details keep their lines, with trailing white
// space and blank lines at either end removed and line breaks made LF.
func Render(d Doc) []byte {
	var b strings.Builder
	b.WriteString("# " + value(FieldTitle, d.Title) + "\n")
	if d.Summary != "" {
		b.WriteString("\n> " + value(FieldSummary, d.Summary) + "\n")
	}
	if det := details(d.Details); det != "" {
		b.WriteString("\n" + det + "\n")
	}
	for _, s := range d.Sections {
		b.WriteString("\n## " + value(FieldSection, s.Name) + "\n")
		if len(s.Links) > 0 {
			b.WriteString("\n")
		}
		for _, l := range s.Links {
			b.WriteString("- [" + value(FieldLink, l.Title) + "](" + Destination(l.URL) + ")")
			if l.Notes != "" {
				b.WriteString(": " + value(FieldNotes, l.Notes))
			}
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

// details normalizes the details' line breaks and trims trailing white
// space from each line and blank lines from either end.
func details(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// special are the characters Inline escapes: CommonMark gives each a
// meaning somewhere in a line (emphasis, code, links and images, raw HTML
// and autolinks, entities, ATX heading markers and their closing
// sequence, GFM strikethrough and tables), and a backslash before any
// ASCII punctuation character stands for the character itself.
const special = "\\`*_[]<>#&~|!"

// value writes a one-line value of field f: as it is when both readers
// read it so (Unreadable), which validation makes the case for every
// manifest; escaped for markdown otherwise, so that a value no validation
// saw still cannot change the file's structure.
func value(f Field, s string) string {
	if Unreadable(f, s) == "" {
		return s
	}
	return Inline(s)
}

// Inline escapes s for one line of markdown text: a heading, the
// blockquote, link text or a note.
func Inline(s string) string {
	if !strings.ContainsAny(s, special) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune(special, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Destination writes an absolute URL as a markdown link destination:
// characters that would end it or change its reading (space, parentheses,
// angle brackets, backslash, and any control character) are
// percent-encoded; everything else is kept as it is.
func Destination(u string) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c <= ' ' || c == 0x7f || c == '(' || c == ')' || c == '<' || c == '>' || c == '\\':
			b.WriteString("%" + strings.ToUpper(hex(c)))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func hex(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}
