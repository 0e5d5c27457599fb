package kit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxJSONDepth bounds the nesting of a JSON document that is checked
// against a schema, as encoding/json bounds its own.
const MaxJSONDepth = 10000

// JSONPositions maps the JSON Pointer (RFC 6901) of every value of a
// JSON text to the byte offset where the value starts, so that an error
// about a value can be put at its line and column.
type JSONPositions struct {
	data       []byte
	offsets    map[string]int
	lineStarts []int
}

// JSONSyntaxError is a JSON text that does not parse, at an offset.
type JSONSyntaxError struct {
	Offset int
	Msg    string
}

func (e *JSONSyntaxError) Error() string { return e.Msg }

// PositionsOf reads data, which must be one JSON value and nothing more,
// and records where each value starts.
func PositionsOf(data []byte) (*JSONPositions, error) {
	p := &JSONPositions{data: data, offsets: map[string]int{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := p.value(dec, "", 0); err != nil {
		return nil, err
	}
	if rest := bytes.TrimLeft(p.data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return nil, &JSONSyntaxError{len(p.data) - len(rest), "more than one JSON value, or text after it"}
	}
	p.lineStarts = []int{0}
	for i, b := range data {
		if b == '\n' {
			p.lineStarts = append(p.lineStarts, i+1)
		}
	}
	return p, nil
}

// next returns the offset of the next token: past white space, and past
// the ':' or ',' that separates it from the last.
func (p *JSONPositions) next(dec *json.Decoder) int {
	i := int(dec.InputOffset())
	for i < len(p.data) && strings.IndexByte(" \t\r\n:,", p.data[i]) >= 0 {
		i++
	}
	return i
}

func (p *JSONPositions) token(dec *json.Decoder) (json.Token, int, error) {
	at := p.next(dec)
	t, err := dec.Token()
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, int(se.Offset), &JSONSyntaxError{int(se.Offset), se.Error()}
		}
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, len(p.data), &JSONSyntaxError{len(p.data), "unexpected end of JSON input"}
		}
		return nil, at, &JSONSyntaxError{at, err.Error()}
	}
	return t, at, nil
}

func (p *JSONPositions) value(dec *json.Decoder, ptr string, depth int) error {
	if depth > MaxJSONDepth {
		return &JSONSyntaxError{p.next(dec), fmt.Sprintf("nested more than %d levels deep", MaxJSONDepth)}
	}
	t, at, err := p.token(dec)
	if err != nil {
		return err
	}
	p.offsets[ptr] = at
	switch t {
	case json.Delim('{'):
		for dec.More() {
			k, _, err := p.token(dec)
			if err != nil {
				return err
			}
			key, _ := k.(string)
			if err := p.value(dec, ptr+"/"+EscapePointer(key), depth+1); err != nil {
				return err
			}
		}
		_, _, err = p.token(dec)
		return err
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := p.value(dec, ptr+"/"+strconv.Itoa(i), depth+1); err != nil {
				return err
			}
		}
		_, _, err = p.token(dec)
		return err
	}
	return nil
}

// EscapePointer escapes a key as a JSON Pointer token (RFC 6901 section 3).
func EscapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// LineCol returns the 1-based line and column (in characters) of offset.
func (p *JSONPositions) LineCol(off int) (int, int) {
	if p == nil || p.lineStarts == nil {
		return 1, 1
	}
	l := sort.Search(len(p.lineStarts), func(i int) bool { return p.lineStarts[i] > off }) - 1
	return l + 1, utf8.RuneCount(p.data[p.lineStarts[l]:min(off, len(p.data))]) + 1
}

// OffsetOf returns the offset of the value at ptr, or of its nearest
// ancestor that was recorded.
func (p *JSONPositions) OffsetOf(ptr string) int {
	for {
		if off, ok := p.offsets[ptr]; ok {
			return off
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return 0
		}
		ptr = ptr[:i]
	}
}
