package adopt

import (
	"os"
	"strings"
	"testing"

	"github.com/discgen/discgen/robots"
)

// TestImportUsage imports files with preference lines, builds the manifest
// and checks that every agent reads, at every probe URL it may fetch, the
// preferences it read in the original (both forms together).
func TestImportUsage(t *testing.T) {
	files := map[string]string{
		"groups and paths": "User-agent: GPTBot\nDisallow: /private/\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y, search=y\n\n" +
			"User-agent: *\nAllow: /\nContent-Signal: search=yes, ai-input=no, ai-train=no\n\nUser-agent: ClaudeBot\nContent-Usage: search=y\nContent-Signal: ai-train=no\nDisallow:\n",
		"conflict": "User-agent: *\nDisallow:\nContent-Usage: train-ai=y\nContent-Signal: ai-train=no, search=yes\n",
	}
	for _, name := range []string{"stellar-docs.txt", "cloudflare-managed-crawlstop.txt"} {
		data, err := os.ReadFile("../robots/testdata/usage/" + name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(data)
	}
	for name, original := range files {
		rebuilt, res := roundTrip(t, name, []byte(original))
		if !strings.Contains(string(res.YAML), "usage:") {
			t.Errorf("%s: no usage in the manifest:\n%s", name, res.YAML)
		}
		of, rf := robots.Parse([]byte(original)), robots.Parse([]byte(rebuilt))
		agents := []string{"zzunlistedbot", "GPTBot", "ClaudeBot", "Amazonbot"}
		compared := 0
		for _, a := range agents {
			for _, u := range []string{"/", "/blog/x", "/private/x", "/lp"} {
				if !of.Match(a, u).Allowed {
					continue
				}
				compared++
				want, got := of.Usage(a, u).Combined(), rf.Usage(a, u).Combined()
				if want != got {
					t.Errorf("%s: %s at %s reads %s in the original, %s rebuilt\n%s\nmanifest:\n%s\nrebuilt:\n%s", name, a, u, want, got, original, res.YAML, rebuilt)
				}
			}
		}
		if compared == 0 {
			t.Errorf("%s: nothing compared", name)
		}
	}
}

// A preference line the manifest cannot hold as written is kept as a
// comment, with a warning at its line.
func TestImportUsageKept(t *testing.T) {
	res, err := Robots("robots.txt", []byte("User-agent: *\nDisallow:\nContent-Signal: search=yes, ai-train=no, use=reference\nContent-Usage: train-ai=maybe\n"), Options{SiteURL: "https://example.com/", Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	y := string(res.YAML)
	if !strings.Contains(y, "line 4, not carried over: Content-Usage: train-ai=maybe") || !strings.Contains(y, "train_ai: \"no\"") && !strings.Contains(y, "train_ai: no") {
		t.Errorf("manifest:\n%s", y)
	}
	found := false
	for _, d := range res.Diags {
		found = found || d.Pos.Line == 4 && strings.Contains(d.Message, "kept as a comment")
	}
	if !found {
		t.Errorf("no warning at line 4: %v", res.Diags)
	}
}

// TestImportUsageKeepsWhatItReads: a preference line with members the
// vocabulary cannot use (an unknown key, a value other than y or n, a key
// given twice, a use other than immediate, reference or full) keeps every
// preference it states, and Content-Signal's use, each problem warned at
// its line, and the rebuilt file says what a reader
// read in the original; a Content-Signal before the first User-agent is
// offered as the site's usage, with a warning that it was outside every
// group.
func TestImportUsageKeepsWhatItReads(t *testing.T) {
	for _, c := range []struct {
		name, file string
		wantYAML   []string
		warnLines  map[int]string
	}{
		{"unknown key", "User-agent: *\nDisallow:\nContent-Usage: train-ai=n, foo=y\n",
			[]string{"train_ai: no"}, map[int]string{3: "unknown category \"foo\""}},
		{"invalid value", "User-agent: *\nDisallow:\nContent-Usage: train-ai=n, search=yes\n",
			[]string{"train_ai: no"}, map[int]string{3: "\"search\" has the value \"yes\""}},
		{"repeated key", "User-agent: *\nDisallow:\nContent-Usage: train-ai=y, train-ai=n\n",
			[]string{"train_ai: no"}, map[int]string{3: "more than once"}},
		{"use", "User-agent: *\nDisallow:\nContent-Signal: search=yes, ai-train=no, use=reference\n",
			[]string{"train_ai: no", "search: yes", "use: reference"}, nil},
		{"use alone", "User-agent: *\nDisallow:\nContent-Signal: use=immediate\n",
			[]string{"use: immediate"}, nil},
		{"use unknown", "User-agent: *\nDisallow:\nContent-Signal: ai-train=no, use=partial\n",
			[]string{"train_ai: no"}, map[int]string{3: "\"use\" has the value \"partial\", not immediate, reference or full"}},
		{"outside every group", "Content-Signal: ai-train=no\n\nUser-agent: *\nDisallow:\n",
			[]string{"usage:\n  train_ai: no"}, map[int]string{1: "outside every group"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Robots("robots.txt", []byte(c.file), Options{SiteURL: "https://example.com/", Now: goldenNow})
			if err != nil {
				t.Fatal(err)
			}
			y := string(res.YAML)
			for _, w := range c.wantYAML {
				if !strings.Contains(y, w) {
					t.Errorf("manifest lacks %q:\n%s", w, y)
				}
			}
			for line, w := range c.warnLines {
				found := false
				for _, d := range res.Diags {
					found = found || d.Pos.Line == line && strings.Contains(d.Message, w)
				}
				if !found {
					t.Errorf("no warning at line %d saying %q: %v", line, w, res.Diags)
				}
			}
			if c.name == "outside every group" {
				return // readers ignored it: the rebuilt file says more, as warned
			}
			rebuilt, _ := roundTrip(t, c.name, []byte(c.file))
			of, rf := robots.Parse([]byte(c.file)), robots.Parse([]byte(rebuilt))
			for _, u := range []string{"/", "/a"} {
				if want, got := of.Usage("otherbot", u).Combined(), rf.Usage("otherbot", u).Combined(); want != got {
					t.Errorf("%s reads %s in the original, %s rebuilt\n%s", u, want, got, rebuilt)
				}
				if want, got := of.Usage("otherbot", u).Use, rf.Usage("otherbot", u).Use; want != got {
					t.Errorf("%s reads use %q in the original, %q rebuilt\n%s", u, want, got, rebuilt)
				}
			}
		})
	}
}
