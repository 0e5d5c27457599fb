package rfc8615

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/internal/rfc3986"
)

// MaxNameLen is the longest segment CheckName accepts, in bytes. Each
// segment becomes one file or directory name in the output tree, and
// common file systems stop at 255 bytes.
const MaxNameLen = 255

// MaxPathLen is the longest whole name CheckName accepts, in bytes.
const MaxPathLen = 1024

// CheckName reports whether name may follow "/.well-known/". RFC 8615
// section 3 registers names of one segment but lets a well-known URI have
// more ("/.well-known/matrix/server", "acme-challenge/TOKEN",
// "openpgpkey/hu/HASH"), so a name is one or more RFC 3986 segment-nz
// joined by "/": each segment one or more pchar (unreserved characters,
// percent escapes, sub-delims, ":" and "@"). On top of that grammar
// CheckName refuses:
//
//   - empty segments ("a//b", a leading or trailing "/");
//   - the dot segments "." and ".." (also when spelled with %2E), which
//     resolve away instead of naming a resource;
//   - the escape %2F inside a segment: servers treat it as a separator or
//     refuse the request, so it names no file reliably;
//   - escapes of control characters (%00-%1F, %7F);
//   - segments longer than MaxNameLen bytes, names longer than MaxPathLen.
//
// The error message quotes the name; it has no trailing period.
func CheckName(name string) error {
	if name == "" {
		return errors.New("name is empty")
	}
	if len(name) > MaxPathLen {
		return fmt.Errorf("name is longer than %d bytes", MaxPathLen)
	}
	segs := strings.Split(name, "/")
	for i, seg := range segs {
		if err := checkSegment(name, seg); err != nil {
			switch {
			case len(segs) > 1 && len(seg) > MaxNameLen:
				return fmt.Errorf("segment %d: %v", i+1, err)
			case len(segs) > 1 && seg != "":
				return fmt.Errorf("%q: segment %d: %v", name, i+1, err)
			}
			return err
		}
	}
	return nil
}

// checkSegment checks one segment of name.
func checkSegment(name, seg string) error {
	switch {
	case seg == "" && name == "/":
		return fmt.Errorf("%q has no segment: give a name after /.well-known/", name)
	case seg == "":
		return fmt.Errorf("%q has an empty segment: no leading, trailing or doubled \"/\"", name)
	case len(seg) > MaxNameLen:
		if seg == name {
			return fmt.Errorf("name is longer than %d bytes", MaxNameLen)
		}
		return fmt.Errorf("%q is longer than %d bytes", seg[:20]+"...", MaxNameLen)
	}
	for i := 0; i < len(seg); {
		c := seg[i]
		switch {
		case c == '%':
			if i+2 >= len(seg) || !rfc3986.IsHex(seg[i+1]) || !rfc3986.IsHex(seg[i+2]) {
				return fmt.Errorf("%q has an invalid percent escape at byte %d", seg, i)
			}
			b := rfc3986.Unhex(seg[i+1])<<4 | rfc3986.Unhex(seg[i+2])
			switch {
			case b == '/':
				return fmt.Errorf("%q encodes \"/\" as %s: write segments separated by a plain \"/\"", seg, seg[i:i+3])
			case b < 0x20 || b == 0x7f:
				return fmt.Errorf("%q encodes a control character as %s", seg, seg[i:i+3])
			}
			i += 3
		case rfc3986.IsPchar(c):
			i++
		default:
			r, _ := utf8.DecodeRuneInString(seg[i:])
			bad := string(r)
			if r == utf8.RuneError {
				bad = seg[i : i+1]
			}
			return fmt.Errorf("%q contains %q, which RFC 3986 does not allow in a path segment; percent-encode it", seg, bad)
		}
	}
	if n := normalizeName(seg); n == "." || n == ".." {
		return fmt.Errorf("%q is a dot segment, not a name", seg)
	}
	return nil
}

// FirstSegment returns the first segment of a name: the part the IANA
// registry registers ("matrix" of "matrix/server").
func FirstSegment(name string) string {
	first, _, _ := strings.Cut(name, "/")
	return first
}

// FileName returns the tree path, below .well-known/, of the file that
// serves name: each segment's percent escapes decoded, as a web server
// decodes a request path before mapping it to a file ("caf%C3%A9" is
// served from the file "café", "matrix/server" from the directory matrix).
// It returns CheckName's error for an invalid name. No segment of the
// result is empty, "." or "..", or holds "/" or a control character.
func FileName(name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	segs := strings.Split(name, "/")
	for i, seg := range segs {
		d, err := url.PathUnescape(seg)
		if err != nil {
			return "", err
		}
		segs[i] = d
	}
	return strings.Join(segs, "/"), nil
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
