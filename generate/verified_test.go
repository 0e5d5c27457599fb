package generate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/serverconf"
)

const verifiedSite = `version: 1
site:
  url: https://example.org/
agents:
  - names: [Googlebot, PerplexityBot]
    allow: [/]
    verified: true
  - names: [GPTBot]
    disallow: [/private/]
    verified: true
verified_ranges:
  perplexitybot: files/pb.json
verified_cdn:
  cdn: cloudflare
  header: X-Verified-Bot
`

func loadVerified(t *testing.T, dir string) *model.Site {
	t.Helper()
	doc, errs := manifest.LoadSite(filepath.Join(dir, "site.yaml"), []byte(verifiedSite), "")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	return validated(t, doc)
}

// TestSiteVerified takes Googlebot's and GPTBot's ranges from the shipped
// catalogue and PerplexityBot's from the manifest's file, in order of
// first mention, with the CDN's.
func TestSiteVerified(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "files"), 0o755)
	os.WriteFile(filepath.Join(dir, "files", "pb.json"), []byte(`{"prefixes": [{"ipv4Prefix": "127.0.0.2/32"}]}`), 0o644)
	v, errs := SiteVerified(loadVerified(t, dir), dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, c := range v.Crawlers {
		got = append(got, c.Name)
	}
	if strings.Join(got, " ") != "Googlebot PerplexityBot GPTBot" {
		t.Errorf("crawlers %v", got)
	}
	if len(v.Crawlers[0].Prefixes) < 100 || v.Crawlers[1].Prefixes[0].String() != "127.0.0.2/32" || v.Crawlers[1].Source != "verified_ranges: files/pb.json" {
		t.Errorf("prefixes %d, %v (%s)", len(v.Crawlers[0].Prefixes), v.Crawlers[1].Prefixes, v.Crawlers[1].Source)
	}
	if v.CDN == nil || v.CDN.Header != "X-Verified-Bot" || len(v.CDN.Prefixes) == 0 {
		t.Errorf("CDN %+v", v.CDN)
	}
	if v.ID != "example_org_"+v.ID[len("example_org_"):] || len(v.ID) != len("example_org_")+8 {
		t.Errorf("ID %q", v.ID)
	}
	if siteID("https://a-b.org/") == siteID("https://a.b.org/") {
		t.Error("two hosts share an ID")
	}
}

// TestSiteVerifiedBadFile puts a bad ranges file's error at its own line
// and column, and a missing or escaping file at the manifest's key.
func TestSiteVerifiedBadFile(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"not a network", "{\"prefixes\": [\n  {\"ipv4Prefix\": \"127.0.0.2/24\"}]}", "files/pb.json:2:18: verified_ranges.perplexitybot: ipv4Prefix: \"127.0.0.2/24\" is not a network"},
		{"malformed", "{\"prefixes\": [\n  {\"ipv4Prefix\" \"127.0.0.2/32\"}]}", "files/pb.json:2:17: verified_ranges.perplexitybot: invalid character"},
		{"too large", "{\"prefixes\": [" + strings.Repeat(" ", 1<<20) + "]}", "site.yaml:12:18: verified_ranges.perplexitybot: cannot read \"files/pb.json\": larger than the limit of 1 MiB"},
		{"missing", "", "site.yaml:12:18: verified_ranges.perplexitybot: cannot read \"files/pb.json\": no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "files"), 0o755)
			if c.data != "" {
				os.WriteFile(filepath.Join(dir, "files", "pb.json"), []byte(c.data), 0o644)
			}
			_, errs := SiteVerified(loadVerified(t, dir), dir)
			if !errs.HasErrors() || !strings.Contains(fmt.Sprint(errs), c.want) {
				t.Errorf("errors %v, want %q", errs, c.want)
			}
		})
	}
}

// TestVerifiedWarnings warns at each verified key for _headers only.
func TestVerifiedWarnings(t *testing.T) {
	doc := loadVerified(t, t.TempDir())
	l := VerifiedWarnings(doc, []serverconf.Kind{serverconf.Nginx, serverconf.Headers})
	if len(l) != 2 || l[0].Path != "agents[0].verified" || l[0].Pos.Line != 7 || !strings.Contains(l[0].Message, "_headers") {
		t.Errorf("warnings %v", l)
	}
	if l := VerifiedWarnings(doc, []serverconf.Kind{serverconf.Nginx}); len(l) != 0 {
		t.Errorf("warnings without _headers: %v", l)
	}
}
