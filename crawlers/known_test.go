package crawlers

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestSearchEnginesPreset: the search-engines preset holds the major
// search crawlers, each as the search list records it (same operator and
// documentation page), and Applebot, Apple's search crawler, is there and
// not under ai-search.
func TestSearchEnginesPreset(t *testing.T) {
	c := Default()
	as, ok := c.Preset("search-engines")
	if !ok {
		t.Fatal("no search-engines preset")
	}
	listed := map[string]SearchCrawler{}
	for _, s := range Search().Crawlers {
		listed[strings.ToLower(s.Name)] = s
	}
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
		s, ok := listed[strings.ToLower(a.Name)]
		if !ok {
			t.Errorf("%s is in search-engines but not in the search crawler list", a.Name)
		} else if s.Operator != a.Operator || s.Source != a.Source {
			t.Errorf("%s: catalogue says %s (%s), the search list %s (%s)", a.Name, a.Operator, a.Source, s.Operator, s.Source)
		}
	}
	for _, want := range []string{"Googlebot", "bingbot", "Applebot", "YandexBot", "Baiduspider", "DuckDuckBot", "Yeti", "SeznamBot", "Slurp"} {
		if !slices.Contains(names, want) {
			t.Errorf("search-engines lacks %s: %v", want, names)
		}
	}
}

// TestNoPresetNameInsideSearchCrawlers: no agent a preset writes is part
// of a major search crawler's name (unless that crawler is documented to
// follow it), so that no preset hands its rules to a search engine under
// readers that match by substring. Spider (Baiduspider, Sogou web spider)
// was one.
func TestNoPresetNameInsideSearchCrawlers(t *testing.T) {
	for _, a := range Default().Agents {
		n := strings.ToLower(a.Name)
		for _, s := range Search().Crawlers {
			o := strings.ToLower(s.Name)
			if o != n && strings.Contains(o, n) && !strings.EqualFold(s.Follows, a.Name) {
				t.Errorf("%s (%s) is part of the search crawler %s (%s)", a.Name, a.Purpose, s.Name, s.Operator)
			}
		}
	}
}

// TestIndexHoldingMatchesBruteForce: for every known name and every part
// of one, Holding returns exactly the names that hold it, as a comparison
// of all pairs finds them, in the order of the index.
func TestIndexHoldingMatchesBruteForce(t *testing.T) {
	var cs []Crawler
	for _, a := range Default().Agents {
		if !a.Control {
			cs = append(cs, Crawler{Name: a.Name})
		}
	}
	for _, s := range Search().Crawlers {
		if !slices.ContainsFunc(cs, func(c Crawler) bool { return strings.EqualFold(c.Name, s.Name) }) {
			cs = append(cs, Crawler{Name: s.Name})
		}
	}
	ix := Known()
	probes := map[string]bool{"spider": true, "BOT": true, "x": true, "": true, "nosuchcrawlername": true}
	for _, c := range cs {
		probes[c.Name] = true
		if len(c.Name) > 3 {
			probes[c.Name[1:len(c.Name)-1]] = true
		}
	}
	for p := range probes {
		var want []string
		for _, c := range cs {
			if l, k := strings.ToLower(c.Name), strings.ToLower(p); p != "" && l != k && strings.Contains(l, k) {
				want = append(want, c.Name)
			}
		}
		held := ix.Holding(p)
		if again := ix.Holding(strings.ToUpper(p)); !slices.Equal(again, held) {
			t.Errorf("Holding(%q) = %v, then %v", p, held, again)
		}
		at := -1
		for _, c := range held {
			i := slices.IndexFunc(ix.crawlers, func(d Crawler) bool { return d.Name == c.Name })
			if i <= at {
				t.Errorf("Holding(%q) = %v: not in the order of the index", p, held)
			}
			at = i
		}
		got := sortedNames(held)
		slices.SortFunc(want, byName)
		if !slices.Equal(got, want) {
			t.Errorf("Holding(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestCatalogueFormatted: the shipped file is in Format's layout, so a
// refreshed catalogue diffs line by line.
func TestCatalogueFormatted(t *testing.T) {
	data, err := os.ReadFile("catalogue.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := Format(Default()); !bytes.Equal(got, data) {
		t.Error("catalogue.json is not in Format's layout; rewrite it with discgen presets --import or Format")
	}
}

func TestParseSearchRejects(t *testing.T) {
	for name, data := range map[string]string{
		"no date":   `{"crawlers":[]}`,
		"no source": `{"recorded":"2026-01-01","crawlers":[{"name":"a","operator":"o"}]}`,
		"twice":     `{"recorded":"2026-01-01","crawlers":[{"name":"a","operator":"o","source":"https://x"},{"name":"A","operator":"o","source":"https://x"}]}`,
		"follows":   `{"recorded":"2026-01-01","crawlers":[{"name":"a","operator":"o","source":"https://x","follows":"b"}]}`,
	} {
		if _, err := ParseSearch([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// sortedNames returns the names of crawlers, sorted case-insensitively.
func sortedNames(cs []Crawler) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	slices.SortFunc(out, byName)
	return out
}

// TestKnownFirstUse: the index of known crawlers costs its first user a
// few allocations, not the decoding of the search list and the building of
// the index (455 allocations and 62 KB when it was made at first use).
func TestKnownFirstUse(t *testing.T) {
	Default() // the catalogue, which a build loads anyway
	if n := testing.AllocsPerRun(1, func() { makeKnown() }); n > 4 {
		t.Errorf("making the index of known crawlers: %v allocations, want at most 4", n)
	}
}

func BenchmarkKnownFirstUse(b *testing.B) {
	Default()
	b.ReportAllocs()
	for b.Loop() {
		makeKnown()
	}
}
