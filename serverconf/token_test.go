package serverconf

import (
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/robots"
)

// realUAs are user-agent strings as their operators document them, keyed
// by the crawler's name: Google's crawler overview (Googlebot smartphone
// and desktop, Googlebot-Image), Bing's crawler page, OpenAI's bots page,
// Anthropic's, Apple's Applebot page, Baidu's and Sogou's webmaster help,
// Yandex's robots page, Common Crawl's CCBot page, DuckDuckGo's
// DuckDuckBot page; and a 2008 Internet Explorer 8 on Vista, whose
// "SLCC1" (Software Licensing Commerce Client) holds LCC.
var realUAs = map[string][]string{
	"Googlebot": {
		"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.7204.183 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/138.0.7204.183 Safari/537.36",
		"Googlebot/2.1 (+http://www.google.com/bot.html)",
	},
	"Googlebot-Image":  {"Googlebot-Image/1.0"},
	"bingbot":          {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36"},
	"GPTBot":           {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"},
	"OAI-SearchBot":    {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot"},
	"ChatGPT-User":     {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"},
	"ClaudeBot":        {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"},
	"Applebot":         {"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"},
	"Baiduspider":      {"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"},
	"Sogou web spider": {"Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)"},
	"YandexBot":        {"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"},
	"CCBot":            {"CCBot/2.0 (https://commoncrawl.org/faq/)"},
	"DuckDuckBot":      {"DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)"},
	"PerplexityBot":    {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"},
}

// ieSLCC1 is the negative case of ai.robots.txt #208: no crawler at all.
const ieSLCC1 = "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.0; Trident/4.0; SLCC1; .NET CLR 2.0.50727; Media Center PC 5.0)"

// uaShapes are the shapes a crawler's user agent takes, for a name
// without a documented string.
func uaShapes(name string) []string {
	return append(slices.Clone(realUAs[name]),
		name,
		name+"/1.0",
		"Mozilla/5.0 (compatible; "+name+"/1.0; +https://example.com/bot.html)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; "+name+"/1.0; +https://example.com/bot)",
		strings.ToUpper(name)+"/2.0 (+https://example.com)",
	)
}

// claims is the oracle, written apart from the regular expressions: a
// user agent claims name when name, compared case-insensitively, is a run
// of its words, a word being a maximal run of letters, digits, '_', '.'
// and '-' (a name with spaces is several words with single spaces
// between them).
func claims(ua, name string) bool {
	isWord := func(c byte) bool {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
	}
	u, n := strings.ToLower(ua), strings.ToLower(name)
	for i := 0; i+len(n) <= len(u); i++ {
		if u[i:i+len(n)] == n && (i == 0 || !isWord(u[i-1])) && (i+len(n) == len(u) || !isWord(u[i+len(n)])) {
			return true
		}
	}
	return false
}

// tokenNames is every name the catalogue, the search crawler list and the
// catalogue's left-out tokens (Spider, LCC, Code, ...: the names that
// broke other generators) hold, sorted, unique case-insensitively.
func tokenNames(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if !seen[strings.ToLower(n)] {
			seen[strings.ToLower(n)] = true
			out = append(out, n)
		}
	}
	cat := crawlers.Default()
	for _, a := range cat.Agents {
		add(a.Name)
	}
	for _, c := range crawlers.Search().Crawlers {
		add(c.Name)
	}
	for n := range cat.LeftOut {
		add(n)
	}
	slices.Sort(out)
	if len(out) < 150 {
		t.Fatalf("only %d names", len(out))
	}
	return out
}

// generatedMatchers renders enforce and verified for every name with
// nginx, Apache and Caddy and returns, for each kind and use, the
// user-agent regular expressions as written, one per name in order,
// compiled with Go's regexp case-insensitively (each one's own flag, ~*,
// [NC], m#...#i or (?i), is checked to be there).
func generatedMatchers(t *testing.T, names []string) map[string][]*regexp.Regexp {
	t.Helper()
	var enf []robots.Enforcement
	v := &Verified{ID: "t"}
	for _, n := range names {
		enf = append(enf, robots.Enforcement{Agent: n, Rules: []robots.PathRule{{Path: "/"}}})
		v.Crawlers = append(v.Crawlers, VerifiedCrawler{Name: n, Source: "test", Prefixes: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}})
	}
	rendered, _ := accessTree()
	public, separate, err := RenderAccess(rendered, []Kind{Nginx, Htaccess, Caddy}, Access{Enforce: enf, Verified: v})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string][]*regexp.Regexp{}
	for _, c := range []struct {
		use, text, pattern string
	}{
		{"nginx enforce", string(separate[NginxFile].Data), `if \(\$http_user_agent ~\* "([^"]+)"\)`},
		{"nginx verified", string(separate[NginxVerifiedFile].Data), `"~\*([^"]+)" 1;`},
		{"apache enforce", string(public[HtaccessFile].Data), `RewriteCond %\{HTTP_USER_AGENT\} "([^"]+)" \[NC\]`},
		{"apache verified", string(separate[ApacheVerifiedFile].Data), `%\{HTTP_USER_AGENT\} =~ m#([^#]+)#i`},
		{"caddy enforce", string(separate[CaddyFile].Data), "@discgen_enforce_[0-9_]+ \\{\n\theader_regexp User-Agent `\\(\\?i\\)([^`]+)`"},
		{"caddy verified", string(separate[CaddyFile].Data), "@discgen_verified_[0-9]+ \\{\n\theader_regexp User-Agent `\\(\\?i\\)([^`]+)`"},
	} {
		for _, m := range regexp.MustCompile(c.pattern).FindAllStringSubmatch(c.text, -1) {
			re, err := regexp.Compile("(?i)" + m[1])
			if err != nil {
				t.Fatalf("%s: %q: %v", c.use, m[1], err)
			}
			found[c.use] = append(found[c.use], re)
		}
		if len(found[c.use]) != len(names) {
			t.Fatalf("%s: %d matchers for %d names", c.use, len(found[c.use]), len(names))
		}
	}
	return found
}

// TestTokenMatching runs every generated user-agent matcher against the
// user agents of every catalogued and search crawler: a matcher accepts a
// user agent exactly when the oracle says it claims the name as a token,
// so a name never matches inside another crawler's name (Spider and
// Baiduspider, LCC and SLCC1, OpenAI and openai.com in GPTBot's string).
func TestTokenMatching(t *testing.T) {
	names := tokenNames(t)
	matchers := generatedMatchers(t, names)
	var uas []string
	for _, n := range names {
		uas = append(uas, uaShapes(n)...)
	}
	uas = append(uas, ieSLCC1)
	checked := 0
	for use, res := range matchers {
		for i, re := range res {
			for _, ua := range uas {
				if got, want := re.MatchString(ua), claims(ua, names[i]); got != want {
					t.Errorf("%s: the matcher of %s on %q: %v, want %v", use, names[i], ua, got, want)
				}
				checked++
			}
			for _, ua := range uaShapes(names[i]) {
				if !re.MatchString(ua) {
					t.Errorf("%s: the matcher of %s misses %q", use, names[i], ua)
				}
			}
		}
	}
	t.Logf("%d names, %d user agents, %d matcher runs", len(names), len(uas), checked)

	// The oracle itself, on the cases that broke other generators.
	for _, c := range []struct {
		ua, name string
		want     bool
	}{
		{realUAs["Baiduspider"][0], "Spider", false},
		{ieSLCC1, "LCC", false},
		{realUAs["GPTBot"][0], "OpenAI", false},
		{realUAs["Googlebot-Image"][0], "Googlebot", false},
		{realUAs["Sogou web spider"][0], "Sogou web spider", true},
		{realUAs["Googlebot"][0], "Googlebot", true},
	} {
		if got := claims(c.ua, c.name); got != c.want {
			t.Errorf("claims(%q, %s) = %v", c.ua, c.name, got)
		}
	}
}

// TestTokenMatchingPresets: no preset's matchers, in any generated
// configuration, refuse Baiduspider, Sogou web spider or Internet
// Explorer with SLCC1 unless the crawler is one of the preset's own; and
// no crawler's documented user agent is claimed by a name of a preset
// other than its own.
func TestTokenMatchingPresets(t *testing.T) {
	names := tokenNames(t)
	matchers := generatedMatchers(t, names)
	index := map[string]int{}
	for i, n := range names {
		index[strings.ToLower(n)] = i
	}
	negatives := map[string][]string{ // crawler (or "" for none) -> its user agents
		"Baiduspider":      realUAs["Baiduspider"],
		"Sogou web spider": realUAs["Sogou web spider"],
		"":                 {ieSLCC1},
	}
	for k, v := range realUAs {
		negatives[k] = v
	}
	cat := crawlers.Default()
	for _, p := range cat.Presets() {
		agents, _ := cat.Preset(p)
		for crawler, uas := range negatives {
			own := slices.ContainsFunc(agents, func(a crawlers.Agent) bool { return strings.EqualFold(a.Name, crawler) })
			if own {
				continue
			}
			for _, a := range agents {
				for use, res := range matchers {
					for _, ua := range uas {
						if res[index[strings.ToLower(a.Name)]].MatchString(ua) {
							t.Errorf("preset %s: %s (%s) refuses %q, which is not the preset's", p, a.Name, use, ua)
						}
					}
				}
			}
		}
	}
}
