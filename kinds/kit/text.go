package kit

import (
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
