package crawlers

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/robots"
)

func TestDefaultValid(t *testing.T) {
	c := Default()
	if len(c.Agents) < 100 {
		t.Fatalf("only %d agents", len(c.Agents))
	}
	for _, a := range c.Agents {
		if !robots.IsAgentName(a.Name) {
			t.Errorf("%q is not an agent name robots.txt can carry", a.Name)
		}
	}
	for _, p := range []string{"ai-training", "ai-search", "ai-user", "scrapers", "seo", "search-engines"} {
		if as, ok := c.Preset(p); !ok || len(as) == 0 {
			t.Errorf("preset %s missing or empty", p)
		}
	}
}

// The operators' documented split between training, search and
// user-triggered fetchers.
func TestDocumentedPurposes(t *testing.T) {
	c := Default()
	for name, want := range map[string]string{
		"GPTBot": "ai-training", "OAI-SearchBot": "ai-search", "ChatGPT-User": "ai-user",
		"ClaudeBot": "ai-training", "Claude-SearchBot": "ai-search", "Claude-User": "ai-user",
		"Google-Extended": "ai-training", "Applebot-Extended": "ai-training",
		"PerplexityBot": "ai-search", "Perplexity-User": "ai-user",
		"meta-externalagent": "ai-training", "Meta-ExternalFetcher": "ai-user",
		"CCBot": "ai-training", "AI2Bot": "ai-training", "MJ12bot": "seo",
		"Applebot": "search-engines", "Googlebot": "search-engines", "bingbot": "search-engines",
		"YandexBot": "search-engines", "Baiduspider": "search-engines", "DuckDuckBot": "search-engines",
	} {
		a, ok := c.Lookup(name)
		if !ok {
			t.Errorf("%s is not in the catalogue", name)
			continue
		}
		if a.Purpose != want {
			t.Errorf("%s: purpose %s, want %s", name, a.Purpose, want)
		}
		if a.Operator == "unknown" {
			t.Errorf("%s: operator unknown", name)
		}
	}
	if _, ok := c.Lookup("facebookexternalhit"); ok {
		t.Error("facebookexternalhit (link previews) is in a preset")
	}
}

func TestStale(t *testing.T) {
	c := Default()
	d, _ := time.Parse(time.DateOnly, c.Date)
	if s := c.Stale(d.Add(MaxAge)); s != "" {
		t.Errorf("stale at exactly 180 days: %s", s)
	}
	if s := c.Stale(d.Add(MaxAge + 24*time.Hour)); !strings.Contains(s, "181 days") {
		t.Errorf("Stale = %q", s)
	}
}

func TestParseRejects(t *testing.T) {
	for name, data := range map[string]string{
		"no date":         `{"purposes":{"p":"x"},"agents":[]}`,
		"unknown purpose": `{"date":"2026-01-01","purposes":{"p":"x"},"agents":[{"name":"a","operator":"o","purpose":"q","source":"https://x","checked":""}]}`,
		"twice":           `{"date":"2026-01-01","purposes":{"p":"x"},"agents":[{"name":"a","operator":"o","purpose":"p","source":"https://x","checked":""},{"name":"A","operator":"o","purpose":"p","source":"https://x","checked":""}]}`,
		"bad source":      `{"date":"2026-01-01","purposes":{"p":"x"},"agents":[{"name":"a","operator":"o","purpose":"p","source":"somewhere","checked":""}]}`,
		"bad checked":     `{"date":"2026-01-01","purposes":{"p":"x"},"agents":[{"name":"a","operator":"o","purpose":"p","source":"https://x","checked":"yesterday"}]}`,
		"listed, undated": `{"date":"2026-01-01","sources":{"l":{"date":"2026-01-02"}},"purposes":{"p":"x"},"agents":[{"name":"a","operator":"o","purpose":"p","source":"l","checked":""}]}`,
		"left out, kept":  `{"date":"2026-01-01","purposes":{"p":"x"},"left_out":{"A":"why"},"agents":[{"name":"a","operator":"o","purpose":"p","source":"https://x","checked":""}]}`,
	} {
		if _, err := Parse([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestNoticeMatchesCatalogue checks what NOTICE.md says of the catalogue:
// documentation URLs were not fetched, so an agent they source is not
// dated as checked; an agent of a listed source carries that source's
// date, and the notice names the source's commit; every token left out is
// named with its reason.
func TestNoticeMatchesCatalogue(t *testing.T) {
	data, err := os.ReadFile("NOTICE.md")
	if err != nil {
		t.Fatal(err)
	}
	notice := string(data)
	c := Default()
	for _, want := range []string{"were **not fetched**", "compiled on its `date` (" + c.Date + ")", "recorded on " + Search().Recorded} {
		if !strings.Contains(notice, want) {
			t.Errorf("NOTICE.md does not say %q", want)
		}
	}
	for key, s := range c.Sources {
		if !strings.Contains(notice, s.Commit) || !strings.Contains(notice, s.Date) {
			t.Errorf("NOTICE.md does not name %s's commit %s of %s", key, s.Commit, s.Date)
		}
	}
	for name := range c.LeftOut {
		if !strings.Contains(notice, "`"+name+"`") {
			t.Errorf("NOTICE.md does not name %s, left out", name)
		}
	}
	for _, a := range c.Agents {
		want := ""
		if s, ok := c.Sources[a.Source]; ok {
			want = s.Date
		}
		if a.Checked != want {
			t.Errorf("%s (source %s) is dated checked %q, want %q", a.Name, a.Source, a.Checked, want)
		}
	}
}

// TestUnknownOperatorsNamed: every agent whose operator is unknown is
// named in NOTICE.md's list of them, and only those, so the notice cannot
// drift from the data. An entry with a documentation URL always names its
// operator.
func TestUnknownOperatorsNamed(t *testing.T) {
	data, err := os.ReadFile("NOTICE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(strings.Join(strings.Fields(string(data)), " "), "their `operator` is `unknown`: ")
	listed, _, _ := strings.Cut(rest, ". ")
	if !ok || listed == "" {
		t.Fatal("NOTICE.md lists no agents of unknown operator")
	}
	inNotice := map[string]bool{}
	for _, n := range strings.Split(listed, ", ") {
		inNotice[n] = true
	}
	for _, a := range Default().Agents {
		unknown := a.Operator == "unknown"
		if unknown != inNotice[a.Name] {
			t.Errorf("%s: operator %q, named in the notice's unknown list: %v", a.Name, a.Operator, inNotice[a.Name])
		}
		if unknown && strings.HasPrefix(a.Source, "https://") {
			t.Errorf("%s: its documentation page %s names no operator?", a.Name, a.Source)
		}
		delete(inNotice, a.Name)
	}
	for n := range inNotice {
		t.Errorf("the notice lists %s, which is not an agent", n)
	}
}

// TestRangeStale: a range list read more than RangeMaxAge before now is
// named, with the day it was read and how old it is; lists read the same
// day share one sentence; keys limits the lists looked at.
func TestRangeStale(t *testing.T) {
	c, err := ParseRangeCatalogue(readTestdata(t, "ranges-catalogue.json"))
	if err != nil {
		t.Fatal(err)
	}
	read := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if got := c.Stale(read.Add(RangeMaxAge)); len(got) != 0 {
		t.Errorf("stale at exactly %v: %q", RangeMaxAge, got)
	}
	got := c.Stale(read.Add(RangeMaxAge + 24*time.Hour))
	if len(got) != 1 || !strings.Contains(got[0], "openai-gptbot") || !strings.Contains(got[0], "read on 2026-11-01, 91 days before 2027-01-31") || !strings.Contains(got[0], "--import-ranges") {
		t.Errorf("Stale = %q", got)
	}
	if got := c.Stale(read.AddDate(1, 0, 0), "nosuch"); len(got) != 0 {
		t.Errorf("a list not asked for: %q", got)
	}
}

// TestStaleLists names each shipped list older than its age: none on the
// day the catalogues were compiled, all three kinds two years on.
func TestStaleLists(t *testing.T) {
	d, _ := time.Parse(time.DateOnly, Default().Date)
	if got := StaleLists(d); len(got) != 0 {
		t.Errorf("stale on the catalogue's own day: %q", got)
	}
	got := strings.Join(StaleLists(d.AddDate(2, 0, 0)), "\n")
	for _, want := range []string{"the crawler catalogue is from " + Default().Date, "the search crawler list was recorded on " + Search().Recorded, "the range lists ", "googlebot", "openai-adsbot"} {
		if !strings.Contains(got, want) {
			t.Errorf("StaleLists does not say %q:\n%s", want, got)
		}
	}
}
