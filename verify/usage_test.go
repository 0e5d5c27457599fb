package verify

import (
	"net/http"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"

	"github.com/discgen/discgen/robots"
)

// TestVerifyUsageHeader serves the sample tree with Content-Usage headers
// right, wrong and missing, and checks what verify says of each.
func TestVerifyUsageHeader(t *testing.T) {
	u := &robots.Usage{
		Prefs:        aipref.Prefs{TrainAI: aipref.PrefNo, Search: aipref.PrefYes},
		Paths:        []robots.UsagePath{{Path: "/autodisc/", Prefs: aipref.Prefs{TrainAI: aipref.PrefYes}}},
		ContentUsage: true,
	}
	header := func(value func(path string) string) func(http.ResponseWriter, *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			if v := value(r.URL.Path); v != "" {
				w.Header().Set("Content-Usage", v)
			}
			return false // then serve the file
		}
	}
	right := func(p string) string {
		if strings.HasPrefix(p, "/autodisc/") {
			return "train-ai=y, search=y"
		}
		return "train-ai=n, search=y"
	}
	rs := run(t, false, sampleTree(), header(right), Options{Usage: u})
	if p := problems(rs); len(p) != 1 || !strings.Contains(p["/.well-known/security.txt"], "https") {
		t.Errorf("right headers: problems %v", p)
	}
	for _, r := range rs {
		if len(r.Notes) > 0 {
			t.Errorf("%s: notes %q", r.Path, r.Notes)
		}
	}

	wrong := func(p string) string { return "train-ai=n, search=y" } // no path-scoped value
	p := problems(run(t, false, sampleTree(), header(wrong), Options{Usage: u}))
	if !strings.Contains(p["/autodisc/index.txt"], `Content-Usage "train-ai=n, search=y", want "train-ai=y, search=y"`) || strings.Contains(p["/robots.txt"], "Content-Usage") {
		t.Errorf("wrong headers: problems %v", p)
	}

	rs = run(t, false, sampleTree(), nil, Options{Usage: u})
	notes := 0
	for _, r := range rs {
		for _, n := range r.Notes {
			if strings.Contains(n, "no Content-Usage header") {
				notes++
			}
		}
	}
	if notes != len(rs) || len(problems(rs)) != 1 {
		t.Errorf("missing headers: %d notes for %d files, problems %v", notes, len(rs), problems(rs))
	}

	// Without usage in the manifest, nothing is checked.
	if p := problems(run(t, false, sampleTree(), header(wrong), Options{})); len(p) != 1 {
		t.Errorf("without usage: problems %v", p)
	}
}
