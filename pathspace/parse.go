package pathspace

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/discgen/discgen/internal/rfc3986"
)

// Kind classifies why [Parse] refused a delegation path.
type Kind int

const (
	WholeSpace   Kind = iota + 1 // the path is empty: it would delegate the delegator's whole space
	DotDot                       // a ".." segment, possibly percent-encoded
	Dot                          // a "." segment, possibly percent-encoded
	EmptySegment                 // "a//b"
	Backslash                    // "\" or %5C
	Query                        // "?"
	Fragment                     // "#"
	Whitespace                   // a raw whitespace character
	Control                      // a control character, raw or percent-encoded
	EncodedSlash                 // %2F inside a segment
	BadEscape                    // "%" not followed by two hex digits
	BadUTF8                      // the path is not valid UTF-8
	TooDeep                      // more than MaxDepth segments, the delegator's included
)

// MaxDepth bounds the segments of a delegated space, counted from the
// site's root: deep enough for any site's directories, and shallow enough
// that a few kilobytes of "a/a/a/..." cannot cost quadratic time in every
// step that walks a space's directories.
const MaxDepth = 64

var kindNames = [...]string{
	WholeSpace:   "whole space",
	DotDot:       "dot-dot segment",
	Dot:          "dot segment",
	EmptySegment: "empty segment",
	Backslash:    "backslash",
	Query:        "query",
	Fragment:     "fragment",
	Whitespace:   "whitespace",
	Control:      "control character",
	EncodedSlash: "encoded slash",
	BadEscape:    "invalid escape",
	BadUTF8:      "invalid UTF-8",
	TooDeep:      "too deep",
}

func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Error is a delegation path that [Parse] refused. Its message names the path
// as written and reads after a manifest path, as in
//
//	delegations[1].path: "../x" leaves the delegator's space: ".." segment
type Error struct {
	Path    string // the path as written in the manifest
	Kind    Kind
	Written string // the offending text as written, when it is not self-evident ("%2e%2E", "%zz", "\t")
}

func (e *Error) Error() string {
	written := ""
	if e.Written != "" {
		written = fmt.Sprintf(" (written %q)", e.Written)
	}
	switch e.Kind {
	case WholeSpace:
		return fmt.Sprintf("%q delegates the delegator's whole space", e.Path)
	case DotDot:
		return fmt.Sprintf("%q leaves the delegator's space: \"..\" segment%s", e.Path, written)
	case Dot:
		return fmt.Sprintf("%q has a \".\" segment%s", e.Path, written)
	case EmptySegment:
		return fmt.Sprintf("%q has an empty segment", e.Path)
	case Backslash:
		return fmt.Sprintf("%q has a backslash%s", e.Path, written)
	case Query:
		return fmt.Sprintf("%q has a \"?\", which starts a query", e.Path)
	case Fragment:
		return fmt.Sprintf("%q has a \"#\", which starts a fragment", e.Path)
	case Whitespace:
		r, _ := utf8.DecodeRuneInString(e.Written)
		return fmt.Sprintf("%q has whitespace (%U)", e.Path, r)
	case Control:
		if strings.HasPrefix(e.Written, "%") {
			return fmt.Sprintf("%q has a control character%s", e.Path, written)
		}
		r, _ := utf8.DecodeRuneInString(e.Written)
		return fmt.Sprintf("%q has a control character (%U)", e.Path, r)
	case EncodedSlash:
		return fmt.Sprintf("%q has an encoded \"/\" inside a segment%s", e.Path, written)
	case BadEscape:
		return fmt.Sprintf("%q has an invalid percent escape %q", e.Path, e.Written)
	case BadUTF8:
		return fmt.Sprintf("%q is not valid UTF-8", e.Path)
	case TooDeep:
		return fmt.Sprintf("%q is more than %d segments deep (counted from the site's root)", e.Path, MaxDepth)
	}
	return fmt.Sprintf("%q is not a valid delegation path (%v)", e.Path, e.Kind)
}

// Parse reads a delegation path as written in a manifest or in
// subdirectories.txt (seed 000 section 4.2), relative to the delegator's
// space base: [Root] for a site's own manifest, or the space of the tenant or
// inline delegatee that writes it. A leading and a trailing slash are
// optional. An absolute URL path such as a tenant manifest's "path: /~alice/"
// is parsed with base [Root].
//
// Every refusal is an [*Error]. The first problem from the left is reported.
func Parse(base Space, raw string) (Space, error) {
	if !utf8.ValidString(raw) {
		return Space{}, &Error{Path: raw, Kind: BadUTF8}
	}
	if raw == "" || raw == "/" {
		return Space{}, &Error{Path: raw, Kind: WholeSpace}
	}
	rel := strings.TrimPrefix(raw, "/")
	rel = strings.TrimSuffix(rel, "/")
	var b strings.Builder
	b.Grow(len(base.String()) + len(rel) + 2)
	b.WriteString(base.String())
	depth := base.Depth()
	for seg := range strings.SplitSeq(rel, "/") {
		if seg == "" {
			return Space{}, &Error{Path: raw, Kind: EmptySegment}
		}
		if depth++; depth > MaxDepth {
			return Space{}, &Error{Path: raw, Kind: TooDeep}
		}
		if err := appendPatternSegment(&b, seg); err != nil {
			err.Path = raw
			return Space{}, err
		}
		b.WriteByte('/')
	}
	return Space{s: b.String()}, nil
}

// appendPatternSegment writes the canonical form of one segment of a
// delegation path, or says what is wrong with it.
func appendPatternSegment(b *strings.Builder, seg string) *Error {
	start := b.Len()
	for i := 0; i < len(seg); {
		c := seg[i]
		switch {
		case c == '%':
			if i+2 >= len(seg) || !rfc3986.IsHex(seg[i+1]) || !rfc3986.IsHex(seg[i+2]) {
				end := min(i+3, len(seg))
				return &Error{Kind: BadEscape, Written: seg[i:end]}
			}
			v := rfc3986.Unhex(seg[i+1])<<4 | rfc3986.Unhex(seg[i+2])
			esc := seg[i : i+3]
			switch {
			case v == '/':
				return &Error{Kind: EncodedSlash, Written: esc}
			case v == '\\':
				return &Error{Kind: Backslash, Written: esc}
			case v < 0x20 || v == 0x7f:
				return &Error{Kind: Control, Written: esc}
			}
			rfc3986.WriteNormalEscape(b, v)
			i += 3
		case c == '*':
			if b.Len() == start || b.String()[b.Len()-1] != '*' {
				b.WriteByte('*')
			}
			i++
		case c == '\\':
			return &Error{Kind: Backslash}
		case c == '?':
			return &Error{Kind: Query}
		case c == '#':
			return &Error{Kind: Fragment}
		case c == ' ' || c >= '\t' && c <= '\r':
			return &Error{Kind: Whitespace, Written: seg[i : i+1]}
		case c < 0x20 || c == 0x7f:
			return &Error{Kind: Control, Written: seg[i : i+1]}
		case c < utf8.RuneSelf:
			writeChar(b, c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(seg[i:])
			switch {
			case unicode.IsSpace(r):
				return &Error{Kind: Whitespace, Written: seg[i : i+n]}
			case unicode.IsControl(r):
				return &Error{Kind: Control, Written: seg[i : i+n]}
			}
			for j := i; j < i+n; j++ {
				rfc3986.WriteEscape(b, seg[j])
			}
			i += n
		}
	}
	switch b.String()[start:] {
	case ".":
		if seg != "." {
			return &Error{Kind: Dot, Written: seg}
		}
		return &Error{Kind: Dot}
	case "..":
		if seg != ".." {
			return &Error{Kind: DotDot, Written: seg}
		}
		return &Error{Kind: DotDot}
	}
	return nil
}

// writeChar writes the canonical form of the literal character c: raw when
// it may appear raw in a path segment and is not the wildcard, escaped
// otherwise.
func writeChar(b *strings.Builder, c byte) {
	if rawOK(c) {
		b.WriteByte(c)
		return
	}
	rfc3986.WriteEscape(b, c)
}

// rawOK reports whether c stands for itself in a canonical segment: the
// RFC 3986 pchar characters other than "%", less "*", which is the wildcard.
func rawOK(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()+,;=:@", c) >= 0
}

// canonicalURLPath returns the canonical form of a URL path for matching: a
// query or fragment is cut off, characters are written as in a canonical
// segment (a raw "*" becomes %2A, a stray "%" becomes %25), and "." and ".."
// segments are removed as in RFC 3986 section 5.2.4. It reports false for a
// path that does not start with "/".
func canonicalURLPath(p string) (string, bool) {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '/':
			b.WriteByte('/')
			i++
		case c == '%' && i+2 < len(p) && rfc3986.IsHex(p[i+1]) && rfc3986.IsHex(p[i+2]):
			v := rfc3986.Unhex(p[i+1])<<4 | rfc3986.Unhex(p[i+2])
			rfc3986.WriteNormalEscape(&b, v)
			i += 3
		default:
			writeChar(&b, c)
			i++
		}
	}
	return removeDotSegments(b.String()), true
}

// removeDotSegments applies RFC 3986 section 5.2.4 to an absolute path.
func removeDotSegments(p string) string {
	if !strings.Contains(p, "/.") {
		return p
	}
	segs := strings.Split(p[1:], "/")
	out := segs[:0]
	for i, seg := range segs {
		last := i == len(segs)-1
		switch seg {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, seg)
			continue
		}
		if last {
			out = append(out, "")
		}
	}
	return "/" + strings.Join(out, "/")
}
