package manifest

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/lazyre"
	"go.yaml.in/yaml/v3"
)

// The YAML parser reports a syntax error with a line at most, and not
// always the right one: errors of its scanner give the 1-based line of the
// token it was reading, errors of its parser the 0-based line of the
// construct they occur in (so often the line before the mistake), and
// either gives no line at all on the first line. yamlError finds the line
// and column itself: for a parser error, the first line whose inclusion
// makes the document fail the same way (a binary search over prefixes, in
// documents up to maxLocateBytes); then, on that line, the token the
// message is about.

var yamlLineRE = lazyre.New(`^yaml: (?:line (\d+): )?(.*)$`)

// scannerProblems are the messages of the YAML scanner; the others come
// from its parser.
var scannerProblems = []string{
	"did not find expected alphabetic or numeric character",
	"found character that cannot start any token",
	"mapping values are not allowed in this context",
	"mapping keys are not allowed in this context",
	"block sequence entries are not allowed in this context",
	"found unexpected end of stream",
	"found unknown escape character",
	"found a tab character",
	"could not find expected ':'",
	"did not find expected whitespace",
	"did not find expected comment or line break",
	"found unexpected document indicator",
	"found invalid Unicode character escape code",
	"did not find expected hexdecimal number",
	"found an indentation indicator equal to 0",
	"did not find URI escaped octet",
	"found undefined tag handle",
	"did not find the expected '>'",
	"exceeded max depth",
}

// maxLocateBytes bounds the documents whose parser errors are located by
// parsing prefixes: the search parses up to about 17 of them, a quarter
// of a second at this size. A larger document's parser error is shown on
// the line after the one the parser names.
const maxLocateBytes = 128 << 10

// yamlError positions a parser error and adds a hint where one helps.
func yamlError(file string, data []byte, err error) *diag.Diagnostic {
	msg := err.Error()
	d := &diag.Diagnostic{Pos: diag.Pos{File: file, Line: 1, Col: 1}, Message: "invalid YAML: " + msg}
	m := yamlLineRE.FindStringSubmatch(msg)
	if m == nil {
		return d
	}
	problem := m[2]
	d.Message = "invalid YAML: " + problem
	reported := 0
	if m[1] != "" {
		reported, _ = strconv.Atoi(m[1])
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	line := 1
	scanner := false
	for _, p := range scannerProblems {
		if strings.HasPrefix(problem, p) {
			scanner = true
		}
	}
	flow := strings.HasPrefix(problem, "did not find expected ',' or")
	switch {
	case flow:
		// Reported at the list or mapping that is not closed.
		line = reported + 1
	case scanner && reported > 0:
		line = reported
	case scanner:
		line = 1
	case len(data) <= maxLocateBytes:
		line = firstFailingLine(data, lines, problem, reported+1)
	default:
		line = reported + 1
	}
	line = max(1, min(line, len(lines)))
	text := func(l int) string { return strings.TrimRight(string(lines[l-1]), "\r\n") }
	// A document that ends inside a list or mapping fails at its end:
	// show the last line that holds something.
	if !scanner && strings.TrimSpace(text(line)) == "" {
		for line > 1 && strings.TrimSpace(text(line)) == "" {
			line--
		}
		if t := text(line); strings.TrimSpace(t) != "" {
			if i := strings.LastIndexAny(t, "[{"); i >= 0 {
				d.Line, d.Col = line, runeCol(t, i)
				d.Message += "; the document ends before this " + map[byte]string{'[': "list", '{': "mapping"}[t[i]] + " is closed"
				return d
			}
		}
	}
	col, hint := locateToken(text(line), problem)
	d.Line, d.Col = line, col
	if hint != "" {
		d.Message += "; " + hint
	}
	return d
}

// firstFailingLine returns the first line from which on the prefixes of
// data fail with problem, searching from line lo.
func firstFailingLine(data []byte, lines [][]byte, problem string, lo int) int {
	ends := make([]int, len(lines)+1) // ends[k]: the end of line k
	for i, l := range lines {
		ends[i+1] = ends[i] + len(l)
	}
	fails := func(k int) bool {
		dec := yaml.NewDecoder(bytes.NewReader(data[:ends[k]]))
		for {
			var n yaml.Node
			err := dec.Decode(&n)
			if err == nil {
				continue
			}
			sub := yamlLineRE.FindStringSubmatch(err.Error())
			return sub != nil && sub[2] == problem
		}
	}
	lo = max(1, min(lo, len(lines)))
	hi := len(lines)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// locateToken returns the 1-based column of the token problem is about
// in a line of text, and a hint for it.
func locateToken(text, problem string) (int, string) {
	first := len(text) - len(strings.TrimLeft(text, " \t")) + 1
	if strings.TrimSpace(text) == "" {
		first = 1
	}
	switch {
	case strings.HasPrefix(problem, "did not find expected alphabetic or numeric character"):
		if i := tokenStart(text, func(s string) bool {
			return (s[0] == '*' || s[0] == '&') && (len(s) == 1 || !isAnchorChar(s[1]))
		}); i >= 0 {
			if text[i] == '*' {
				return runeCol(text, i), `"*" starts an alias in YAML; to write a star, quote it: "*"`
			}
			return runeCol(text, i), `"&" starts an anchor in YAML; to write it as text, quote the value`
		}
	case strings.HasPrefix(problem, "found character that cannot start any token"):
		if i := tokenStart(text, func(s string) bool { return strings.ContainsRune("\t@`%", rune(s[0])) }); i >= 0 {
			switch text[i] {
			case '\t':
				return runeCol(text, i), "YAML indents with spaces, not tabs"
			case '@', '`':
				return runeCol(text, i), "\"" + text[i:i+1] + "\" cannot start a plain value in YAML; quote the value"
			}
			return runeCol(text, i), ""
		}
	case strings.HasPrefix(problem, "mapping values are not allowed"):
		// The colon that makes a second key on the line.
		colons := colonsOf(text)
		if len(colons) >= 2 {
			return runeCol(text, colons[1]), "a value that holds \": \" must be quoted"
		}
		if len(colons) == 1 {
			return runeCol(text, colons[0]), "check the indentation of this line"
		}
	case strings.HasPrefix(problem, "found unexpected end of stream"):
		if i := tokenStart(text, func(s string) bool { return s[0] == '"' || s[0] == '\'' }); i >= 0 {
			return runeCol(text, i), "this quoted value is not closed"
		}
	case strings.HasPrefix(problem, "did not find expected ',' or ']'"):
		if i := strings.LastIndexByte(text, '['); i >= 0 {
			return runeCol(text, i), "this list is not closed with \"]\""
		}
	case strings.HasPrefix(problem, "did not find expected ',' or '}'"):
		if i := strings.LastIndexByte(text, '{'); i >= 0 {
			return runeCol(text, i), "this mapping is not closed with \"}\""
		}
	case strings.HasPrefix(problem, "did not find expected key"),
		strings.HasPrefix(problem, "did not find expected '-' indicator"):
		return first, "check the indentation of this line"
	}
	return first, ""
}

// eachUnquoted calls visit with the offset of every byte of text that
// lies outside quotes and comments, and whether a token may start there
// (at the line's start, or after a space, tab, "[", "{" or ","), until
// visit returns true. A quote opens only where a token starts, so the
// apostrophe of "it's" is text; in double quotes a backslash escapes the
// next byte.
func eachUnquoted(text string, visit func(i int, start bool) bool) {
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
			continue
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t'):
			return
		}
		start := i == 0 || strings.IndexByte(" \t[{,", text[i-1]) >= 0
		if visit(i, start) {
			return
		}
		if start && (c == '"' || c == '\'') {
			quote = c
		}
	}
}

// tokenStart returns the byte offset of the first place in text, outside
// quotes and comments, where a token starts and ok holds for the text
// from there, or -1.
func tokenStart(text string, ok func(string) bool) int {
	found := -1
	eachUnquoted(text, func(i int, start bool) bool {
		if start && ok(text[i:]) {
			found = i
		}
		return found >= 0
	})
	return found
}

// colonsOf returns the offsets of the colons that end a key (followed by a
// space, a tab or the line's end), outside quotes and comments.
func colonsOf(text string) []int {
	var out []int
	eachUnquoted(text, func(i int, _ bool) bool {
		if text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t') {
			out = append(out, i)
		}
		return false
	})
	return out
}

// isAnchorChar reports whether c may appear in an anchor or alias name as
// the YAML parser reads them.
func isAnchorChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-' || c >= 0x80
}

// runeCol turns a byte offset into a 1-based column counted in characters,
// as the YAML parser counts them.
func runeCol(text string, i int) int {
	return len([]rune(text[:i])) + 1
}
