package validate

import (
	"fmt"
	"strings"
	"testing"
)

// TestInvisibleCharactersByKind walks every code point design section 6
// names, and its neighbours, through each kind of value: bidirectional
// controls, U+FEFF and tag characters are refused in every one-line value,
// zero-width characters in strict values only, and a file body keeps all.
func TestInvisibleCharactersByKind(t *testing.T) {
	type span struct{ lo, hi rune }
	everywhere := []span{{0x202a, 0x202e}, {0x2066, 0x2069}, {0xfeff, 0xfeff}, {0xe0000, 0xe007f}}
	strictOnly := []span{{0x200b, 0x200f}}
	neighbours := []rune{0x200a, 0x2010, 0x202f, 0x2065, 0x206a, 0xfefe, 0xff00, 0xdffff, 0xe0080}
	check := func(r rune, kind textKind, refused bool) {
		t.Helper()
		msg := unsafeText(fmt.Sprintf("a%cb", r), kind)
		if (msg != "") != refused {
			t.Errorf("%U in kind %d: message %q, refused want %v", r, kind, msg, refused)
		}
		if refused && !strings.Contains(msg, fmt.Sprintf("%U", r)) {
			t.Errorf("%U: message %q does not name the character", r, msg)
		}
	}
	for _, s := range everywhere {
		for r := s.lo; r <= s.hi; r++ {
			check(r, textStrict, true)
			check(r, textFree, true)
			check(r, textBody, false)
		}
	}
	for _, s := range strictOnly {
		for r := s.lo; r <= s.hi; r++ {
			check(r, textStrict, true)
			check(r, textFree, false)
			check(r, textBody, false)
		}
	}
	for _, r := range neighbours {
		check(r, textStrict, false)
		check(r, textFree, false)
	}
}

// TestFreeTextPaths: only prose values allow zero-width characters.
func TestFreeTextPaths(t *testing.T) {
	for path, free := range map[string]bool{
		"site.description":                         true,
		"delegations[1].inline.description":        true,
		"description":                              true,
		"datasets[0].title":                        true,
		"datasets[0].description":                  true,
		`files["x-contact.txt"]`:                   true,
		`files["x-contact.txt"][2]`:                true,
		`delegations[0].inline.files["x-a.txt"]`:   true,
		"environments.staging.site.description":    true,
		"datasets[0].name":                         false,
		"datasets[0].path":                         false,
		"sitemaps[0]":                              false,
		"agents[0].extensions[0].value":            false,
		"well_known.files[0].name":                 false,
		"well_known.security_txt.contact[0]":       false,
		"site.url":                                 false,
		"icons[0]":                                 false,
		`delegations[0].inline.files["x-a.txt"].x`: false,
	} {
		if got := freeTextPath.MatchString(path); got != free {
			t.Errorf("%s: free text %v, want %v", path, got, free)
		}
	}
}
