package pathspace

import (
	"errors"
	"strings"
	"testing"
)

func mustParse(t testing.TB, base Space, raw string) Space {
	t.Helper()
	s, err := Parse(base, raw)
	if err != nil {
		t.Fatalf("Parse(%v, %q): %v", base, raw, err)
	}
	return s
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		raw  string
		kind Kind
		msg  string
	}{
		{"", WholeSpace, `"" delegates the delegator's whole space`},
		{"/", WholeSpace, `"/" delegates the delegator's whole space`},
		{"..", DotDot, `".." leaves the delegator's space: ".." segment`},
		{"../x", DotDot, `"../x" leaves the delegator's space: ".." segment`},
		{"/a/../b/", DotDot, `"/a/../b/" leaves the delegator's space: ".." segment`},
		{"a/..", DotDot, `"a/.." leaves the delegator's space: ".." segment`},
		{"%2e%2e/x", DotDot, `"%2e%2e/x" leaves the delegator's space: ".." segment (written "%2e%2e")`},
		{"%2E%2E", DotDot, `"%2E%2E" leaves the delegator's space: ".." segment (written "%2E%2E")`},
		{"a/%2e%2E/b", DotDot, `"a/%2e%2E/b" leaves the delegator's space: ".." segment (written "%2e%2E")`},
		{".%2e", DotDot, `".%2e" leaves the delegator's space: ".." segment (written ".%2e")`},
		{"%2E.", DotDot, `"%2E." leaves the delegator's space: ".." segment (written "%2E.")`},
		{".", Dot, `"." has a "." segment`},
		{"./x", Dot, `"./x" has a "." segment`},
		{"a/./b", Dot, `"a/./b" has a "." segment`},
		{"%2e", Dot, `"%2e" has a "." segment (written "%2e")`},
		{"a/%2E/", Dot, `"a/%2E/" has a "." segment (written "%2E")`},
		{"a//b", EmptySegment, `"a//b" has an empty segment`},
		{"//a", EmptySegment, `"//a" has an empty segment`},
		{"a//", EmptySegment, `"a//" has an empty segment`},
		{"//", EmptySegment, `"//" has an empty segment`},
		{`a\b`, Backslash, `"a\\b" has a backslash`},
		{`..\x`, Backslash, `"..\\x" has a backslash`},
		{"a%5Cb", Backslash, `"a%5Cb" has a backslash (written "%5C")`},
		{"a%5c", Backslash, `"a%5c" has a backslash (written "%5c")`},
		{"a?b", Query, `"a?b" has a "?", which starts a query`},
		{"a#b", Fragment, `"a#b" has a "#", which starts a fragment`},
		{"a b", Whitespace, `"a b" has whitespace (U+0020)`},
		{"a\tb", Whitespace, `"a\tb" has whitespace (U+0009)`},
		{"a\n", Whitespace, `"a\n" has whitespace (U+000A)`},
		{"a\u00a0b", Whitespace, `"a\u00a0b" has whitespace (U+00A0)`},
		{"a\u3000", Whitespace, `"a\u3000" has whitespace (U+3000)`},
		{"a\x00b", Control, `"a\x00b" has a control character (U+0000)`},
		{"a\x1b", Control, `"a\x1b" has a control character (U+001B)`},
		{"a\x7f", Control, `"a\x7f" has a control character (U+007F)`},
		{"a\u009b", Control, `"a\u009b" has a control character (U+009B)`},
		{"a\u0085", Whitespace, `"a\u0085" has whitespace (U+0085)`},
		{"a%00", Control, `"a%00" has a control character (written "%00")`},
		{"a%0a", Control, `"a%0a" has a control character (written "%0a")`},
		{"a%7F", Control, `"a%7F" has a control character (written "%7F")`},
		{"a%2Fb", EncodedSlash, `"a%2Fb" has an encoded "/" inside a segment (written "%2F")`},
		{"a%2f", EncodedSlash, `"a%2f" has an encoded "/" inside a segment (written "%2f")`},
		{"a%", BadEscape, `"a%" has an invalid percent escape "%"`},
		{"a%4", BadEscape, `"a%4" has an invalid percent escape "%4"`},
		{"a%zz", BadEscape, `"a%zz" has an invalid percent escape "%zz"`},
		{"a%4g/b", BadEscape, `"a%4g/b" has an invalid percent escape "%4g"`},
		{"%%41", BadEscape, `"%%41" has an invalid percent escape "%%4"`},
		{"a\xffb", BadUTF8, `"a\xffb" is not valid UTF-8`},
		// The first problem from the left is the one reported.
		{"../a b", DotDot, `"../a b" leaves the delegator's space: ".." segment`},
		{"a b/..", Whitespace, `"a b/.." has whitespace (U+0020)`},
	}
	for _, tt := range tests {
		s, err := Parse(Root(), tt.raw)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", tt.raw, s)
			continue
		}
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) error %T, want *Error", tt.raw, err)
			continue
		}
		if pe.Kind != tt.kind || pe.Path != tt.raw {
			t.Errorf("Parse(%q) error kind %v path %q, want %v %q", tt.raw, pe.Kind, pe.Path, tt.kind, tt.raw)
		}
		if err.Error() != tt.msg {
			t.Errorf("Parse(%q) error\n got %s\nwant %s", tt.raw, err, tt.msg)
		}
	}
}

func TestKindString(t *testing.T) {
	for k := WholeSpace; k <= BadUTF8; k++ {
		if s := k.String(); s == "" || strings.HasPrefix(s, "Kind(") {
			t.Errorf("Kind %d has no name", int(k))
		}
	}
	if s := Kind(99).String(); s != "Kind(99)" {
		t.Errorf("Kind(99).String() = %q", s)
	}
}

func TestParseCanonical(t *testing.T) {
	tests := []struct {
		raw, want string
	}{
		{"~*", "/~*/"},
		{"/~*", "/~*/"},
		{"~*/", "/~*/"},
		{"/~*/", "/~*/"},
		{"projects", "/projects/"},
		{"/projects/", "/projects/"},
		{"docs/api", "/docs/api/"},
		{"a*c", "/a*c/"},
		{"a**c", "/a*c/"},
		{"***", "/*/"},
		{"%7Ealice", "/~alice/"},
		{"%7ealice", "/~alice/"},
		{"%41%2d%5F%2E%30", "/A-_.0/"},
		{"a%2a", "/a%2A/"},
		{"a%2A*", "/a%2A*/"},
		{"a%21", "/a%21/"},
		{"a!$&'()+,;=:@", "/a!$&'()+,;=:@/"},
		{"a%3f%23%25", "/a%3F%23%25/"},
		{"a%20b", "/a%20b/"},
		{"é", "/%C3%A9/"},
		{"%c3%a9", "/%C3%A9/"},
		{"日本", "/%E6%97%A5%E6%9C%AC/"},
		{`a"<>[]^{|}` + "`", "/a%22%3C%3E%5B%5D%5E%7B%7C%7D%60/"},
		{"...", "/.../"},
		{".a", "/.a/"},
		{"a.", "/a./"},
		{"%2e%2e%2e", "/.../"},
	}
	for _, tt := range tests {
		s, err := Parse(Root(), tt.raw)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.raw, err)
			continue
		}
		if s.String() != tt.want {
			t.Errorf("Parse(%q) = %q, want %q", tt.raw, s, tt.want)
		}
	}
	a := mustParse(t, Root(), "/%7Ealice/")
	b := mustParse(t, Root(), "/~alice/")
	if a != b {
		t.Errorf("%v and %v differ", a, b)
	}
}

func TestParseBase(t *testing.T) {
	alice := mustParse(t, Root(), "/~alice/")
	tests := []struct {
		base      Space
		raw, want string
		rel       string
		depth     int
		literal   bool
	}{
		{Root(), "~*", "/~*/", "/~*/", 1, false},
		{Root(), "docs/api", "/docs/api/", "/docs/api/", 2, true},
		{alice, "blog/", "/~alice/blog/", "/blog/", 2, true},
		{alice, "/blog", "/~alice/blog/", "/blog/", 2, true},
		{alice, "x/y*", "/~alice/x/y*/", "/x/y*/", 3, false},
		{mustParse(t, Root(), "~*"), "blog", "/~*/blog/", "/blog/", 2, false},
	}
	for _, tt := range tests {
		s := mustParse(t, tt.base, tt.raw)
		if s.String() != tt.want {
			t.Errorf("Parse(%v, %q) = %v, want %v", tt.base, tt.raw, s, tt.want)
		}
		if rel, ok := s.Relative(tt.base); !ok || rel != tt.rel {
			t.Errorf("%v.Relative(%v) = %q, %v, want %q", s, tt.base, rel, ok, tt.rel)
		}
		if again := mustParse(t, tt.base, tt.rel); again != s {
			t.Errorf("Relative form %q of %v parses to %v", tt.rel, s, again)
		}
		if s.Depth() != tt.depth {
			t.Errorf("%v.Depth() = %d, want %d", s, s.Depth(), tt.depth)
		}
		if s.Literal() != tt.literal {
			t.Errorf("%v.Literal() = %v", s, s.Literal())
		}
	}
	if _, ok := alice.Relative(alice); ok {
		t.Errorf("a space is relative to itself")
	}
	if _, ok := mustParse(t, Root(), "/~bob/x/").Relative(alice); ok {
		t.Errorf("/~bob/x/ is relative to /~alice/")
	}
	if _, ok := mustParse(t, Root(), "/~alicex/").Relative(alice); ok {
		t.Errorf("/~alicex/ is relative to /~alice/")
	}
	if rel, ok := alice.Relative(Root()); !ok || rel != "/~alice/" {
		t.Errorf("/~alice/ relative to the root = %q, %v", rel, ok)
	}
	if Root().String() != "/" || Root().Depth() != 0 || !Root().Literal() || Root().Segments() != nil {
		t.Errorf("Root = %q depth %d literal %v segments %q", Root(), Root().Depth(), Root().Literal(), Root().Segments())
	}
	if got := mustParse(t, alice, "x/y*").Segments(); strings.Join(got, "|") != "~alice|x|y*" {
		t.Errorf("Segments = %q", got)
	}
}

func TestContains(t *testing.T) {
	tests := []struct {
		space, path string
		want        bool
	}{
		{"~*", "/~alice/", true},
		{"~*", "/~alice/blog/post.html", true},
		{"~*", "/~/", true}, // the wildcard matches the empty run
		{"~*", "/~alice", false},
		{"~*", "/alice/", false},
		{"~*", "/%7Ealice/x", true},
		{"~*", "/%7ealice/x", true},
		{"~*", "/x/../~alice/", true},
		{"~*", "/~alice/../x", false},
		{"~*", "/~alice/%2e%2E/x", false},
		{"~*", "/~alice/?q=1", true},
		{"~*", "/~alice?q=/", false},
		{"~*", "/~alice#/", false},
		{"~*", "~alice/", false},
		{"~*", "", false},
		{"projects", "/projects/", true},
		{"projects", "/projects", false},
		{"projects", "/projectsX/", false},
		{"projects", "/projects/./a", true},
		{"projects", "/projects/..", false},
		{"projects", "/projects/a/..", true},
		{"docs/api", "/docs/api/v1", true},
		{"docs/api", "/docs/apis/", false},
		{"docs/api", "/docs//api/", false},
		{"a*c", "/ac/", true},
		{"a*c", "/abbc/x", true},
		{"a*c", "/abcd/", false},
		{"a*c", "/a%2Fc/", true}, // an encoded slash is a character of the segment
		{"a%2A", "/a*/", true},
		{"a%2A", "/a%2a/", true},
		{"a%2A", "/ab/", false},
		{"*A9", "/%C3%A9/", false},
		{"*A9", "/xA9/", true},
		{"*%A9", "/%C3%A9/", true},
		{"é", "/%C3%A9/", true},
		{"é", "/é/", true},
		{"%C3%A9", "/%c3%a9/", true},
		{"a%21", "/a!/", false},
		{"a%21", "/a%21/", true},
		{"a%25", "/a%/", true},
		{"a%20b", "/a b/", true},
		{"*", "//", true},
		{"*", "/", false},
	}
	for _, tt := range tests {
		s := mustParse(t, Root(), tt.space)
		if got := s.Contains(tt.path); got != tt.want {
			t.Errorf("%v.Contains(%q) = %v, want %v", s, tt.path, got, tt.want)
		}
	}
	if !Root().Contains("/") || !Root().Contains("/a/b") || Root().Contains("a") {
		t.Errorf("Root.Contains is wrong")
	}
}

func TestCanonicalPath(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"/%7Ealice/a*b%zz/%c3%a9/./x/../y?q#f", "/~alice/a%2Ab%25zz/%C3%A9/y", true},
		{"/é b\\", "/%C3%A9%20b%5C", true},
		{"/a%2fb/%2E%2e/c", "/c", true},
		{"a/b", "", false},
		{"?/a", "", false},
	}
	for _, tt := range tests {
		got, ok := CanonicalPath(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("CanonicalPath(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestIsInstance(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"~*", "/~alice/", true},
		{"~*", "/%7Ealice/", true},
		{"~*", "/~alice/blog/", false},
		{"~*", "/~a*/", false},
		{"~*", "/alice/", false},
		{"projects", "/projects/", true},
		{"x/*/y", "/x/a/y/", true},
		{"x/*/y", "/x/a/z/", false},
	}
	for _, tt := range tests {
		p, s := mustParse(t, Root(), tt.pattern), mustParse(t, Root(), tt.s)
		if got := IsInstance(p, s); got != tt.want {
			t.Errorf("IsInstance(%v, %v) = %v, want %v", p, s, got, tt.want)
		}
	}
}

func TestRemoveDotSegments(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/", "/"},
		{"/a/b", "/a/b"},
		{"/a/./b", "/a/b"},
		{"/a/b/..", "/a/"},
		{"/a/b/.", "/a/b/"},
		{"/..", "/"},
		{"/../../a", "/a"},
		{"/a//../b", "/a/b"},
		{"/a/.b/..c", "/a/.b/..c"},
	}
	for _, tt := range tests {
		if got := removeDotSegments(tt.in); got != tt.want {
			t.Errorf("removeDotSegments(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"~*", "/~*/", "projects", "docs/api", "a*c", "../x", "%2e%2E", "a//b",
		`a\b`, "a%5C", "a?b", "a#b", "a b", "a%2Fb", "a%zz", "é", "%7Ealice", "a%2A**b", "\xff", "/", ""} {
		f.Add(s)
	}
	alice := Space{s: "/~alice/"}
	f.Fuzz(func(t *testing.T, raw string) {
		s, err := Parse(Root(), raw)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Path != raw || pe.Kind < WholeSpace || pe.Kind > BadUTF8 {
				t.Fatalf("Parse(%q) error %#v", raw, err)
			}
			if _, err2 := Parse(alice, raw); err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("Parse(%q) fails with %v under the root but %v under %v", raw, err, err2, alice)
			}
			return
		}
		again, err := Parse(Root(), s.String())
		if err != nil || again != s {
			t.Fatalf("Parse(%q) = %v, which re-parses to %v, %v", raw, s, again, err)
		}
		if rel, ok := s.Relative(Root()); !ok || rel != s.String() {
			t.Fatalf("%v.Relative(Root) = %q, %v", s, rel, ok)
		}
		under, err := Parse(alice, raw)
		if err != nil || under.String() != "/~alice"+s.String() {
			t.Fatalf("Parse(%v, %q) = %v, %v", alice, raw, under, err)
		}
		if !Within(s, s) || !Overlap(s, s) || !Within(Root(), s) {
			t.Fatalf("%v is not within itself", s)
		}
		// Instances: every wildcard taking the empty run, or one letter.
		// An instance can be a "." or ".." segment ("*.*" holds "."), which
		// no URL path has once resolved; such an instance is skipped.
		for _, fill := range []string{"", "x"} {
			p := strings.ReplaceAll(s.String(), "*", fill)
			if c, _ := CanonicalPath(p); c != p {
				if fill == "x" {
					t.Fatalf("instance %q of %v is not canonical: %q", p, s, c)
				}
				continue
			}
			if !s.Contains(p) || !s.Contains(p+"rest") {
				t.Fatalf("%v does not contain its instance %q", s, p)
			}
			if s.Literal() && p != s.String() {
				t.Fatalf("literal %v has a wildcard", s)
			}
		}
		if s.Depth() != len(s.Segments()) || s.Depth() < 1 {
			t.Fatalf("%v: depth %d, segments %q", s, s.Depth(), s.Segments())
		}
	})
}
