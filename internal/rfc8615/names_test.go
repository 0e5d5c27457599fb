package rfc8615

import (
	"net/url"
	"strings"
	"testing"
)

func TestCheckNameAccepts(t *testing.T) {
	for _, name := range []string{
		"security.txt",
		"gpc.json",
		"nodeinfo",
		"a",
		"x-custom_name~1",
		"!$&'()*+,;=:@",
		"caf%C3%A9",
		"caf%c3%a9",
		"%2e%2e%2e", // "...": three dots are a name, not a dot segment
		"..a",
		strings.Repeat("a", MaxNameLen),
		"matrix/server",
		"matrix/client",
		"openpgpkey/hu/iy9q119eutrkn8s1mk4r39qejnbu3n5q",
		"openpgpkey/example.org/hu/iy9q119eutrkn8s1mk4r39qejnbu3n5q",
		"acme-challenge/LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0",
		"pki-validation/fileauth.txt",
		"a/b/caf%C3%A9/...",
	} {
		if err := CheckName(name); err != nil {
			t.Errorf("CheckName(%q) = %v, want nil", name, err)
		}
	}
}

func TestCheckNameRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, want string
	}{
		{"", "name is empty"},
		{strings.Repeat("a", MaxNameLen+1), "name is longer than 255 bytes"},
		{".", `"." is a dot segment, not a name`},
		{"..", `".." is a dot segment, not a name`},
		{"%2E", `"%2E" is a dot segment, not a name`},
		{".%2e", `".%2e" is a dot segment, not a name`},
		{"/", `"/" has no segment: give a name after /.well-known/`},
		{"/a", `"/a" has an empty segment: no leading, trailing or doubled "/"`},
		{"a/", `"a/" has an empty segment: no leading, trailing or doubled "/"`},
		{"a//b", `"a//b" has an empty segment: no leading, trailing or doubled "/"`},
		{"matrix/.", `"matrix/.": segment 2: "." is a dot segment, not a name`},
		{"a/../b", `"a/../b": segment 2: ".." is a dot segment, not a name`},
		{"acme-challenge/%2e%2E", `"acme-challenge/%2e%2E": segment 2: "%2e%2E" is a dot segment, not a name`},
		{"a/b c", `"a/b c": segment 2: "b c" contains " ", which RFC 3986 does not allow in a path segment; percent-encode it`},
		{"a/" + strings.Repeat("b", MaxNameLen+1), `segment 2: "bbbbbbbbbbbbbbbbbbbb..." is longer than 255 bytes`},
		{strings.Repeat("a/", MaxPathLen/2+1), "name is longer than 1024 bytes"},
		{"a%2Fb", `"a%2Fb" encodes "/" as %2F: write segments separated by a plain "/"`},
		{"a%2fb", `"a%2fb" encodes "/" as %2f: write segments separated by a plain "/"`},
		{"a%0Ab", `"a%0Ab" encodes a control character as %0A`},
		{"a%7f", `"a%7f" encodes a control character as %7f`},
		{"a%", `"a%" has an invalid percent escape at byte 1`},
		{"a%2", `"a%2" has an invalid percent escape at byte 1`},
		{"%zz", `"%zz" has an invalid percent escape at byte 0`},
		{"a b", `"a b" contains " ", which RFC 3986 does not allow in a path segment; percent-encode it`},
		{"a?b", `"a?b" contains "?", which RFC 3986 does not allow in a path segment; percent-encode it`},
		{"a#b", `"a#b" contains "#", which RFC 3986 does not allow in a path segment; percent-encode it`},
		{"a\nb", `"a\nb" contains "\n", which RFC 3986 does not allow in a path segment; percent-encode it`},
		{`a\b`, `"a\\b" contains "\\", which RFC 3986 does not allow in a path segment; percent-encode it`},
		{"café", `"café" contains "é", which RFC 3986 does not allow in a path segment; percent-encode it`},
		{"a\xffb", `"a\xffb" contains "\xff", which RFC 3986 does not allow in a path segment; percent-encode it`},
	} {
		err := CheckName(tc.name)
		if err == nil {
			t.Errorf("CheckName(%q) = nil, want %q", tc.name, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("CheckName(%q)\n got %q\nwant %q", tc.name, err.Error(), tc.want)
		}
	}
}

func TestFileName(t *testing.T) {
	for name, want := range map[string]string{
		"security.txt":   "security.txt",
		"caf%C3%A9":      "café",
		"a%20b":          "a b",
		"a%3Fb":          "a?b",
		"%2E%2E%2E":      "...",
		"a+b":            "a+b", // "+" is a space only in query strings
		"security%2etxt": "security.txt",
		"matrix/server":  "matrix/server",
		"a/caf%C3%A9":    "a/café",
	} {
		got, err := FileName(name)
		if err != nil || got != want {
			t.Errorf("FileName(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"", "..", "%2E", "a%2Fb", "a//b", "a/..", "a%00", "a%zz"} {
		if got, err := FileName(name); err == nil {
			t.Errorf("FileName(%q) = %q, want an error", name, got)
		}
	}
}

func TestNormalizeName(t *testing.T) {
	for in, want := range map[string]string{
		"security.txt":     "security.txt",
		"security%2Etxt":   "security.txt",
		"%73ecurity%2etxt": "security.txt",
		"a%2fb":            "a%2Fb",
		"caf%c3%a9":        "caf%C3%A9",
		"a%zz":             "a%zz",
		"a%":               "a%",
	} {
		if got := normalizeName(in); got != want {
			t.Errorf("normalizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzCheckName: an accepted name is as many non-empty, non-dot segments
// as it has "/" plus one once a URL parser decodes it under /.well-known/.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"security.txt", "a%2Fb", "%2E%2E", "a b", "%", "caf%C3%A9", "...", "matrix/server", "a//b", "a/%2e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if CheckName(name) != nil {
			return
		}
		u, err := url.Parse("https://example.org/.well-known/" + name)
		if err != nil {
			t.Fatalf("CheckName accepted %q, but url.Parse fails: %v", name, err)
		}
		seg, ok := strings.CutPrefix(u.Path, "/.well-known/")
		if !ok || strings.Count(seg, "/") != strings.Count(name, "/") {
			t.Fatalf("CheckName accepted %q, which decodes to path %q", name, u.Path)
		}
		for _, s := range strings.Split(seg, "/") {
			if s == "" || s == "." || s == ".." {
				t.Fatalf("CheckName accepted %q, which decodes to path %q", name, u.Path)
			}
		}
		if file, err := FileName(name); err != nil || file != seg {
			t.Fatalf("FileName(%q) = %q, %v; the URL parser decodes it to %q", name, file, err, seg)
		}
	})
}
