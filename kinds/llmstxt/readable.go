package llmstxt

import (
	"strings"
	"unicode"

	"github.com/discgen/discgen/internal/lazyre"
)

// Field is where a one-line value goes in the file.
type Field int

const (
	FieldTitle   Field = iota + 1 // the H1
	FieldSummary                  // the blockquote
	FieldSection                  // an H2's name
	FieldLink                     // a link's text
	FieldNotes                    // a link's notes
)

// Two readers must read each value as given: a CommonMark renderer, and
// the llmstxt.org reference parser (AnswerDotAI/llms-txt, whose regular
// expressions take the H1, the blockquote, section names, link text and
// notes as written, with no markdown unescaping). A value is therefore
// written as it is, never escaped, and Unreadable says why a value cannot
// be: where CommonMark would read markup in it (an escape, emphasis, a
// code span, HTML or an autolink, a link, an entity, a heading's closing
// sequence, a block inside the blockquote), or where the reference parser
// would end the link text early. The rules are conservative: markup needs
// a pair of delimiters, and only values holding such a pair are refused.

var entity = lazyre.New(`&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);`)

// blockStart matches the start of a line that CommonMark reads as a block
// of its own inside the blockquote rather than as paragraph text.
var blockStart = lazyre.New("^(#{1,6}([ \t]|$)|>|[-+*]([ \t]|$)|[0-9]{1,9}[.)]([ \t]|$)|```|~~~|<|(-[ \t]*){3,}$|(\\*[ \t]*){3,}$|(_[ \t]*){3,}$)")

// Unreadable returns why the value s cannot be written in field f so that
// both readers read it as given, or "" when it can.
func Unreadable(f Field, s string) string {
	if strings.TrimSpace(s) != s {
		return "white space at either end, which markdown readers drop"
	}
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' && isPunct(s[i+1]) {
			return "a backslash before punctuation, which markdown reads as an escape (the llmstxt.org reference parser does not)"
		}
	}
	if f == FieldLink && strings.HasSuffix(s, "\\") {
		return "a backslash at the end, which markdown reads as escaping the \"]\" that ends the link text"
	}
	if f == FieldLink && strings.ContainsAny(s, "[]") {
		return "a square bracket: the llmstxt.org reference parser ends the link text at the first \"]\", and markdown pairs brackets inside it"
	}
	if i := strings.IndexByte(s, '['); i >= 0 && strings.LastIndexByte(s, ']') > i {
		return "\"[\" then \"]\", which markdown may read as a link"
	}
	if i := strings.IndexByte(s, '<'); i >= 0 && strings.LastIndexByte(s, '>') > i {
		return "\"<\" then \">\", which markdown may read as HTML or an autolink"
	}
	if strings.Count(s, "`") >= 2 {
		return "two backticks, which markdown may read as a code span"
	}
	if strings.Count(s, "*") >= 2 {
		return "two \"*\", which markdown may read as emphasis"
	}
	if underscores(s) >= 2 {
		return "two \"_\" at the edge of a word, which markdown may read as emphasis"
	}
	if strings.Count(s, "~") >= 2 {
		return "two \"~\", which GitHub's markdown may read as strikethrough"
	}
	if entity.MatchString(s) {
		return "an HTML entity (" + entity.Compiled().FindString(s) + "), which markdown reads as the character it names"
	}
	switch f {
	case FieldTitle, FieldSection:
		if t := strings.TrimRight(s, "#"); t != s && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
			return "it ends with \" #\", which markdown reads as the end of the heading and drops"
		}
	case FieldSummary:
		if blockStart.MatchString(s) {
			return "it starts with what markdown reads as a block of its own inside the blockquote (a heading, quote, list, code fence, HTML or rule)"
		}
	}
	return ""
}

// underscores counts the "_" of s that are not inside a word: only those
// can open or close emphasis.
func underscores(s string) int {
	n := 0
	r := []rune(s)
	for i, c := range r {
		if c != '_' {
			continue
		}
		inWord := i > 0 && i+1 < len(r) && isWordRune(r[i-1]) && isWordRune(r[i+1])
		if !inWord {
			n++
		}
	}
	return n
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
