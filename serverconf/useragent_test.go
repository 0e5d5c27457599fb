package serverconf

import (
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tree"
)

// This file reads a User-Agent value as RFC 9110 section 10.1.5 writes it,
// apart from the generator's regular expressions, and holds the user
// agents the matchers are compared on.
//
//	User-Agent = product *( RWS ( product / comment ) )
//	product    = token [ "/" product-version ]
//	comment    = "(" *( ctext / quoted-pair / comment ) ")"
//
// A name is claimed by a product outside comments, and inside a comment
// (at any depth) by the leading product of each ';'-separated item. The
// reading is lenient where crawlers' own strings are not grammatical:
// outside comments a product starts at the beginning, after white space
// or after any of "(),;" (OpenAI writes "...); compatible;
// OAI-SearchBot/1.0; ..."; several fields are joined with ", "); a
// product's name is a maximal run of token characters and counts when the
// character after it is white space, one of "/;,()", or the end. A name
// of several words (Sogou web spider) is claimed by as many products
// without versions in a row, one or more blanks between them. An unclosed
// comment runs to the end.

// isTchar is RFC 9110's tchar.
func isTchar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// uaPhrase is what follows one place a product may start: the tokens
// separated by blanks only, and for each the byte after it (0 at the end).
type uaPhrase struct {
	tokens []string
	after  []byte
}

// readUA returns the phrases at every place a product starts in ua, and
// the deepest comment nesting it holds.
func readUA(ua string) (phrases []uaPhrase, deepest int) {
	phraseAt := func(i int) {
		var p uaPhrase
		for {
			j := i
			for j < len(ua) && isTchar(ua[j]) {
				j++
			}
			if j == i {
				break
			}
			var next byte
			if j < len(ua) {
				next = ua[j]
			}
			p.tokens, p.after = append(p.tokens, ua[i:j]), append(p.after, next)
			k := j
			for k < len(ua) && (ua[k] == ' ' || ua[k] == '\t') {
				k++
			}
			if k == j {
				break
			}
			i = k
		}
		if len(p.tokens) > 0 {
			phrases = append(phrases, p)
		}
	}
	var comment func(i, depth int) int
	comment = func(i, depth int) int { // i is just after '('; returns the index after its ')'
		deepest = max(deepest, depth)
		item := true
		for i < len(ua) {
			switch c := ua[i]; {
			case c == ')':
				return i + 1
			case c == '(':
				i = comment(i+1, depth+1)
				item = false
			case c == ';':
				item, i = true, i+1
			case c == '\\': // quoted-pair
				item, i = false, i+2
			case c == ' ' || c == '\t':
				i++
			default:
				if item {
					phraseAt(i)
				}
				item, i = false, i+1
			}
		}
		return len(ua)
	}
	start := true
	for i := 0; i < len(ua); {
		switch c := ua[i]; {
		case c == '(':
			i, start = comment(i+1, 1), true
		case c == ' ' || c == '\t' || c == ')' || c == ',' || c == ';':
			i, start = i+1, true
		default:
			if start {
				phraseAt(i)
			}
			i, start = i+1, false
		}
	}
	return phrases, deepest
}

// productClaims reports whether ua claims name, compared ASCII
// case-insensitively, by the reading above.
func productClaims(ua, name string) bool {
	words := strings.Fields(name)
	phrases, _ := readUA(ua)
	for _, p := range phrases {
		if len(p.tokens) < len(words) {
			continue
		}
		ok := true
		for k, w := range words {
			if !asciiEqualFold(p.tokens[k], w) {
				ok = false
				break
			}
		}
		if ok && strings.IndexByte(" \t/;,()\x00", p.after[len(words)-1]) >= 0 {
			return true
		}
	}
	return false
}

// asciiEqualFold is strings.EqualFold for ASCII letters only: no K for
// the Kelvin sign, no s for the long s.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// TestReadUA checks the reader on the cases that decide the reading.
func TestReadUA(t *testing.T) {
	for _, c := range []struct {
		ua, name string
		want     bool
	}{
		{realUAs["Googlebot"][0], "Googlebot", true},
		{realUAs["GPTBot"][0], "GPTBot", true},
		{realUAs["OAI-SearchBot"][0], "OAI-SearchBot", true},
		{realUAs["DuckDuckBot"][0], "DuckDuckBot", true},
		{realUAs["Sogou web spider"][0], "Sogou web spider", true},
		{realUAs["Applebot"][0], "Applebot", true},
		{realUAs["Baiduspider"][0], "Spider", false},
		{realUAs["GPTBot"][0], "OpenAI", false},
		{realUAs["Googlebot-Image"][0], "Googlebot", false},
		{ieSLCC1, "LCC", false},
		{"Mozilla/5.0 (compatible; FooBot/1.0; +https://example.com/gptbot)", "GPTBot", false},
		{"Mozilla/5.0 (compatible; FooBot/1.0; +https://x.example/?ua=googlebot)", "Googlebot", false},
		{"Mozilla/5.0 (compatible; MyBot/1.0 like Googlebot)", "Googlebot", false},
		{"Googlebot+x/1.0", "Googlebot", false},
		{"Googlebot~1", "Googlebot", false},
		{"Foo/1.0 (x (y) z;Googlebot/2.1)", "Googlebot", true},
		{"Foo/1.0 (a\\; Googlebot/2.1)", "Googlebot", false},
		{"Foo/1.0 (a\\\\; Googlebot/2.1)", "Googlebot", true},
		{"Foo/1.0 (compatible; Googlebot", "Googlebot", true},
		{"Foo/1.0, googlebot/2.1", "Googlebot", true},
		{"Foo/1.0 (KHTML, Googlebot)", "Googlebot", false},
		{"Foo/1.0 Baidu\u017fpider/2.0", "Baiduspider", false},
		{"Sogou  web\tspider/4.0", "Sogou web spider", true},
		{"Sogou web-spider/4.0", "Sogou web spider", false},
	} {
		if got := productClaims(c.ua, c.name); got != c.want {
			t.Errorf("productClaims(%q, %s) = %v", c.ua, c.name, got)
		}
	}
}

// hostileUAs are user agents that name name where it claims nothing (in
// URLs, query strings, free text, inside longer tokens, with letters that
// fold to ASCII only outside ASCII), and where it does (case, nesting,
// quoted pairs, unclosed comments, blanks); readUA decides which.
func hostileUAs(name string) []string {
	swap := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z':
			return r - 'a' + 'A'
		case 'A' <= r && r <= 'Z':
			return r - 'A' + 'a'
		}
		return r
	}, name)
	out := []string{
		"Mozilla/5.0 (compatible; FooBot/1.0; +https://example.com/" + name + ")",
		"Mozilla/5.0 (compatible; FooBot/1.0; +https://x.example/?ua=" + name + ")",
		"Mozilla/5.0 (compatible; FooBot/1.0; +https://x.example/" + name + "/bot.html?a=1&b=" + name + ")",
		"Mozilla/5.0 (compatible; MyBot/1.0 like " + name + ")",
		"Mozilla/5.0 (compatible; MyBot/1.0; " + name + "@example.com)",
		"Foo/1.0 https://example.com/" + name,
		"Foo/1.0 +https://example.com/bot?name=" + name + "&x=1",
		"Foo/1.0 (+mailto:" + name + "@example.com)",
		name + "+x/1.0", "x+" + name + "/1.0", name + "~1", "~" + name, name + "!", name + ":1.0", name + "@example.com", name + "=1",
		"Not" + name + "/1.0", name + "X/1.0", name + "-Extended/1.0", name + ".example.com", name + "_x/1",
		"Foo \"" + name + "\"", "Foo '" + name + "'",
		strings.ToLower(name), strings.ToUpper(name) + "/1.0", "Mozilla/5.0 (compatible; " + swap + "/2.1)",
		name + "/", name + "(x)", name + ";", name + ",x", "x) " + name + "/1.0", "Foo/1.0;" + name + "/1.0", "Foo/1.0, " + name + "/1.0",
		"Foo/1.0\t" + name + "/1.0", "Foo (\t" + name + "\t; x)", "Foo (  " + name + ")", "Foo/1.0 " + name + "/1.0/extra",
		"Foo/1.0 (Linux (compatible; " + name + "/1.0))",
		"Foo/1.0 (x (y) " + name + ")",
		"Foo/1.0 (x (y) z; " + name + "/1.0)",
		"Foo/1.0 (x (y) z;" + name + ")",
		"Foo (a (b (c (d (e; " + name + "/1) x) y) z) w) v)",
		"Foo (a (b (c (d (e (f) g) h) i) j) k) " + name + "/1.0)",
		"Foo (a (b (c (d (e (f) g) h) i) j) k) l; " + name + "/1.0)",
		"Foo (a (b (c (d (e (f) g) h) i) j) k) l;" + name + "/1.0) m",
		"Foo (a\\; " + name + "/1.0)", "Foo (a\\) " + name + "/1.0)", "Foo (a\\\\; " + name + "/1.0)", "Foo (a\\(; " + name + ")",
		"Foo (compatible; " + name, "Foo (x " + name, "Foo (" + name, "Foo (KHTML, " + name + ")",
		"Foo/1.0 (x) (y; " + name + "/1.0) (z " + name + ")",
	}
	if strings.ContainsAny(name, "sSkK") {
		folded := strings.NewReplacer("s", "\u017f", "S", "\u017f", "k", "\u212a", "K", "\u212a").Replace(name)
		out = append(out, "Foo/1.0 "+folded+"/1.0", "Foo (compatible; "+folded+"/1.0)")
	}
	if strings.Contains(name, " ") {
		out = append(out, strings.ReplaceAll(name, " ", "  ")+"/1.0", strings.ReplaceAll(name, " ", "\t")+"/1.0",
			strings.ReplaceAll(name, " ", "-")+"/1.0", "Foo ("+strings.ReplaceAll(name, " ", ";")+")")
	}
	return out
}

// uaMatcher is one generated user-agent matcher: how its server reads the
// User-Agent fields of a request, the literal it looks for first (nil
// for none) and the expression.
type uaMatcher struct {
	use     string
	pre, re *regexp.Regexp
	// joined is how the server reads several fields: "" each field
	// apart (a claim in any), else the separator it joins them with
	// (Apache and nginx 1.23 and later ", ", a Caddy placeholder ",").
	joined      string
	preRaw, raw string
}

func (m uaMatcher) match(ua string) bool {
	return (m.pre == nil || m.pre.MatchString(ua)) && m.re.MatchString(ua)
}

// claims reads several fields as the server does: the literal in the
// joined value (nginx, Apache) or in any field (Caddy's header_regexp),
// the expression on the joined value.
func (m uaMatcher) claims(fields []string) bool {
	joined := strings.Join(fields, m.joined)
	if m.joined == "," {
		return slices.ContainsFunc(fields, m.pre.MatchString) && m.re.MatchString(joined)
	}
	return m.match(joined)
}

// extractUAMatchers renders enforce and verified for names with nginx,
// Apache and Caddy and returns, for each name, every user-agent matcher
// the six configurations hold, compiled with Go's regexp with the flags
// each carries: a literal found case-insensitively, then the expression.
func extractUAMatchers(t *testing.T, names []string) [][]uaMatcher {
	t.Helper()
	public, separate := renderMatchers(t, names)
	out := make([][]uaMatcher, len(names))
	for _, c := range []struct {
		use, text, pattern, joined string
	}{
		{"nginx enforce", string(separate[NginxFile].Data), `if \(\$http_user_agent ~\* "([^"]+)"\) \{ set (\$discgen_\d+_ua) \$http_user_agent; \}\nif \(\$discgen_\d+_ua ~ "([^"]+)"\)`, ", "},
		{"nginx verified", string(separate[NginxVerifiedFile].Data), `map \$http_user_agent \S+_ua \{\n    default "";\n    "~\*([^"]+)" \$http_user_agent;\n\}\nmap (\S+_ua) \S+_claims \{\n    default 0;\n    "~([^"]+)" 1;`, ", "},
		{"apache enforce", string(public[HtaccessFile].Data), `RewriteCond %\{HTTP_USER_AGENT\} "([^"]+)" \[NC\]\n()    RewriteCond %\{HTTP_USER_AGENT\} "([^"]+)"\n    RewriteCond %\{REQUEST_URI\} "\^/"\n`, ", "},
		{"apache verified", string(separate[ApacheVerifiedFile].Data), `%\{HTTP_USER_AGENT\} =~ m#([^#]+)#i()( && %\{HTTP_USER_AGENT\} =~ m#([^#]+)#)`, ", "},
		{"caddy enforce", string(separate[CaddyFile].Data), "@discgen_enforce_[0-9_]+ \\{\n\theader_regexp User-Agent `\\(\\?i\\)([^`]+)`\n\t()vars_regexp \\{http.request.header.User-Agent\\} `([^`]+)`", ","},
		{"caddy verified", string(separate[CaddyFile].Data), "@discgen_verified_[0-9]+ \\{\n\theader_regexp User-Agent `\\(\\?i\\)([^`]+)`\n\t()vars_regexp \\{http.request.header.User-Agent\\} `([^`]+)`", ","},
	} {
		ms := regexp.MustCompile(c.pattern).FindAllStringSubmatch(c.text, -1)
		if len(ms) != len(names) {
			t.Fatalf("%s: %d matchers for %d names", c.use, len(ms), len(names))
		}
		for i, m := range ms {
			full := m[3]
			if strings.HasPrefix(c.use, "apache verified") {
				full = m[4]
			}
			mt := uaMatcher{use: c.use, joined: c.joined, preRaw: m[1], raw: full}
			if m[1] != "" {
				mt.pre = regexp.MustCompile("(?i)" + m[1])
			}
			re, err := regexp.Compile(full)
			if err != nil {
				t.Fatalf("%s: %q: %v", c.use, full, err)
			}
			mt.re = re
			out[i] = append(out[i], mt)
		}
	}
	return out
}

// renderMatchers renders tokenAccess(names) with nginx, Apache and Caddy.
func renderMatchers(t *testing.T, names []string) (public, separate tree.Tree) {
	t.Helper()
	rendered, _ := accessTree()
	public, separate, err := RenderAccess(rendered, []Kind{Nginx, Htaccess, Caddy}, tokenAccess(names))
	if err != nil {
		t.Fatal(err)
	}
	return public, separate
}

// tokenAccess enforces Disallow: / for each name and verifies each from
// 192.0.2.0/24, which no loopback address is in.
func tokenAccess(names []string) Access {
	var enf []robots.Enforcement
	v := &Verified{ID: "t"}
	for _, n := range names {
		enf = append(enf, robots.Enforcement{Agent: n, Rules: []robots.PathRule{{Path: "/"}}})
		v.Crawlers = append(v.Crawlers, VerifiedCrawler{Name: n, Source: "test", Prefixes: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
	}
	return Access{Enforce: enf, Verified: v}
}

// matcherDepth is how deep the matchers follow nested comments (see
// uaRegexp).
const matcherDepth = 4

// uaCorpus is the user agents of the differential test: every documented
// and shaped user agent of every name (the catalogue's strings), and the
// hostile variants of every name.
func uaCorpus(names []string) (catalogued, hostile []string) {
	seen := map[string]bool{}
	add := func(to *[]string, uas ...string) {
		for _, ua := range uas {
			if !seen[ua] {
				seen[ua] = true
				*to = append(*to, ua)
			}
		}
	}
	for _, n := range names {
		add(&catalogued, uaShapes(n)...)
	}
	add(&catalogued, ieSLCC1)
	for _, n := range names {
		add(&hostile, hostileUAs(n)...)
	}
	return catalogued, hostile
}

// multiFields are requests with two User-Agent fields: the claim in the
// second, after a first field that leaves a comment open, escapes the
// separator, or closes nothing.
func multiFields(name string) [][]string {
	var out [][]string
	for _, first := range []string{uaBrowser, "x (", "x (a;", "x (a\\", "x)", "Foo/1.0 (compatible; " + name + "/1.0)"} {
		for _, second := range []string{name + "/1.0", "Mozilla/5.0 (compatible; " + name + "/2.1; +https://example.com/bot)", "Mozilla/5.0 (compatible; FooBot/1.0; +https://example.com/" + name + ")", uaBrowser} {
			out = append(out, []string{first, second})
		}
	}
	return out
}

// TestUserAgentProducts is the differential test of the generated
// user-agent matchers against readUA: every matcher of every name, in
// every configuration, applied with Go's regexp to every catalogued user
// agent and every hostile variant, claims exactly what readUA says (where
// comments nest deeper than the matchers follow, at least that); the six
// configurations of a name hold one expression; and requests with two
// User-Agent fields are read as the servers join them, ", " as RFC 9110
// section 5.3 combines field lines.
func TestUserAgentProducts(t *testing.T) {
	names := tokenNames(t)
	matchers := extractUAMatchers(t, names)
	catalogued, hostile := uaCorpus(names)
	var disagree, pairs, total, runs, claimed int
	wrongBy := map[string]int{}
	report := func(format string, args ...any) {
		if disagree++; disagree <= 40 {
			t.Errorf(format, args...)
		}
	}
	for i, n := range names {
		distinct := matchers[i][:1]
		for _, m := range matchers[i][1:] {
			if m.raw != matchers[i][0].raw || m.preRaw != matchers[i][0].preRaw && m.preRaw != "" {
				report("%s: %s has %q (%q), %s %q (%q)", n, m.use, m.raw, m.preRaw, matchers[i][0].use, matchers[i][0].raw, matchers[i][0].preRaw)
			}
			if m.joined != matchers[i][0].joined {
				distinct = append(distinct, m) // Caddy: it joins with ","
			}
		}
		// The catalogued user agents of every name (Spider against
		// Baiduspider), the hostile variants of this one.
		own := hostileUAs(n)
		for k, ua := range append(slices.Clip(catalogued), own...) {
			kind := "catalogued"
			if k >= len(catalogued) {
				kind = "hostile"
			}
			total++
			want := productClaims(ua, n)
			_, deep := readUA(ua)
			wrong := false
			for _, m := range distinct {
				got := m.match(ua)
				runs++
				if got && !want && deep > matcherDepth {
					continue // deeper than the matchers follow: they claim more, never less
				}
				if got != want {
					wrong = true
					report("%s: the matcher of %s on %q: %v, want %v", m.use, n, ua, got, want)
				}
			}
			if wrong {
				pairs++
				wrongBy[kind]++
			}
			if want {
				claimed++
			}
		}
		for _, fields := range multiFields(n) {
			want := productClaims(strings.Join(fields, ", "), n)
			wrong := false
			total++
			for _, m := range distinct {
				runs++
				if got := m.claims(fields); got != want {
					wrong = true
					report("%s: the matcher of %s on the fields %q: %v, want %v (the fields joined with \", \")", m.use, n, fields, got, want)
				}
			}
			if wrong {
				pairs++
				wrongBy["two-field"]++
			}
		}
	}
	t.Logf("%d names, %d catalogued user agents, %d hostile variants, %d two-field requests a name, %d distinct matcher runs, %d claims; %d of %d (name, request) pairs read otherwise by some server (%v), %d disagreements",
		len(names), len(catalogued), len(hostile), len(multiFields("x")), runs, claimed, pairs, total, wrongBy, disagree)
}

// TestUserAgentLongName: an agent name whose expression would not fit an
// Apache configuration line (8 KiB) is refused for every kind that
// matches User-Agent, not written; the longest name allowed fits.
func TestUserAgentLongName(t *testing.T) {
	rendered, _ := accessTree()
	kinds := []Kind{Nginx, Htaccess, Caddy}
	long := strings.Repeat("a", MaxUserAgentName+1)
	for _, a := range []Access{
		{Enforce: tokenAccess([]string{long}).Enforce},
		{Verified: tokenAccess([]string{long}).Verified},
	} {
		if _, _, err := RenderAccess(rendered, kinds, a); err == nil || !strings.Contains(err.Error(), "bytes") {
			t.Errorf("a name of %d bytes: err = %v", len(long), err)
		}
		if _, _, err := RenderAccess(rendered, []Kind{Headers}, a); err != nil {
			t.Errorf("_headers matches no User-Agent: %v", err)
		}
	}
	// Why: a name of 2,000 letters would make an expression of more than
	// 8,000 bytes.
	if n := len(uaRegexp(strings.Repeat("a", 2000))); n <= 8000 {
		t.Errorf("an expression of %d bytes for 2,000 letters", n)
	}
	public, separate, err := RenderAccess(rendered, kinds, tokenAccess([]string{strings.Repeat("-", MaxUserAgentName)}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []tree.Tree{public, separate} {
		for p, e := range tr {
			for _, l := range strings.Split(string(e.Data), "\n") {
				if len(l) > 8000 {
					t.Errorf("%s: a line of %d bytes", p, len(l))
				}
			}
		}
	}
}

// TestUserAgentMatchersOneForm: every User-Agent matcher in every
// configuration, whatever the rules, is the one expression in its
// server's case-sensitive form, after the name's literal found
// case-insensitively: ~*, [NC], m#...#i apply to the
// literal only, never to an expression (the case-insensitive modes of
// PCRE and RE2 differ), and Caddy matches the expression on the
// placeholder that joins the fields, header_regexp finding the literal.
func TestUserAgentMatchersOneForm(t *testing.T) {
	rendered, _ := accessTree()
	var rules []robots.PathRule
	for _, p := range []string{"/", "/a$", "/*.pdf$", "/search?q=", "/x%2Fy", "/caf%C3%A9/", "/~joe/"} {
		rules = append(rules, robots.PathRule{Path: p}, robots.PathRule{Allow: true, Path: p + "pub"})
	}
	names := []string{"GPTBot", "Googlebot"}
	a := tokenAccess(names)
	for i := range a.Enforce {
		a.Enforce[i].Rules = rules
	}
	public, separate, err := RenderAccess(rendered, []Kind{Nginx, Htaccess, Caddy}, a)
	if err != nil {
		t.Fatal(err)
	}
	literals := map[string]bool{}
	for _, n := range names {
		literals[uaPrefilter(n)] = true
	}
	folded := regexp.MustCompile("~\\* \"([^\"]*)\"|\"([^\"]*)\" \\[NC\\]|m#([^#]*)#i|header_regexp User-Agent `\\(\\?i\\)([^`]*)`")
	n := 0
	for _, tr := range []tree.Tree{public, separate} {
		for p, e := range tr {
			for _, l := range strings.Split(string(e.Data), "\n") {
				if !strings.Contains(l, "user_agent") && !strings.Contains(l, "USER_AGENT") && !strings.Contains(l, "User-Agent") {
					continue
				}
				for _, nm := range names {
					if strings.Contains(l, uaRegexp(nm)) {
						n++
					}
				}
				for _, m := range folded.FindAllStringSubmatch(l, -1) {
					if lit := m[1] + m[2] + m[3] + m[4]; !literals[lit] {
						t.Errorf("%s: %q: %q is matched case-insensitively", p, l, lit)
					}
				}
				if strings.Contains(l, "(?i)") && !strings.HasPrefix(strings.TrimSpace(l), "header_regexp User-Agent `(?i)") {
					t.Errorf("%s: %q", p, l)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no User-Agent matcher found")
	}
}

// BenchmarkUserAgentRE2 is the cost of Caddy's matcher (Go's RE2) a
// user agent, on every catalogued user agent, against the word match the
// matchers used before as the floor: go test ./serverconf -bench UserAgentRE2
func BenchmarkUserAgentRE2(b *testing.B) {
	t := &testing.T{}
	catalogued, _ := uaCorpus(tokenNames(t))
	for _, c := range []struct{ name, re string }{
		{"word", `(?i)(^|[^a-z0-9_.-])gptbot($|[^a-z0-9_.-])`},
		{"product", uaRegexp("GPTBot")},
		{"literal", "(?i)" + uaPrefilter("GPTBot")},
	} {
		re := regexp.MustCompile(c.re)
		b.Run(c.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				re.MatchString(catalogued[i%len(catalogued)])
			}
		})
	}
}
