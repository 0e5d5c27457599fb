package serverconf

import (
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/crawlers"
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

// TestTokenMatchingPresets: no preset's matchers, in any generated
// configuration, refuse Baiduspider, Sogou web spider or Internet
// Explorer with SLCC1 unless the crawler is one of the preset's own; and
// no crawler's documented user agent is claimed by a name of a preset
// other than its own.
func TestTokenMatchingPresets(t *testing.T) {
	names := tokenNames(t)
	matchers := extractUAMatchers(t, names)
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
				for _, m := range matchers[index[strings.ToLower(a.Name)]] {
					for _, ua := range uas {
						if m.match(ua) {
							t.Errorf("preset %s: %s (%s) refuses %q, which is not the preset's", p, a.Name, m.use, ua)
						}
					}
				}
			}
		}
	}
}
