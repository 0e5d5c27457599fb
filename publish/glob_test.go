package publish

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestMatchSeg(t *testing.T) {
	for _, c := range []struct {
		pat, name string
		ok        bool
		caps      []string
	}{
		{"*", "alice", true, []string{"alice"}},
		{"~*", "~alice", true, []string{"alice"}},
		{"~*", "alice", false, nil},
		{"u*-*", "u12-web", true, []string{"12", "web"}},
		{"u*-*", "u1-2-3", true, []string{"1", "2-3"}},
		{"[ab]*", "bob", true, []string{"ob"}},
		{"[ab]*", "carol", false, nil},
		{"?x*", "axe", true, []string{"e"}},
		{"?x*", "x", false, nil},
		{"autodisc.yaml", "autodisc.yaml", true, nil},
		{"autodisc.yaml", "autodisc.yml", false, nil},
		{"*.yaml", "a.yaml", true, []string{"a"}},
		{"é*", "éa", true, []string{"a"}},
		{"?*", "éa", true, []string{"a"}},
	} {
		caps, ok := matchSeg(c.pat, c.name)
		if ok != c.ok || !slices.Equal(caps, c.caps) {
			t.Errorf("matchSeg(%q, %q) = %q, %v; want %q, %v", c.pat, c.name, caps, ok, c.caps, c.ok)
		}
	}
}

func TestParsePattern(t *testing.T) {
	dir := t.TempDir()
	p, err := parsePattern(dir, "users/*/public_html/autodisc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if p.prefix != filepath.Join(dir, "users") || !slices.Equal(p.segs, []string{"*", "public_html", "autodisc.yaml"}) || p.stars != 1 {
		t.Errorf("got prefix %s, segments %q, %d stars", p.prefix, p.segs, p.stars)
	}
	p, err = parsePattern(dir, "sites/one/autodisc.yaml")
	if err != nil || p.prefix != filepath.Join(dir, "sites/one") || !slices.Equal(p.segs, []string{"autodisc.yaml"}) {
		t.Errorf("a literal glob: %+v, %v", p, err)
	}
	p, err = parsePattern(filepath.Join(dir, "etc"), "../users/*/x.yaml")
	if err != nil || p.prefix != filepath.Join(dir, "users") {
		t.Errorf("a glob with ..: %+v, %v", p, err)
	}
	for raw, want := range map[string]string{
		"users/**/autodisc.yaml":    "'**' is not supported",
		"users/{a,b}/autodisc.yaml": "braces",
		"users/[/autodisc.yaml":     "syntax error",
		`users/\*/autodisc.yaml`:    "backslash",
	} {
		if _, err := parsePattern(dir, raw); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parsePattern(%q): %v, want an error saying %q", raw, err, want)
		}
	}
}

func TestBindSpace(t *testing.T) {
	for _, c := range []struct {
		deleg string
		caps  []string
		want  string
		err   string
	}{
		{"~*", []string{"alice"}, "/~alice/", ""},
		{"/sites/*/*/", []string{"a", "b"}, "/sites/a/b/", ""},
		{"~*", []string{"a b"}, "", "the directory names give the space \"~a b\""},
		{"~*", []string{"a?b"}, "", "the directory names give the space \"~a?b\""},
		{"~*", []string{"*"}, "", "cannot fill"},
		{"~*", []string{""}, "", "cannot fill"},
		{"~*", []string{"caf%C3%A9"}, "/~caf%C3%A9/", ""},
	} {
		sp, err := bindSpace(c.deleg, c.caps)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("bindSpace(%q, %q) = %s, %v; want an error saying %q", c.deleg, c.caps, sp, err, c.err)
		case c.err == "" && (err != nil || sp.String() != c.want):
			t.Errorf("bindSpace(%q, %q) = %s, %v; want %s", c.deleg, c.caps, sp, err, c.want)
		}
	}
}

func TestDirsCanMeet(t *testing.T) {
	dir := t.TempDir()
	pat := func(raw string) *pattern {
		p, err := parsePattern(dir, raw)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		a, b string
		meet bool
	}{
		{"users/*/public_html/autodisc.yaml", "groups/*/autodisc.yaml", false},
		{"users/*/public_html/autodisc.yaml", "users/*/autodisc.yaml", true},
		{"users/*/public_html/autodisc.yaml", "users/*/public_html/other.yaml", true},
		{"users/*/public_html/autodisc.yaml", "users/*/www/autodisc.yaml", false},
		{"users/u*/www/autodisc.yaml", "users/team/www/autodisc.yaml", false},
		{"users/u*/www/autodisc.yaml", "users/u1/www/autodisc.yaml", true},
	} {
		if got := dirsCanMeet(pat(c.a), pat(c.b)); got != c.meet {
			t.Errorf("dirsCanMeet(%q, %q) = %v, want %v", c.a, c.b, got, c.meet)
		}
	}
}
