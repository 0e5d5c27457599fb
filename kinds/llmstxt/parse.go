package llmstxt

import (
	"errors"
	"fmt"
	"strings"
)

// Parse reads an llms.txt in the form Render writes, so that a file can
// be carried back into a manifest. It returns an error for a file that
// does not have that form; the caller should still compare Render of the
// result with the file, since markdown has more than one way to say a
// thing and only discgen's own way is read back.
func Parse(data []byte) (Doc, error) {
	var d Doc
	s := string(data)
	if !strings.HasSuffix(s, "\n") {
		return d, errors.New("does not end with a line break")
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	title, ok := strings.CutPrefix(lines[0], "# ")
	if !ok {
		return d, errors.New("line 1 is not the H1 title")
	}
	d.Title = Unescape(title)
	i := 1
	if i+1 < len(lines) && lines[i] == "" && strings.HasPrefix(lines[i+1], "> ") {
		d.Summary = Unescape(strings.TrimPrefix(lines[i+1], "> "))
		i += 2
	}
	// The details run to the first H2 outside a code block.
	start := i
	fence := ""
	for ; i < len(lines); i++ {
		t := strings.TrimLeft(lines[i], " ")
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" \t") == "" {
				fence = ""
			}
			continue
		}
		if f := fenceOf(t); f != "" {
			fence = f
			continue
		}
		if strings.HasPrefix(lines[i], "## ") {
			break
		}
	}
	d.Details = strings.Trim(strings.Join(lines[start:i], "\n"), "\n")
	for i < len(lines) {
		name, ok := strings.CutPrefix(lines[i], "## ")
		if !ok {
			if lines[i] == "" {
				i++
				continue
			}
			return d, fmt.Errorf("line %d is neither a section heading nor a link", i+1)
		}
		sec := Section{Name: Unescape(name)}
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "## "); i++ {
			if lines[i] == "" {
				continue
			}
			l, err := parseItem(lines[i])
			if err != nil {
				return d, fmt.Errorf("line %d: %v", i+1, err)
			}
			sec.Links = append(sec.Links, l)
		}
		d.Sections = append(d.Sections, sec)
	}
	return d, nil
}

// parseItem reads "- [title](url)" with an optional ": notes".
func parseItem(line string) (Link, error) {
	var l Link
	rest, ok := strings.CutPrefix(line, "- [")
	if !ok {
		return l, errors.New("not a list item with a link")
	}
	end := -1
	for j := 0; j < len(rest); j++ {
		if rest[j] == '\\' {
			j++
			continue
		}
		if rest[j] == ']' {
			end = j
			break
		}
	}
	if end < 0 || !strings.HasPrefix(rest[end:], "](") {
		return l, errors.New("the link text does not end with \"](\"")
	}
	l.Title = Unescape(rest[:end])
	rest = rest[end+2:]
	close := strings.IndexByte(rest, ')')
	if close < 0 {
		return l, errors.New("the link destination does not end with \")\"")
	}
	l.URL = rest[:close]
	rest = rest[close+1:]
	if rest != "" {
		notes, ok := strings.CutPrefix(rest, ": ")
		if !ok {
			return l, errors.New("text after the link does not start with \": \"")
		}
		l.Notes = Unescape(notes)
	}
	return l, nil
}

// Unescape removes the backslash before each escaped ASCII punctuation
// character, as markdown reads it.
func Unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
