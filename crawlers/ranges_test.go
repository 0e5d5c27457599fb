package crawlers

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
)

// TestParseRangesGoogle reads a copy of Google's googlebot.json (see
// testdata/README.md): every prefix, sorted and unique, the creationTime
// kept.
func TestParseRangesGoogle(t *testing.T) {
	rl, err := ParseRanges(readTestdata(t, "ranges-googlebot.json"))
	if err != nil {
		t.Fatal(err)
	}
	if rl.CreationTime != "2026-08-20T14:46:45.000000" {
		t.Errorf("creationTime %q", rl.CreationTime)
	}
	if n := strings.Count(string(readTestdata(t, "ranges-googlebot.json")), "Prefix\""); len(rl.Prefixes) != n {
		t.Errorf("%d prefixes, the file has %d", len(rl.Prefixes), n)
	}
	for i := 1; i < len(rl.Prefixes); i++ {
		if comparePrefix(rl.Prefixes[i-1], rl.Prefixes[i]) >= 0 {
			t.Fatalf("not sorted at %d: %s %s", i, rl.Prefixes[i-1], rl.Prefixes[i])
		}
	}
	want := netip.MustParsePrefix("66.249.64.0/27")
	found := false
	for _, p := range rl.Prefixes {
		found = found || p == want
	}
	if !found {
		t.Errorf("%s not read", want)
	}
}

// TestParseRangesJAFAR reads the draft's members it does not use past.
func TestParseRangesJAFAR(t *testing.T) {
	in := `{"formatVersion": "1.0", "syncToken": "1", "creationTime": "2026-01-01T00:00:00Z", "extra": {"a": [1, {"b": 2}]},
  "prefixes": [{"ipv6Prefix": "2001:db8::/32", "note": ["x"]}, {"ipv4Prefix": "192.0.2.0/24"}]}`
	rl, err := ParseRanges([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(rl.Prefixes); got != 2 || rl.Prefixes[0].String() != "192.0.2.0/24" {
		t.Errorf("got %v", rl.Prefixes)
	}
}

// TestParseRangesErrors puts each bad input at its line and column.
func TestParseRangesErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"syntax", "{\n  \"prefixes\": [\n    {\"ipv4Prefix\": \"1.2.3.0/24\"},,\n", "3:34: invalid character ','"},
		{"truncated", "{\"prefixes\": [", "1:15: unexpected end of JSON input"},
		{"not object", "[1]", "1:1: not a ranges file"},
		{"no prefixes", "{\"creationTime\": \"x\"}", "1:1: no \"prefixes\""},
		{"empty", "{\"prefixes\": []}", "1:1: no prefixes"},
		{"prefixes not array", "{\"prefixes\": {}}", "1:14: prefixes must be an array"},
		{"entry not object", "{\"prefixes\": [\"1.2.3.0/24\"]}", "1:15: a prefixes entry must be an object"},
		{"neither", "{\"prefixes\": [{\"ip\": \"1.2.3.0/24\"}]}", "1:34: an entry with neither"},
		{"both", "{\"prefixes\": [{\"ipv4Prefix\": \"1.2.3.0/24\", \"ipv6Prefix\": \"2001:db8::/32\"}]}", "1:44: an entry holds one prefix"},
		{"not a network", "{\"prefixes\": [\n {\"ipv4Prefix\": \"66.249.64.1/27\"}]}", "2:17: ipv4Prefix: \"66.249.64.1/27\" is not a network: it has bits set past /27 (the network is 66.249.64.0/27)"},
		{"not a prefix", "{\"prefixes\": [{\"ipv4Prefix\": \"66.249.64.1\"}]}", "1:30: ipv4Prefix: \"66.249.64.1\" is not an address prefix"},
		{"wrong family", "{\"prefixes\": [{\"ipv4Prefix\": \"2001:db8::/32\"}]}", "1:30: ipv4Prefix: \"2001:db8::/32\" is not an IPv4 prefix"},
		{"wrong family 6", "{\"prefixes\": [{\"ipv6Prefix\": \"::ffff:1.2.3.0/120\"}]}", "is not an IPv6 prefix"},
		{"too broad", "{\"prefixes\": [{\"ipv4Prefix\": \"0.0.0.0/0\"}]}", "1:30: ipv4Prefix: \"0.0.0.0/0\" covers too much to identify a crawler (shorter than /8)"},
		{"too broad 6", "{\"prefixes\": [{\"ipv6Prefix\": \"2000::/3\"}]}", "shorter than /16"},
		{"not string", "{\"prefixes\": [{\"ipv4Prefix\": 1}]}", "1:30: ipv4Prefix must be a string"},
		{"time not string", "{\"creationTime\": 1, \"prefixes\": []}", "1:18: creationTime must be a string"},
		{"trailing", "{\"prefixes\": [{\"ipv4Prefix\": \"1.2.3.0/24\"}]} x", "1:46: text after the JSON object"},
		{"column in characters", "{\"é\": \"é\", \"prefixes\": [{\"ipv4Prefix\": \"1.2.3.4/24\"}]}", "1:40: ipv4Prefix: \"1.2.3.4/24\" is not a network"},
		{"not utf-8", "{\"prefixes\": \"\xff\"}", "1:1: not UTF-8 text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseRanges([]byte(c.in))
			var re *RangeError
			if !errors.As(err, &re) {
				t.Fatalf("error %v (%T), want a *RangeError", err, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want %q", err, c.want)
			}
		})
	}
}

// TestParseRangesLimits refuses a file over the size limit before reading
// it, and more than MaxPrefixes prefixes at the first one too many.
func TestParseRangesLimits(t *testing.T) {
	big := append([]byte(`{"prefixes": [`), bytes.Repeat([]byte(" "), MaxRangesSize)...)
	if _, err := ParseRanges(big); err == nil || !strings.Contains(err.Error(), "1:1: ") || !strings.Contains(err.Error(), "more than the 1048576 a ranges file may hold") {
		t.Errorf("over the size limit: %v", err)
	}
	var b strings.Builder
	b.WriteString(`{"prefixes": [`)
	for i := range MaxPrefixes + 1 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"ipv6Prefix": "2001:db8:%x::/48"}`, i)
	}
	b.WriteString("]}")
	_, err := ParseRanges([]byte(b.String()))
	if err == nil || !strings.HasPrefix(err.Error(), "10001:1: more than 10000 prefixes") {
		t.Errorf("too many prefixes: %v", err)
	}
}

// TestShippedRanges checks the shipped range catalogue: it parses, is in
// FormatRanges' layout, and every crawler it names is catalogued.
func TestShippedRanges(t *testing.T) {
	c := DefaultRanges()
	if got := FormatRanges(c); !bytes.Equal(got, rangesJSON) {
		t.Errorf("ranges.json is not in FormatRanges' layout; rewrite it with discgen presets --import-ranges, or FormatRanges")
	}
	for key, s := range c.Lists {
		for _, n := range s.Crawlers {
			_, inCatalogue := Default().Lookup(n)
			if !inCatalogue && !slices.ContainsFunc(Search().Crawlers, func(s SearchCrawler) bool { return strings.EqualFold(s.Name, n) }) {
				t.Errorf("list %s: %s is in neither crawler catalogue", key, n)
			}
			if k, ps, ok := c.For(strings.ToUpper(n)); !ok || k != key || len(ps) != len(s.Prefixes) {
				t.Errorf("For(%s) = %s, %d prefixes, %v", n, k, len(ps), ok)
			}
		}
	}
	if _, _, ok := c.For("Baiduspider"); ok {
		t.Error("Baiduspider has no published ranges")
	}
	if ps, ok := c.CDN("cloudflare"); !ok || len(ps) == 0 {
		t.Error("no Cloudflare ranges")
	}
}

// TestImportRangesGolden refreshes a list from a downloaded file: the
// differences shown and the catalogue written are the golden files.
func TestImportRangesGolden(t *testing.T) {
	c, err := ParseRangeCatalogue(readTestdata(t, "ranges-catalogue.json"))
	if err != nil {
		t.Fatal(err)
	}
	rl, err := ParseRanges(readTestdata(t, "ranges-gptbot-new.json"))
	if err != nil {
		t.Fatal(err)
	}
	n, d, err := ImportRanges(c, "openai-gptbot", rl, "2026-11-27", "new copy")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := d.Write(&out); err != nil {
		t.Fatal(err)
	}
	golden(t, "ranges-import.golden", out.Bytes())
	golden(t, "ranges-catalogue.golden.json", FormatRanges(n))
	if len(d.Added) != 1 || len(d.Removed) != 1 || d.Unchanged != 2 {
		t.Errorf("added %v removed %v unchanged %d", d.Added, d.Removed, d.Unchanged)
	}
	if got := c.Lists["openai-gptbot"].Read; got != "2026-11-01" {
		t.Errorf("the old catalogue changed: read %s", got)
	}
	if _, _, err := ImportRanges(c, "nosuch", rl, "2026-11-27", ""); err == nil || !strings.Contains(err.Error(), "its lists: openai-gptbot") {
		t.Errorf("unknown list: %v", err)
	}
	if _, _, err := ImportRanges(c, "openai-gptbot", rl, "27/11/2026", ""); err == nil {
		t.Error("a bad date was taken")
	}
}

// TestShippedRanges2026 checks the lists published in 2026 that the range
// catalogue reads: OpenAI's adsbot.json (OAI-AdsBot) and
// chatgpt-connectors.json (no crawler: the addresses ChatGPT's
// connectors call from), Mistral's index list (MistralAI-Index),
// Anthropic's one list for its three crawlers and Google's
// user-triggered-agents.json; each dated and its crawlers catalogued.
func TestShippedRanges2026(t *testing.T) {
	c := DefaultRanges()
	for name, want := range map[string]struct {
		key, prefix string
	}{
		"OAI-AdsBot":       {"openai-adsbot", "130.131.229.128/25"},
		"MistralAI-Index":  {"mistralai-index", "135.225.57.92/32"},
		"ClaudeBot":        {"anthropic", "216.73.216.0/22"},
		"Claude-SearchBot": {"anthropic", "216.73.216.0/22"},
		"Claude-User":      {"anthropic", "216.73.216.0/22"},
		"Google-Agent":     {"google-user-triggered-agents", ""},
	} {
		key, ps, ok := c.For(name)
		if !ok || key != want.key {
			t.Errorf("For(%s) = %q, %v; want list %s", name, key, ok, want.key)
			continue
		}
		if want.prefix != "" && !slices.Contains(ps, netip.MustParsePrefix(want.prefix)) {
			t.Errorf("%s: %s not in list %s", name, want.prefix, key)
		}
		if s := c.Lists[key]; s.Read == "" || s.CreationTime == "" || !strings.Contains(s.Copy, "commit") {
			t.Errorf("list %s is not dated: read %q, creationTime %q, copy %q", key, s.Read, s.CreationTime, s.Copy)
		}
	}
	s, ok := c.Lists["openai-chatgpt-connectors"]
	if !ok {
		t.Fatal("no list openai-chatgpt-connectors")
	}
	if len(s.Crawlers) != 0 || s.URL != "https://openai.com/chatgpt-connectors.json" || len(s.Prefixes) != 261 || s.CreationTime != "2026-08-14T20:12:18.369436" {
		t.Errorf("openai-chatgpt-connectors: crawlers %v, url %s, %d prefixes, created %s", s.Crawlers, s.URL, len(s.Prefixes), s.CreationTime)
	}
	if a, ok := Default().Lookup("MistralAI-Index"); !ok || a.Purpose != "ai-search" || a.Operator != "Mistral AI" {
		t.Errorf("MistralAI-Index in the catalogue: %+v, %v", a, ok)
	}
	if _, ok := Default().Lookup("OAI-AdsBot"); ok {
		t.Error("OAI-AdsBot (ad landing pages) is in a preset")
	}
	if !slices.ContainsFunc(Search().Crawlers, func(s SearchCrawler) bool { return s.Name == "OAI-AdsBot" && s.Operator == "OpenAI" }) {
		t.Error("OAI-AdsBot is not among the named crawlers beside the presets")
	}
}

// TestParseRangesServices reads the services a JAFAR file attributes each
// prefix to (its "services" array, or the single "service" string of
// draft-illyes-aipref-jafar-00), and Only keeps one service's prefixes,
// so that one list can be taken from a file that serves several.
func TestParseRangesServices(t *testing.T) {
	rl, err := ParseRanges(readTestdata(t, "ranges-jafar-services.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rl.ServiceNames(), ","); got != "ExampleAdsBot,ExampleBot,ExampleBot-User" {
		t.Errorf("services %s", got)
	}
	for svc, want := range map[string]string{
		"ExampleBot":      "192.0.2.0/25 192.0.2.128/25",
		"ExampleBot-User": "192.0.2.128/25 2001:db8:1::/48",
		"ExampleAdsBot":   "198.51.100.0/24",
	} {
		only, err := rl.Only(svc)
		if err != nil {
			t.Errorf("Only(%s): %v", svc, err)
			continue
		}
		if got := fmt.Sprint(only.Prefixes); got != "["+want+"]" {
			t.Errorf("Only(%s) = %s, want [%s]", svc, got, want)
		}
		if only.CreationTime != rl.CreationTime {
			t.Errorf("Only(%s) lost the creationTime", svc)
		}
	}
	if _, err := rl.Only("NoSuchBot"); err == nil || !strings.Contains(err.Error(), "ExampleAdsBot, ExampleBot, ExampleBot-User") {
		t.Errorf("Only(NoSuchBot): %v", err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"prefixes": [{"ipv4Prefix": "192.0.2.0/24", "services": "ExampleBot"}]}`, "1:58: services must be an array of strings"},
		{`{"prefixes": [{"ipv4Prefix": "192.0.2.0/24", "services": ["a", 1]}]}`, "1:64: services must be an array of strings"},
		{`{"prefixes": [{"ipv4Prefix": "192.0.2.0/24", "service": ["a"]}]}`, "1:57: service must be a string"},
		{`{"prefixes": [{"ipv4Prefix": "192.0.2.0/24", "services": [""]}]}`, "1:59: a service name is empty"},
	} {
		_, err := ParseRanges([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", c.in, err, c.want)
		}
	}
}
