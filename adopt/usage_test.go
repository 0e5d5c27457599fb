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
