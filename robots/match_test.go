package robots

import "testing"

func TestPatternMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"/", "/", true},
		{"/a", "/ab", true},
		{"/a$", "/a", true},
		{"/a$", "/ab", false},
		{"/a$b", "/a$bc", true}, // '$' inside is a character
		{"/a$b", "/ab", false},
		{"*", "/", true},
		{"/*.php", "/x/y.php", true},
		{"/*.php", "/x/y.ph", false},
		{"/*.php$", "/x.php", true},
		{"/*.php$", "/x.php?q", false},
		{"/fish*.php", "/fishheads/catfish.php?parameters", true},
		{"/a*b*c", "/a-c-b", false},
		{"/a*b*c", "/a-b-c", true},
		{"/**", "/", true},
		{"/x*$", "/x", true},
		{"/a", "/", false},
	} {
		var m matcher
		if got := m.match(c.path, c.pattern); got != c.want {
			t.Errorf("match(%q, %q) = %v, want %v", c.path, c.pattern, got, c.want)
		}
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"/%7ejoe/":      "/~joe/",
		"/%7Ejoe/":      "/~joe/",
		"/a%2fb":        "/a%2Fb",
		"/a%3cd":        "/a%3Cd",
		"/caf\u00e9":    "/caf%C3%A9",
		"/a b":          "/a%20b",
		"/100%":         "/100%25",
		"/%zz":          "/%25zz",
		"/%62%61%7A":    "/baz",
		"/*.php$":       "/*.php$",
		"/q?x=1&y=%3D":  "/q?x=1&y=%3D",
		"/\u30c4":       "/%E3%83%84",
		"/%e3%83%84":    "/%E3%83%84",
		"/a\"<>\\^`{|}": "/a%22%3C%3E%5C%5E%60%7B%7C%7D",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

// The 1996 draft's own table (seed 001, section 3.2.2).
func TestMatch1996DraftTable(t *testing.T) {
	for _, c := range []struct {
		record, url string
		want        bool
	}{
		{"/tmp", "/tmp", true},
		{"/tmp", "/tmp.html", true},
		{"/tmp", "/tmp/a.html", true},
		{"/tmp/", "/tmp", false},
		{"/tmp/", "/tmp/", true},
		{"/tmp/", "/tmp/a.html", true},
		{"/a%3cd.html", "/a%3cd.html", true},
		{"/a%3Cd.html", "/a%3cd.html", true},
		{"/a%3cd.html", "/a%3Cd.html", true},
		{"/a%3Cd.html", "/a%3Cd.html", true},
		{"/a%2fb.html", "/a%2fb.html", true},
		{"/a%2fb.html", "/a/b.html", false},
		{"/a/b.html", "/a%2fb.html", false},
		{"/a/b.html", "/a/b.html", true},
		{"/%7ejoe/index.html", "/~joe/index.html", true},
		{"/~joe/index.html", "/%7Ejoe/index.html", true},
	} {
		f := Parse([]byte("User-agent: *\nDisallow: " + c.record + "\n"))
		v := f.Match1996("anybot", "http://h"+c.url)
		if got := !v.Allowed; got != c.want {
			t.Errorf("record %q url %q: matches=%v, want %v", c.record, c.url, got, c.want)
		}
		if c.want && v.Line != 2 {
			t.Errorf("record %q url %q: deciding line %d, want 2", c.record, c.url, v.Line)
		}
	}
}

func TestMatch1996Selection(t *testing.T) {
	f := Parse([]byte(`User-agent: googlebot-news
Disallow: /news

User-agent: bot
Disallow: /bot

User-agent: *
Disallow: /all

User-agent: *
Disallow: /second
`))
	for _, c := range []struct {
		agent, url string
		allowed    bool
		line       int
	}{
		{"bot", "/bot", true, 0},      // googlebot-news contains "bot": first record wins
		{"bot", "/news", false, 2},    // ...so bot obeys it
		{"News", "/news", false, 2},   // case-insensitive substring
		{"other", "/all", false, 8},   // first "*" record
		{"other", "/second", true, 0}, // records are not merged
		{"", "/all", false, 8},        // no name: "*"
		{"bot", "/robots.txt", true, 0},
		{"other", "/a*", true, 0},
	} {
		v := f.Match1996(c.agent, c.url)
		if v.Allowed != c.allowed || v.Line != c.line {
			t.Errorf("%s %s: %+v, want allowed=%v line %d", c.agent, c.url, v, c.allowed, c.line)
		}
	}
	// '*' and '$' are characters in the 1996 reading.
	f = Parse([]byte("User-agent: *\nDisallow: /a*\nDisallow: /b$\n"))
	if f.Match1996("x", "/abc").Allowed != true || f.Match1996("x", "/a*c").Allowed != false || f.Match1996("x", "/b$x").Allowed != false {
		t.Error("wildcards should be literal")
	}
}

func TestMatchRFC9309Verdicts(t *testing.T) {
	f := Parse([]byte(`User-agent: FooBot
User-agent: BarBot/2.0
Disallow: /x
Allow: /x/y
Disallow: /x/y

User-agent: *
Disallow: /

User-agent: foobot
Allow: /x/z
`))
	for _, c := range []struct {
		agent, url string
		allowed    bool
		line       int
	}{
		{"FooBot/1.0 (+http://foo)", "/x/a", false, 3},
		{"foobot", "/x/y/1", true, 4}, // Allow wins the tie with line 5
		{"foobot", "/x/z", true, 11},  // groups for one agent merge
		{"BarBot", "/x/z", false, 3},  // "BarBot/2.0" names BarBot
		{"BazBot", "/anything", false, 8},
		{"BazBot", "/robots.txt", true, 0},
		{"FooBot", "/y", true, 0},
	} {
		v := f.Match(c.agent, c.url)
		if v.Allowed != c.allowed || v.Line != c.line {
			t.Errorf("%s %s: %+v, want allowed=%v line %d", c.agent, c.url, v, c.allowed, c.line)
		}
	}
}
