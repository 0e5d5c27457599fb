package manifest

// A manifest may hold a list longer than its limit while staying under
// MaxNodes: 40,000 delegations are 1.6 MB, which the parser and the loader
// turn into some 80 MB before validation refuses the list. The prescan
// therefore also counts the entries of the top-level delegations list, in
// the same pass, so that such a list is refused before it is parsed.
//
// This count must never be more than the parser's, or a manifest that
// validation accepts would be refused: where the prescan's count of nodes
// may be loose upwards, this one may only be loose downwards. It counts a
// list only in the plain form, a key written delegations (no quotes, tag
// or "?") at the column of the document's block mapping, whose value is
// a block sequence ("-" entries, indented or not) or a flow sequence
// ("[...]"), possibly after an anchor or a tag; it counts each "-" of the
// sequence's own column, or each entry of the flow sequence that starts
// with a node. What the scanner skips (comments, quoted and block
// scalars) holds no key and no entry. Any other form (an alias, a quoted
// key, a second document) is left to the parser and validation.

// listState is where topList is in its list.
type listState uint8

const (
	listIdle  listState = iota
	listValue           // after the key's ":", before its value
	listBlock           // in a block sequence
	listFlow            // in a flow sequence
)

// topList counts the entries of one top-level list.
type topList struct {
	key   string
	limit int
	state listState
	// col is the column of a block sequence's "-"; indentless is set when
	// that is the column of the mapping's keys.
	col        int
	indentless bool
	// depth is the flow depth inside a flow sequence; entry is set once
	// its current entry has started.
	depth int
	entry bool
	n     int // entries of the list being read
	// most is the most entries a list under key had, and at the offset of
	// the first entry past limit (or -1); pending is set while at is a
	// "-" whose entry's first token has not come yet.
	most    int
	at      int
	pending bool
}

func newTopList(key string, limit int) topList {
	return topList{key: key, limit: limit, at: -1}
}

// keyed notes a ":" at i ending a simple key in the block context; s.keyAt
// is where the key started.
func (l *topList) keyed(s *scan, i int) {
	if len(s.indents) != 1 || s.indents[0].seq || s.indents[0].col != s.keyCol {
		return // a key deeper down
	}
	l.state = listIdle
	j := i
	for j > s.keyAt && (s.data[j-1] == ' ' || s.data[j-1] == '\t') {
		j--
	}
	if string(s.data[s.keyAt:j]) == l.key {
		l.state, l.n = listValue, 0
	}
}

// entered counts an entry starting at i.
func (l *topList) entered(i int) {
	l.n++
	l.most = max(l.most, l.n)
	if l.n == l.limit+1 && l.at < 0 {
		l.at = i
		l.pending = l.state == listBlock
	}
}

// token notes a node token at i (s.data[i] is its first byte).
func (l *topList) token(s *scan, i int) {
	if l.pending {
		l.at, l.pending = i, false
	}
	switch l.state {
	case listValue:
		switch s.data[i] {
		case '&', '!': // the value's properties
		case '[':
			l.state, l.depth, l.entry = listFlow, len(s.flows)+1, false
		default:
			l.state = listIdle
		}
	case listFlow:
		if len(s.flows) == l.depth && !l.entry {
			l.entry = true
			l.entered(i)
		}
	}
}

// comma notes a "," in the flow context.
func (l *topList) comma(s *scan) {
	if l.state == listFlow && len(s.flows) == l.depth {
		l.entry = false
	}
}

// closed notes a "]" or "}" closing the innermost flow collection.
func (l *topList) closed(s *scan) {
	if l.state == listFlow && len(s.flows) == l.depth {
		l.state = listIdle
	}
}

// block notes, in the block context after the scanner's unroll, a token
// or indicator c at col (offset i).
func (l *topList) block(s *scan, c byte, i, col int) {
	dash := c == '-' && blankz(s.data, i+1)
	if dash {
		l.pending = false // the entry before was empty
	}
	switch l.state {
	case listValue:
		switch {
		case !dash && (c == '?' || c == ':') && blankz(s.data, i+1):
			l.state = listIdle
			return
		case !dash:
			// A token: token() decides.
			return
		case len(s.indents) == 1 && col == s.indents[0].col:
			l.state, l.col, l.indentless = listBlock, col, true
		case len(s.indents) == 1 && col > s.indents[0].col:
			l.state, l.col, l.indentless = listBlock, col, false
		default:
			l.state = listIdle
			return
		}
		l.entered(i)
	case listBlock:
		// The sequence goes on while its level is on the stack; an
		// indentless one, while nothing but its "-" comes at its column.
		if l.indentless {
			switch {
			case len(s.indents) == 0 || col < l.col || col == l.col && !dash:
				l.state = listIdle
			case dash && col == l.col && len(s.indents) == 1:
				l.entered(i)
			}
			return
		}
		if len(s.indents) < 2 || !s.indents[1].seq || s.indents[1].col != l.col {
			l.state = listIdle
		} else if dash && len(s.indents) == 2 && col == l.col {
			l.entered(i)
		}
	}
}
