package wellknown

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/internal/rfc3986"
)

// MaxNameLen is the longest name CheckName accepts, in bytes. Each name
// becomes one file name in the output tree, and common file systems stop at
// 255 bytes.
const MaxNameLen = 255

// CheckName reports whether name may follow "/.well-known/" as one path
// segment. RFC 8615 section 3 asks for an RFC 3986 segment-nz: one or more
// pchar, that is unreserved characters, percent escapes, sub-delims, ":" and
// "@". On top of that grammar CheckName refuses:
//
//   - the dot segments "." and ".." (also when spelled with %2E), which
//     resolve away instead of naming a resource;
//   - "/" and its escape %2F: a name is a single segment, and servers treat
//     %2F as a separator or refuse the request;
//   - escapes of control characters (%00-%1F, %7F);
//   - names longer than MaxNameLen bytes.
//
// The error message quotes the name; it has no trailing period.
func CheckName(name string) error {
	if name == "" {
		return errors.New("name is empty")
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("name is longer than %d bytes", MaxNameLen)
	}
	for i := 0; i < len(name); {
		c := name[i]
		switch {
		case c == '/':
			return fmt.Errorf("%q contains \"/\": a well-known name is a single path segment", name)
		case c == '%':
			if i+2 >= len(name) || !rfc3986.IsHex(name[i+1]) || !rfc3986.IsHex(name[i+2]) {
				return fmt.Errorf("%q has an invalid percent escape at byte %d", name, i)
			}
			b := rfc3986.Unhex(name[i+1])<<4 | rfc3986.Unhex(name[i+2])
			switch {
			case b == '/':
				return fmt.Errorf("%q encodes \"/\" as %s: a well-known name is a single path segment", name, name[i:i+3])
			case b < 0x20 || b == 0x7f:
				return fmt.Errorf("%q encodes a control character as %s", name, name[i:i+3])
			}
			i += 3
		case rfc3986.IsPchar(c):
			i++
		default:
			r, _ := utf8.DecodeRuneInString(name[i:])
			bad := string(r)
			if r == utf8.RuneError {
				bad = name[i : i+1]
			}
			return fmt.Errorf("%q contains %q, which RFC 3986 does not allow in a path segment; percent-encode it", name, bad)
		}
	}
	if n := normalizeName(name); n == "." || n == ".." {
		return fmt.Errorf("%q is a dot segment, not a name", name)
	}
	return nil
}

// FileName returns the name of the file that serves name: its percent
// escapes decoded, as a web server decodes a request path before mapping it
// to a file ("caf%C3%A9" is served from the file "café"). It returns
// CheckName's error for an invalid name. The result is never empty, ".",
// ".." and never holds "/" or a control character.
func FileName(name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	return url.PathUnescape(name)
}

// normalizeName applies the percent-encoding normalizations of RFC 3986
// section 6.2.2: escapes of unreserved characters are decoded and the hex
// digits of the remaining escapes are upper-cased. Invalid escapes are left
// as they are.
func normalizeName(name string) string {
	if strings.IndexByte(name, '%') < 0 {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '%' && i+2 < len(name) && rfc3986.IsHex(name[i+1]) && rfc3986.IsHex(name[i+2]) {
			d := rfc3986.Unhex(name[i+1])<<4 | rfc3986.Unhex(name[i+2])
			rfc3986.WriteNormalEscape(&b, d)
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
