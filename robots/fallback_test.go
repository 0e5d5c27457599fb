package robots

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestFallbackVectors runs the documented cases of testdata/fallbacks, one
// subtest each: the RFC 9309 verdict for the token as written, and the
// verdict and group of the operator's documented reading.
func TestFallbackVectors(t *testing.T) {
	files, err := filepath.Glob("testdata/fallbacks/*.txtar")
	if err != nil || len(files) < 10 {
		t.Fatalf("found %d vectors (%v), want at least 10", len(files), err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			head := map[string]string{}
			for _, l := range strings.Split(strings.TrimSpace(string(a.Comment)), "\n") {
				k, v, ok := strings.Cut(l, ": ")
				if !ok {
					t.Fatalf("bad header line %q", l)
				}
				head[k] = v
			}
			for _, k := range []string{"source", "agent", "url", "rfc9309", "operator", "group"} {
				if head[k] == "" {
					t.Fatalf("no %s: line", k)
				}
			}
			if len(a.Files) != 1 || a.Files[0].Name != "robots.txt" {
				t.Fatal("want one file, robots.txt")
			}
			f := Parse(a.Files[0].Data)
			agent, url := head["agent"], head["url"]
			if got := word(f.Match(agent, url).Allowed, ""); got != head["rfc9309"] {
				t.Errorf("RFC 9309: %s, want %s", got, head["rfc9309"])
			}
			r, ok := f.MatchOperator(agent, url)
			if !ok {
				t.Fatalf("no documented reading for %s", agent)
			}
			prefix := ""
			if r.Fallback.Control {
				prefix = "use-"
			}
			if got := word(r.Verdict.Allowed, prefix); got != head["operator"] {
				t.Errorf("%s (%s): %s, want %s", r.Fallback.Crawler, head["source"], got, head["operator"])
			}
			if r.Group != head["group"] {
				t.Errorf("group %q, want %q (%s)", r.Group, head["group"], head["source"])
			}
			if !strings.HasPrefix(r.Fallback.Source, strings.SplitN(head["source"], "#", 2)[0]) {
				t.Errorf("the reading cites %s, the vector %s", r.Fallback.Source, head["source"])
			}
		})
	}
}

func word(allowed bool, prefix string) string {
	if allowed {
		return prefix + "allowed"
	}
	return prefix + "disallowed"
}

func TestFallbackData(t *testing.T) {
	seen := map[string]bool{}
	for _, fb := range Fallbacks() {
		k := strings.ToLower(fb.Token)
		if seen[k] {
			t.Errorf("%s listed twice", fb.Token)
		}
		seen[k] = true
		if !strings.HasPrefix(fb.Source, "https://") || fb.Seen == "" || len(fb.Recorded) != len("2006-01-02") {
			t.Errorf("%s: source %q, recorded %q, seen %q: each entry names its source, its date and what was read", fb.Token, fb.Source, fb.Recorded, fb.Seen)
		}
		if !fb.Control && fb.Crawler == "" {
			t.Errorf("%s: a fallback names the crawler that reads it", fb.Token)
		}
	}
	for _, want := range []string{"googlebot-image", "googlebot-news", "googlebot-video", "google-extended", "applebot-extended"} {
		if !seen[want] {
			t.Errorf("%s missing", want)
		}
	}
	if _, ok := FallbackFor("Googlebot"); ok {
		t.Error("Googlebot has no fallback: it is the group others fall back to")
	}
	if fb, ok := FallbackFor("Googlebot-Image/1.0"); !ok || fb.Token != "Googlebot-Image" {
		t.Errorf("FallbackFor(Googlebot-Image/1.0) = %v, %v", fb, ok)
	}
}

// TestFallbackUsage checks that the operator's reading reads the usage
// preferences of the group it obeys.
func TestFallbackUsage(t *testing.T) {
	f := Parse([]byte("User-agent: Googlebot\nAllow: /\nContent-Signal: ai-train=no\n\nUser-agent: *\nDisallow: /\n"))
	r, ok := f.MatchOperator("Googlebot-Image", "/a")
	if !ok || !r.Changed() || !r.Verdict.Allowed {
		t.Fatalf("reading %+v, %v", r, ok)
	}
	u := f.UsageOperator(r, "/a")
	if u.Combined().TrainAI != aipref.PrefNo || len(u.Lines) != 1 || u.Lines[0].Num != 3 {
		t.Errorf("usage %+v, want ai-train=no from line 3", u)
	}
	if d := r.Describe() + " " + r.Fallback.Documented(); !strings.Contains(d, "obeys the Googlebot group") || !strings.Contains(d, "as documented at https://") {
		t.Errorf("Describe() = %q", d)
	}
}

// TestMatchEffective checks which reading applies: RFC 9309 for an agent
// with no documented reading or whose reading picks the same groups, the
// operator's where it picks others, and always for a control token.
func TestMatchEffective(t *testing.T) {
	f := Parse([]byte("User-agent: Googlebot\nAllow: /p/\n\nUser-agent: *\nDisallow: /\n"))
	for _, c := range []struct {
		agent    string
		allowed  bool
		operator bool
		changed  bool
	}{
		{"bingbot", false, false, false},
		{"Googlebot", true, false, false},
		{"Googlebot-Image", true, true, true},
		{"Googlebot-News/2.1", true, true, true},
		{"Google-Extended", false, true, false},
		{"Applebot", true, true, true},
	} {
		v, op := f.MatchEffective(c.agent, "/p/x")
		if v.Allowed != c.allowed || (op != nil) != c.operator || op != nil && op.Changed() != c.changed {
			t.Errorf("%s: allowed %v, reading %+v; want allowed %v, operator %v, changed %v", c.agent, v.Allowed, op, c.allowed, c.operator, c.changed)
		}
	}
	if v, _ := f.MatchEffective("Googlebot-Image", "/robots.txt"); !v.Allowed {
		t.Error("/robots.txt is always allowed")
	}
}
