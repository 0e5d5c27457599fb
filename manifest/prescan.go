package manifest

import "bytes"

// The YAML parser builds the whole node tree of a document, at about 190
// bytes a node, before the loader can count its nodes: a 4 MiB document of
// "a," holds two million of them. prescan counts, in one pass over the
// bytes, the nodes the parser could build, so that a document that may
// hold more than MaxNodes is refused before it is parsed.
//
// The count is an upper bound: it follows the tokens of the YAML scanner
// (go.yaml.in/yaml/v3's scannerc.go) and gives each the most nodes it can
// make. A scalar, an alias, a flow collection, a tag or an anchor is one;
// a block collection is one more where the scanner's indentation stack
// grows (roll_indent); a "-", ":", "?", "," or "}" adds the empty scalar
// it can imply (an entry, key or value left out) where nothing fills its
// place. Text is skipped only where the scanner skips it too: a "#" that
// starts a comment (at the start of a token, or after a blank inside a
// plain scalar; "a#" is a scalar), the inside of a quoted scalar, and the
// lines of a block scalar, indented as the scanner indents them. Where the
// reading is in doubt it counts more, never less: an ordinary manifest is
// counted at one to two times its nodes (a key with a nested value counts
// the empty value it could have had, each entry of an indentless
// sequence a sequence of its own), and refused only near MaxNodes.

// indentLevel is one entry of the scanner's block indentation stack.
type indentLevel struct {
	col int
	seq bool // a block sequence (else a mapping)
}

// flowLevel is one open flow collection.
type flowLevel struct {
	mapping bool // "{" (else "[")
	colon   bool // the current entry has had its ":"
	keyCol  int  // the enclosing context's keyCol
}

// scan is the state of prescan.
type scan struct {
	data  []byte
	count int
	// lineStart is the offset of the current line's first byte.
	lineStart int
	indents   []indentLevel
	flows     []flowLevel
	// node is set once a node token was seen since the last indicator
	// (or, in the block context, the start of the line); keyCol is the
	// column of the first such token: a simple key's column.
	node   bool
	keyCol int
	// empty is set by a "-" or ":" whose entry or value is still empty.
	empty bool
	// plain is set inside a plain scalar; plainIndent is the indentation
	// its continuation lines need (block context).
	plain       bool
	plainIndent int
	// colLine, colAt and colN cache the last column computed.
	colLine, colAt, colN int
	// keyAt is the offset of the token at keyCol.
	keyAt int
	// dels counts the top-level delegations.
	dels topList
}

// prescan returns the count of nodes, and the byte offset at which it
// passes limit or -1 when it does not.
func prescan(data []byte, limit int) (count, at int) {
	s, at := prescanScan(data, limit)
	return s.count, at
}

// prescanScan runs the prescan and returns its final state, and the byte
// offset at which the count of nodes passes limit or -1.
func prescanScan(data []byte, limit int) (*scan, int) {
	s := &scan{data: normalBreaks(data), keyCol: -1, dels: newTopList("delegations", MaxDelegations)}
	s.count = 1 // the first document
	for i := 0; i < len(data); {
		i = s.step(i)
		if s.count > limit {
			return s, min(i, len(data)-1)
		}
	}
	if s.empty {
		s.count++ // "-" or "key:" at the very end
	}
	return s, -1
}

// col returns the column of offset i on the current line, in characters
// as the scanner counts them. Offsets asked for only grow along a line,
// so it counts from where it last stopped.
func (s *scan) col(i int) int {
	if s.colLine != s.lineStart || s.colAt > i {
		s.colLine, s.colAt, s.colN = s.lineStart, s.lineStart, 0
	}
	for _, c := range s.data[s.colAt:i] {
		if c&0xC0 != 0x80 {
			s.colN++
		}
	}
	s.colAt = i
	return s.colN
}

func (s *scan) indent() int {
	if len(s.indents) == 0 {
		return -1
	}
	return s.indents[len(s.indents)-1].col
}

// unroll pops the block levels deeper than col, as the scanner does
// before each token of the block context.
func (s *scan) unroll(col int) {
	if len(s.flows) > 0 {
		return
	}
	for len(s.indents) > 0 && s.indents[len(s.indents)-1].col > col {
		s.indents = s.indents[:len(s.indents)-1]
	}
}

// roll pushes a block level at col when it is deeper than the current
// one, counting the collection it starts.
func (s *scan) roll(col int, seq bool) {
	if len(s.flows) > 0 {
		return
	}
	if col > s.indent() {
		s.indents = append(s.indents, indentLevel{col: col, seq: seq})
		s.count++
	}
}

func blankz(data []byte, i int) bool {
	return i >= len(data) || data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'
}

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// token notes a node token starting at i (column col).
func (s *scan) token(i, col int) {
	if !s.node {
		s.node, s.keyCol, s.keyAt = true, col, i
	}
	s.empty = false
	s.count++
	s.dels.token(s, i)
}

// endLine handles the line break at i and returns the offset after it.
func (s *scan) endLine(i int) int {
	if s.empty && len(s.flows) == 0 {
		s.count++ // "-" or "key:" with nothing after it on the line
		s.empty = false
	}
	if len(s.flows) == 0 {
		s.node = false
	}
	s.lineStart = i + 1
	return i + 1
}

// step reads from i (outside any token) and returns where to go on.
func (s *scan) step(i int) int {
	data := s.data
	c := data[i]
	if c == '\n' {
		return s.endLine(i)
	}
	if c == ' ' || c == '\t' || c == '\r' {
		return i + 1
	}
	if i == s.lineStart {
		if j, ok := s.lineHead(i); ok {
			return j
		}
	}
	col := s.col(i)
	if s.plain {
		// A plain scalar goes on over the next lines: in a flow
		// collection always, in the block context when indented enough.
		if len(s.flows) > 0 || col >= s.plainIndent {
			return s.plainScalar(i, false)
		}
		s.plain = false
	}
	if c != '#' {
		s.unroll(col)
	}
	flow := len(s.flows) > 0
	if c != '#' && !flow {
		s.dels.block(s, c, i, col)
	}
	switch {
	case c == '#':
		return s.skipLine(i)
	case c == '[' || c == '{':
		s.token(i, col)
		s.flows = append(s.flows, flowLevel{mapping: c == '{', keyCol: s.keyCol})
		s.node = false
		return i + 1
	case c == ']' || c == '}':
		s.node = true
		if flow {
			s.dels.closed(s)
			s.entryEnd()
			s.keyCol = s.flows[len(s.flows)-1].keyCol
			s.flows = s.flows[:len(s.flows)-1]
		}
		return i + 1
	case c == ',':
		if flow {
			s.dels.comma(s)
			s.entryEnd()
			s.flows[len(s.flows)-1].colon = false
		}
		s.node = false
		return i + 1
	case c == '-' && blankz(data, i+1):
		if !flow {
			if col == s.indent() && !s.indents[len(s.indents)-1].seq {
				s.count++ // an indentless sequence
			} else {
				s.roll(col, true)
			}
		}
		s.node, s.empty = false, true // its entry, if nothing follows
		return i + 1
	case c == '?' && (flow || blankz(data, i+1)):
		s.roll(col, false)
		s.count += 3 // a pair mapping in a flow sequence, an empty key, an empty value
		s.node, s.empty = false, false
		return i + 1
	case c == ':' && (flow || blankz(data, i+1)):
		s.value(i, col)
		return i + 1
	case c == '*' || c == '&' || c == '!':
		s.token(i, col)
		return s.skipName(i+1, c == '!')
	case (c == '|' || c == '>') && !flow:
		s.token(i, col)
		return s.blockScalar(i + 1)
	case c == '\'' || c == '"':
		s.token(i, col)
		return s.quoted(i)
	}
	s.token(i, col)
	s.plain, s.plainIndent = true, s.indent()+1
	return s.plainScalar(i+1, true)
}

// lineHead handles what only the start of a line can hold: document
// markers and directives, and the line that goes on a plain scalar.
func (s *scan) lineHead(i int) (int, bool) {
	data := s.data
	if len(data)-i >= 3 && (string(data[i:i+3]) == "---" || string(data[i:i+3]) == "...") && blankz(data, i+3) {
		s.indents, s.flows = s.indents[:0], s.flows[:0]
		s.plain, s.node, s.empty = false, false, false
		s.dels.state = listIdle
		s.count += 2 // a document and its empty root
		return i + 3, true
	}
	if data[i] == '%' && !s.plain && len(s.flows) == 0 {
		return s.skipLine(i), true
	}
	return i, false
}

// skipLine returns the offset of the line break ending the line at i.
func (s *scan) skipLine(i int) int {
	if j := bytes.IndexByte(s.data[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s.data)
}

// entryEnd counts the empty value of a flow mapping entry without ":"
// ({a, b}), and the empty value after a ":" with nothing after it.
func (s *scan) entryEnd() {
	top := s.flows[len(s.flows)-1]
	if top.mapping && !top.colon || s.empty {
		s.count++
	}
	s.empty = false
}

// value handles a ":" indicator at i (column col).
func (s *scan) value(i, col int) {
	if len(s.flows) > 0 {
		top := &s.flows[len(s.flows)-1]
		if !top.mapping {
			s.count++ // a single pair mapping
		}
		top.colon = true
	} else if s.node {
		s.roll(s.keyCol, false)
		s.dels.keyed(s, i)
	} else {
		s.roll(col, false)
	}
	if !s.node {
		s.count++ // an empty key
	}
	s.node, s.empty = false, true
}

// plainScalar goes on through a plain scalar from i; run says whether the
// byte before i belongs to the scalar (not a blank). It stops before what
// ends the scalar: a line break, ": ", " #", and in a flow collection a
// flow indicator, "?" or ":" followed by a blank.
func (s *scan) plainScalar(i int, run bool) int {
	data := s.data
	flow := len(s.flows) > 0
	for ; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			return i
		case c == ' ' || c == '\t' || c == '\r':
			run = false
			continue
		case c == '#' && !run:
			s.plain = false
			return i
		case c == ':' && blankz(data, i+1):
			s.plain = false
			return i
		case flow && (isFlowIndicator(c) || c == '?'):
			s.plain = false
			return i
		}
		run = true
	}
	return i
}

// skipName skips an anchor or alias name (letters, digits, "_" and "-"),
// or a tag up to a blank or a flow indicator.
func (s *scan) skipName(i int, tag bool) int {
	data := s.data
	for i < len(data) {
		c := data[i]
		if tag && (blankz(data, i) || isFlowIndicator(c)) ||
			!tag && !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '-') {
			break
		}
		i++
	}
	return i
}

// quoted skips the quoted scalar opened at i, following its line breaks.
func (s *scan) quoted(i int) int {
	data := s.data
	q := data[i]
	for j := i + 1; j < len(data); j++ {
		switch {
		case data[j] == '\n':
			s.lineStart = j + 1
		case q == '"' && data[j] == '\\':
			if j+1 < len(data) && data[j+1] == '\n' {
				s.lineStart = j + 2
			}
			j++
		case data[j] == q && q == '\'' && j+1 < len(data) && data[j+1] == '\'':
			j++
		case data[j] == q:
			return j + 1
		}
	}
	return len(data)
}

// blockScalar skips a block scalar whose indicator ends before i: its
// header, then its lines, indented as the scanner indents them (an
// explicit indentation, or that of the first non-empty line, at least one
// more than the enclosing block collection).
func (s *scan) blockScalar(i int) int {
	data := s.data
	explicit := 0
	// The indicators, then blanks, then a comment ("|#c" too) or nothing.
	for ; i < len(data); i++ {
		c := data[i]
		if c >= '1' && c <= '9' {
			explicit = int(c - '0')
		} else if c != '+' && c != '-' {
			break
		}
	}
	for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	if i < len(data) && data[i] != '\n' && data[i] != '#' {
		return i // not a header: the parser stops here
	}
	i = s.skipLine(i)
	if i >= len(data) {
		return i
	}
	pi := s.indent()
	want := 0
	if explicit > 0 {
		want = explicit
		if pi >= 0 {
			want = pi + explicit
		}
	}
	// i is at the header's line break. Empty lines before the first
	// line of text raise the indentation the scanner detects.
	most := 0
	for i < len(data) {
		j := i + 1
		k := j
		for k < len(data) && data[k] == ' ' {
			k++
		}
		n := k - j
		if k >= len(data) {
			return len(data)
		}
		if data[k] == '\n' {
			most = max(most, n)
			i = k
			continue
		}
		if want == 0 {
			want = max(most, n, pi+1, 1)
		}
		if n < want {
			// The scalar ends: this line is read again from its start.
			s.lineStart = j
			s.node, s.empty = false, false
			return j
		}
		i = s.skipLine(k)
	}
	return i
}

// normalBreaks returns data with every line break the YAML scanner knows
// ("\r\n", "\r", NEL, LS, PS) written as blanks and one "\n", at the same
// offsets; data itself when it has only "\n".
func normalBreaks(data []byte) []byte {
	if bytes.IndexByte(data, '\r') < 0 && !bytes.Contains(data, []byte("\u0085")) &&
		!bytes.Contains(data, []byte("\u2028")) && !bytes.Contains(data, []byte("\u2029")) {
		return data
	}
	out := bytes.Clone(data)
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '\r' && i+1 < len(out) && out[i+1] == '\n':
			out[i] = ' '
		case out[i] == '\r':
			out[i] = '\n'
		case out[i] == 0xC2 && i+1 < len(out) && out[i+1] == 0x85:
			out[i], out[i+1] = ' ', '\n'
		case out[i] == 0xE2 && i+2 < len(out) && out[i+1] == 0x80 && (out[i+2] == 0xA8 || out[i+2] == 0xA9):
			out[i], out[i+1], out[i+2] = ' ', ' ', '\n'
		}
	}
	return out
}
