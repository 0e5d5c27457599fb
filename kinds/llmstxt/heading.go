package llmstxt

import "strings"

// Heading returns the byte offset in details of the first line that
// markdown reads as a heading, and that line, or -1. It finds ATX headings
// ("# x", up to three spaces of indentation, one to six "#", then a space,
// a tab or the end of the line) and setext underlines (a line of "=" or
// "-" only, under a line of paragraph text). Lines inside fenced code
// blocks (``` or ~~~) and indented code are not headings.
func Heading(details string) (off int, line string) {
	fence := ""
	prevText := false // the previous line is paragraph text
	pos := 0
	for _, l := range strings.SplitAfter(details, "\n") {
		start := pos
		pos += len(l)
		l = strings.TrimRight(l, "\r\n")
		indent := len(l) - len(strings.TrimLeft(l, " "))
		t := strings.TrimLeft(l, " ")
		if fence != "" {
			if indent < 4 && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" \t") == "" {
				fence = ""
			}
			prevText = false
			continue
		}
		if indent >= 4 {
			prevText = prevText && strings.TrimSpace(l) != ""
			continue
		}
		if f := fenceOf(t); f != "" {
			fence = f
			prevText = false
			continue
		}
		if atx(t) {
			return start, l
		}
		if prevText && setext(t) {
			return start, l
		}
		prevText = strings.TrimSpace(t) != "" && !listMarker(t) && !strings.HasPrefix(t, ">")
	}
	return -1, ""
}

// atx reports an ATX heading line, its indentation removed.
func atx(t string) bool {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
}

// setext reports a setext heading underline, its indentation removed.
func setext(t string) bool {
	t = strings.TrimRight(t, " \t")
	return t != "" && (strings.Trim(t, "=") == "" || strings.Trim(t, "-") == "")
}

// listMarker reports a line that starts a list item: a paragraph line
// then, not an underline's text.
func listMarker(t string) bool {
	if len(t) >= 2 && strings.ContainsRune("-+*", rune(t[0])) && (t[1] == ' ' || t[1] == '\t') {
		return true
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && (t[i+1] == ' ' || t[i+1] == '\t')
}

// fenceOf returns the fence a line opens (three or more backticks or
// tildes), or "".
func fenceOf(t string) string {
	for _, c := range []string{"`", "~"} {
		n := len(t) - len(strings.TrimLeft(t, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}
