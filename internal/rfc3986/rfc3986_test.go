package rfc3986

import (
	"strings"
	"testing"
)

// Each class is checked against the sets RFC 3986 spells out, over every
// byte, so no character is misfiled.
func TestClasses(t *testing.T) {
	const (
		alpha      = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		digit      = "0123456789"
		unreserved = alpha + digit + "-._~"
		subDelims  = "!$&'()*+,;="
	)
	for i := 0; i < 256; i++ {
		c := byte(i)
		in := func(set string) bool { return strings.IndexByte(set, c) >= 0 }
		if got, want := IsUnreserved(c), in(unreserved); got != want {
			t.Errorf("IsUnreserved(%q) = %v", c, got)
		}
		if got, want := IsPchar(c), in(unreserved+subDelims+":@"); got != want {
			t.Errorf("IsPchar(%q) = %v", c, got)
		}
		if got, want := IsHex(c), in(digit+"abcdefABCDEF"); got != want {
			t.Errorf("IsHex(%q) = %v", c, got)
		}
	}
}

func TestEscapeRoundTrip(t *testing.T) {
	for i := 0; i < 256; i++ {
		var b strings.Builder
		WriteEscape(&b, byte(i))
		s := b.String()
		if len(s) != 3 || s[0] != '%' || strings.ToUpper(s) != s {
			t.Fatalf("WriteEscape(%d) = %q", i, s)
		}
		if got := Unhex(s[1])<<4 | Unhex(s[2]); got != byte(i) {
			t.Fatalf("%q decodes to %d, want %d", s, got, i)
		}
		if got := Unhex(strings.ToLower(s)[1])<<4 | Unhex(strings.ToLower(s)[2]); got != byte(i) {
			t.Fatalf("lower-case %q decodes to %d", s, got)
		}
	}
}

func TestWriteNormalEscape(t *testing.T) {
	for v, want := range map[byte]string{'~': "~", 'a': "a", '-': "-", '/': "%2F", ' ': "%20", 0xE9: "%E9", '*': "%2A"} {
		var b strings.Builder
		WriteNormalEscape(&b, v)
		if b.String() != want {
			t.Errorf("WriteNormalEscape(%q) = %q, want %q", v, b.String(), want)
		}
	}
}

// TestCanonical: escapes of unreserved characters decoded, others
// upper-cased, what a URI cannot hold escaped, a stray '%' as %25.
func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"/a%7eb":     "/a~b",
		"/a%2fb":     "/a%2Fb",
		"/caf\u00e9": "/caf%C3%A9",
		"/a b#c":     "/a%20b%23c",
		"/100%":      "/100%25",
		"/*$":        "/*$",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}
