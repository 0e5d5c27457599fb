package manifest

import (
	"bytes"
	"unicode/utf8"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/lazyre"
	"go.yaml.in/yaml/v3"
)

// A literal block scalar (details: |) keeps its lines as the source has
// them, one for one, each behind the same indentation: the position of any
// character of its value can be told. blocks records, for each value that
// is one, where its first content line starts.

// explicitIndent matches a block scalar header with an indentation
// indicator, such as "|2", "|-2" or "|2+", with an optional comment.
var explicitIndent = lazyre.New(`\|[+-]?[1-9][+-]?[ \t]*(?:#.*)?$`)

// noteBlock records where the content of n, the value of e, starts when n
// is a literal block scalar whose lines map one for one to the source.
func (c *converter) noteBlock(n *yaml.Node, e *entry) {
	if n.Style&yaml.LiteralStyle == 0 || c.data == nil {
		return
	}
	if c.lineStarts == nil {
		c.lineStarts = []int{0}
		for i, b := range c.data {
			if b == '\n' {
				c.lineStarts = append(c.lineStarts, i+1)
			}
		}
	}
	// An explicit indentation indicator (|2) counts from the parent's
	// indentation, which the node does not tell: no exact positions then.
	if n.Line < 1 || n.Line > len(c.lineStarts) || explicitIndent.Match(c.line(n.Line)) {
		return
	}
	// The content starts on the line after the indicator; its
	// indentation is that of its first line that is not blank.
	first := n.Line + 1
	indent := -1
	for l := first; l <= len(c.lineStarts) && indent < 0; l++ {
		line := c.line(l)
		if t := bytes.TrimLeft(line, " "); len(bytes.TrimSpace(t)) > 0 {
			indent = len(line) - len(t)
		}
	}
	if indent < 0 {
		return
	}
	if c.pos.blocks == nil {
		c.pos.blocks = map[*entry]lineCol{}
	}
	c.pos.blocks[e] = at(first, indent+1)
}

// line returns source line l (1-based) without its line break.
func (c *converter) line(l int) []byte {
	start := c.lineStarts[l-1]
	end := len(c.data)
	if l < len(c.lineStarts) {
		end = c.lineStarts[l]
	}
	return bytes.TrimRight(c.data[start:end], "\r\n")
}

// InValue returns the position of the character at byte offset off of
// the string value at path: exact in a literal block scalar, whose lines
// are the source's; the value's own position otherwise.
func (p *Positions) InValue(path, value string, off int) diag.Pos {
	e := p.entryAt(path)
	start, ok := p.blocks[e]
	if e == nil || !ok || off < 0 || off > len(value) {
		return p.Of(path)
	}
	before := value[:off]
	line := bytes.Count([]byte(before), []byte("\n"))
	lineStart := bytes.LastIndexByte([]byte(before), '\n') + 1
	col := utf8.RuneCountInString(before[lineStart:])
	return diag.Pos{File: p.File, Line: int(start.line) + line, Col: int(start.col) + col}
}

// entryAt returns the entry of the whole path, or nil.
func (p *Positions) entryAt(path string) *entry {
	_, _, whole, e := p.locate(path)
	if !whole {
		return nil
	}
	return e
}
