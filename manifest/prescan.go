package manifest

import "bytes"

// The YAML parser builds the whole node tree of a document, at about 190
// bytes a node, before the loader can count its nodes: a 4 MiB document of
// "a," holds two million of them. prescan counts, in one pass over the
// bytes, values the document surely holds, so that one with more than
// MaxNodes is refused before it is parsed.
//
// The count is a lower bound: a comma inside a flow collection separates
// two values; a "- " that starts a block sequence entry is one; a key
// followed by ": " in block context is a key and a value. Quoted scalars,
// comments and block scalars are skipped. Where the scan could misread
// (a quote inside a plain scalar), it skips text rather than count it, so
// a document is never refused for values it does not hold.

// prescan returns the count of values, and the byte offset at which it
// passes limit or -1 when it does not.
func prescan(data []byte, limit int) (count, at int) {
	flow := 0          // depth of flow collections
	block := -1        // indentation of a block scalar's parent line, or -1
	tokenStart := true // a value may start here (not inside a plain scalar)
	lineStart := true
	indent, col := 0, 0
	// A plain scalar may go on over the next lines that are indented more
	// than the collection holding it: structCol is the column of that
	// collection (of the "- " or of the key), -1 at the top level.
	structCol, tokCol := -1, 0
	plainOpen, plainIndent := false, -1
	inPlain := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if lineStart {
			// Measure the indentation; skip a block scalar's lines and
			// the lines that may continue a plain scalar.
			j := i
			for j < len(data) && data[j] == ' ' {
				j++
			}
			indent = j - i
			blank := j == len(data) || data[j] == '\n' || data[j] == '\r' || data[j] == '#'
			cont := flow == 0 && plainOpen && indent > plainIndent
			if block >= 0 && (blank || indent > block) || cont || blank {
				for i < len(data) && data[i] != '\n' {
					i++
				}
				continue // at the '\n'
			}
			block = -1
			lineStart = false
			plainOpen, inPlain = false, false
			structCol = -1
			i = j - 1
			col = indent - 1
			tokenStart = true
			continue
		}
		col++
		switch c {
		case '\n':
			if flow == 0 && inPlain {
				plainOpen, plainIndent = true, structCol
			}
			lineStart, tokenStart = true, true
			col = 0
			continue
		case ' ', '\t', '\r':
			// A space inside a plain scalar does not end it.
			continue
		case '#':
			// Whether or not it starts a comment, skipping the rest of
			// the line only counts less.
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
			continue
		case '\'', '"':
			if tokenStart {
				j := skipQuoted(data, i)
				if bytes.IndexByte(data[i:min(j+1, len(data))], '\n') >= 0 {
					// A quoted scalar over several lines: columns are
					// lost; count nothing more on this line.
					for j+1 < len(data) && data[j+1] != '\n' {
						j++
					}
				}
				i, tokCol = j, col
				tokenStart, inPlain = false, false
				continue
			}
		case '[', '{':
			if tokenStart || flow > 0 {
				flow++
				tokenStart, inPlain = true, false
				continue
			}
		case ']', '}':
			if flow > 0 {
				flow--
				tokenStart = false
				continue
			}
		case ',':
			if flow > 0 {
				count++
				tokenStart = true
				if count > limit {
					return count, i
				}
				continue
			}
		case '-':
			if flow == 0 && tokenStart && (i+1 == len(data) || data[i+1] == ' ' || data[i+1] == '\n') {
				count++
				structCol = col
				if count > limit {
					return count, i
				}
				continue // tokenStart stays: "- - a" is two entries
			}
		case '?':
			if flow == 0 && tokenStart && (i+1 == len(data) || data[i+1] == ' ' || data[i+1] == '\n') {
				// An explicit key: its value follows at this column.
				structCol = col
				continue
			}
		case ':':
			if flow == 0 && (i+1 == len(data) || data[i+1] == ' ' || data[i+1] == '\n' || data[i+1] == '\r') {
				count += 2
				structCol = tokCol
				if count > limit {
					return count, i
				}
				tokenStart, inPlain = true, false
				continue
			}
		case '|', '>':
			if flow == 0 && tokenStart && restIsIndicator(data, i+1) {
				block = indent
			}
		}
		if tokenStart {
			tokCol = col
			inPlain = flow == 0
		}
		tokenStart = false
	}
	return count, -1
}

// skipQuoted returns the offset of the quote that closes the quoted
// scalar opened at i, or the end of data.
func skipQuoted(data []byte, i int) int {
	q := data[i]
	for j := i + 1; j < len(data); j++ {
		switch {
		case q == '"' && data[j] == '\\':
			j++
		case data[j] == q && q == '\'' && j+1 < len(data) && data[j+1] == '\'':
			j++
		case data[j] == q:
			return j
		}
	}
	return len(data)
}

// restIsIndicator reports whether what follows a "|" or ">" on its line is
// a block scalar header: indentation and chomping indicators, then
// nothing but a comment.
func restIsIndicator(data []byte, i int) bool {
	for ; i < len(data) && data[i] != '\n'; i++ {
		switch c := data[i]; {
		case c == '-' || c == '+' || c >= '1' && c <= '9' || c == '\r':
		case c == ' ' || c == '\t':
			for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
				i++
			}
			return i == len(data) || data[i] == '\n' || data[i] == '\r' || data[i] == '#'
		default:
			return false
		}
	}
	return true
}
