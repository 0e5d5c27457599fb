// Package rfc3986 holds the character classes of RFC 3986 that robots.txt
// paths, delegation paths and well-known names are all written in, and the
// one way discgen writes a percent escape; Canonical, the form a URI
// component is written and compared in.
package rfc3986

import "strings"

// UpperHex is the digit set of a canonical escape (RFC 3986 section 2.1:
// upper-case hex digits).
const UpperHex = "0123456789ABCDEF"

// IsHex reports whether c is a hex digit.
func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Unhex is the value of the hex digit c.
func Unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// IsUnreserved reports whether c is unreserved (section 2.3): its escape
// means the same as c and is decoded in normal form (section 6.2.2.2).
func IsUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// IsPchar reports whether c is a pchar other than a percent escape:
// unreserved / sub-delims / ":" / "@" (section 3.3).
func IsPchar(c byte) bool {
	return IsUnreserved(c) || strings.IndexByte("!$&'()*+,;=:@", c) >= 0
}

// WriteEscape writes c as a canonical escape, %XX.
func WriteEscape(b *strings.Builder, c byte) {
	b.WriteByte('%')
	b.WriteByte(UpperHex[c>>4])
	b.WriteByte(UpperHex[c&15])
}

// WriteNormalEscape writes the octet v of an escape in normal form
// (section 6.2.2.2): decoded when it is unreserved, else as %XX.
func WriteNormalEscape(b *strings.Builder, v byte) {
	if IsUnreserved(v) {
		b.WriteByte(v)
		return
	}
	WriteEscape(b, v)
}

// needsEscape reports whether a raw octet must be percent-encoded in a
// canonical URI component: controls, space, non-ASCII, and the ASCII
// characters RFC 3986 allows nowhere in a URI.
func needsEscape(c byte) bool {
	if c <= ' ' || c >= 0x7f {
		return true
	}
	return strings.IndexByte("\"<>\\^`{|}#", c) >= 0
}

// Canonical returns the canonical form of a URI path, query or fragment
// (RFC 3986 section 6.2.2, as robots.txt rules are compared, RFC 9309
// section 2.2.2): escapes of unreserved characters are decoded (%7E
// becomes ~), other escapes are upper-cased (%2f becomes %2F, which stays
// encoded), non-ASCII octets and characters not allowed in a URI are
// percent-encoded, and a '%' that starts no escape becomes %25.
func Canonical(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && IsHex(s[i+1]) && IsHex(s[i+2]):
			WriteNormalEscape(&b, Unhex(s[i+1])<<4|Unhex(s[i+2]))
			i += 2
		case c == '%' || needsEscape(c):
			WriteEscape(&b, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
