package serverconf

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/discgen/discgen/internal/rfc3986"
	"github.com/discgen/discgen/tree"
)

// PathError reports a tree path that a format cannot carry safely.
type PathError struct {
	Kind   Kind   // the format
	Path   string // the tree path
	Reason string // why, without the path
}

func (e *PathError) Error() string {
	return fmt.Sprintf("%s: cannot write %q: %s", e.Kind, e.Path, e.Reason)
}

// asciiSafe holds the ASCII characters, besides letters, digits and "/",
// that no format gives a meaning of its own inside a path: the RFC 3986
// unreserved characters, ":" and "@", and the sub-delims other than "'",
// "$", "*" and ";".
const asciiSafe = "-._~!&()+,=@:"

// checkPath reports whether tree path p can be written, unquoted, in the
// configuration of kind k. See the package documentation for the rules.
func checkPath(k Kind, p string) error {
	bad := func(format string, args ...any) error {
		return &PathError{Kind: k, Path: p, Reason: fmt.Sprintf(format, args...)}
	}
	if err := tree.CheckPath(p); err != nil {
		return bad("not a clean relative path")
	}
	if !utf8.ValidString(p) {
		return bad("not valid UTF-8")
	}
	for _, r := range p {
		switch {
		case r == '/':
		case r < utf8.RuneSelf:
			if !isAlnum(byte(r)) && !strings.ContainsRune(asciiSafe, r) {
				return bad("%q is not among the characters every format reads literally", r)
			}
			if r == ':' && k == Headers {
				return bad("\":\" starts a placeholder in _headers paths")
			}
		case !unicode.IsGraphic(r) || unicode.IsSpace(r):
			return bad("%U is a space, control or invisible character", r)
		}
	}
	return nil
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// urlPath returns the decoded URL path of tree path p: what Apache's
// REQUEST_URI, nginx's $uri and Caddy's path matcher compare against.
func urlPath(p string) string { return "/" + p }

// escapedPath returns the URL path of tree path p as a browser sends it:
// bytes outside ASCII percent-encoded with upper-case hex digits. checkPath
// has already refused every ASCII character that the WHATWG URL path
// percent-encode set would encode.
func escapedPath(p string) string {
	var b strings.Builder
	b.WriteByte('/')
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			continue
		}
		rfc3986.WriteEscape(&b, c)
	}
	return b.String()
}
