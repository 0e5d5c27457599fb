package validate_test

import (
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/validate"
)

// TestVerifiedStaleRanges: a verified group whose crawlers' shipped range
// lists were read more than crawlers.RangeMaxAge before the build is
// warned at its verified key, naming the lists; not before then, and not
// for a crawler the manifest gives its own file for.
func TestVerifiedStaleRanges(t *testing.T) {
	src := `version: 1
site:
  url: https://example.org/
agents:
  - names: [GPTBot, OAI-SearchBot]
    verified: true
    disallow: [/]
  - names: [PerplexityBot]
    verified: true
    disallow: [/]
verified_ranges:
  PerplexityBot: perplexity.json
`
	doc, errs := manifest.LoadSite("m.yaml", []byte(src), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	stale := func(now time.Time) map[string]string {
		out := map[string]string{}
		_, verrs := validate.Site(doc, validate.Options{Now: now})
		for _, d := range verrs {
			if strings.Contains(d.Message, "--import-ranges") {
				out[d.Path] = d.Message
			}
		}
		return out
	}
	if got := stale(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)); len(got) != 0 {
		t.Errorf("warned within 90 days of reading: %v", got)
	}
	got := stale(time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC))
	msg := got["agents[0].verified"]
	if len(got) != 1 || !strings.Contains(msg, "openai-gptbot, openai-searchbot") || !strings.Contains(msg, "before 2027-06-01") {
		t.Errorf("warnings %v", got)
	}
}
