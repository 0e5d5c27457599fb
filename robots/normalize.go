package robots

import (
	"strings"

	"github.com/discgen/discgen/internal/rfc3986"
)

// isProductTokenChar reports whether c may appear in an RFC 9309 product
// token ([A-Za-z_-]).
func isProductTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

// ProductToken returns the leading run of s made of [A-Za-z_-]: the part of a
// User-agent value or a crawler's user-agent string that RFC 9309 matching
// uses ("FigTree/0.1 Robot" gives "FigTree"), as google/robotstxt does.
func ProductToken(s string) string { return leadingRun(s, isProductTokenChar) }

// leadingRun returns the longest prefix of s whose bytes all satisfy in.
func leadingRun(s string, in func(byte) bool) string {
	i := 0
	for i < len(s) && in(s[i]) {
		i++
	}
	return s[:i]
}

// IsProductToken reports whether s is a non-empty RFC 9309 product token.
func IsProductToken(s string) bool {
	return s != "" && ProductToken(s) == s
}

// escapePattern is the normalisation google/robotstxt applies to Allow and
// Disallow values: octets with the high bit set are percent-encoded and the
// hex digits of existing escapes are upper-cased. Nothing is decoded.
func escapePattern(s string) string {
	need := false
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '%' && i+2 < len(s) && rfc3986.IsHex(s[i+1]) && rfc3986.IsHex(s[i+2]) &&
			(s[i+1] >= 'a' || s[i+2] >= 'a') {
			need = true
			break
		}
	}
	if !need {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && rfc3986.IsHex(s[i+1]) && rfc3986.IsHex(s[i+2]):
			b.WriteByte('%')
			b.WriteByte(rfc3986.UpperHex[rfc3986.Unhex(s[i+1])])
			b.WriteByte(rfc3986.UpperHex[rfc3986.Unhex(s[i+2])])
			i += 2
		case c >= 0x80:
			rfc3986.WriteEscape(&b, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// decode1996 is the comparison form of the 1996 draft (seed 001, 3.2.2):
// every %xx escape is decoded except %2F, which is kept (upper-cased)
// because "/" has special meaning in a path.
func decode1996(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && rfc3986.IsHex(s[i+1]) && rfc3986.IsHex(s[i+2]) {
			v := rfc3986.Unhex(s[i+1])<<4 | rfc3986.Unhex(s[i+2])
			if v == '/' {
				b.WriteString("%2F")
			} else {
				b.WriteByte(v)
			}
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Canonical returns the canonical form of a URL path or rule path, the form
// Emit writes and the form in which a Policy is evaluated (RFC 9309 section
// 2.2.2): rfc3986.Canonical, which leaves the wildcards '*' and '$' alone.
func Canonical(s string) string { return rfc3986.Canonical(s) }

// PathOf returns the part of a URL that robots.txt rules are matched
// against: path, params and query, without scheme, authority and fragment,
// always starting with "/". It follows GetPathParamsQuery in
// google/robotstxt (robots.cc), including its answers for odd inputs: "" and
// "a" give "/", "a/b" gives "/b", "//a/b/c" gives "/b/c".
func PathOf(url string) string {
	start := 0
	if strings.HasPrefix(url, "//") {
		start = 2
	}
	early := indexAnyFrom(url, "/?;", start)
	proto := strings.Index(url[start:], "://")
	if proto >= 0 {
		proto += start
	}
	if early >= 0 && (proto < 0 || early < proto) {
		proto = -1
	}
	if proto < 0 {
		proto = start
	} else {
		proto += 3
	}
	ps := indexAnyFrom(url, "/?;", proto)
	if ps < 0 {
		return "/"
	}
	end := len(url)
	if h := strings.IndexByte(url[start:], '#'); h >= 0 {
		h += start
		if h < ps {
			return "/"
		}
		end = h
	}
	if url[ps] != '/' {
		return "/" + url[ps:end]
	}
	return url[ps:end]
}

func indexAnyFrom(s, chars string, from int) int {
	if from > len(s) {
		return -1
	}
	i := strings.IndexAny(s[from:], chars)
	if i < 0 {
		return -1
	}
	return i + from
}

// isRobotsTxt reports whether a path (as PathOf returns it) names /robots.txt,
// which RFC 9309 (section 2.2.2) and the 1996 draft both always allow.
func isRobotsTxt(path string) bool {
	if i := strings.IndexAny(path, "?;"); i >= 0 {
		path = path[:i]
	}
	return path == "/robots.txt"
}
