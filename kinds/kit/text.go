package kit

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/diag"
)

// Col is the 1-based column, in characters, of byte offset i of line; an
// offset outside the line is clamped to it.
func Col(line string, i int) int {
	if i < 0 {
		i = 0
	}
	return utf8.RuneCountInString(line[:min(i, len(line))]) + 1
}

// Severity is diag.Warning when warn is true, diag.Error otherwise.
func Severity(warn bool) diag.Severity {
	if warn {
		return diag.Warning
	}
	return diag.Error
}

// QuoteShort quotes s for a message, cut to its first 40 characters
// followed by "..." when it is longer.
func QuoteShort(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return strconv.Quote(s)
	}
	n := 0
	for i := range s {
		if n == max {
			return strconv.Quote(s[:i]) + "..."
		}
		n++
	}
	return strconv.Quote(s)
}

// Clean makes free text safe for a message or a YAML comment: invalid
// bytes, control characters and the invisible characters discgen refuses
// in values (bidirectional overrides and isolates, U+FEFF, tag
// characters, zero-width characters) are shown as U+FFFD.
func Clean(s string) string {
	return strings.Map(func(r rune) rune {
		if unsafeRune(r) {
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// Plain reports whether s can be a one-line manifest value as it is:
// valid UTF-8 with none of the characters Clean replaces.
func Plain(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	return strings.IndexFunc(s, unsafeRune) < 0
}

func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0xfeff || (r >= 0xe0000 && r <= 0xe007f) || (r >= 0x200b && r <= 0x200f)
}
