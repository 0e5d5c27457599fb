package generate

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/validate"
)

// TestUsageUse: usage.use (Content-Signal's "use" key, Cloudflare's
// content-use level) is written on the Content-Signal line of every group
// the usage reaches, the group's winning over the site's, and alone when
// no other preference is stated; Content-Usage, which has no such key,
// is unchanged.
func TestUsageUse(t *testing.T) {
	src := `version: 1
site: {url: "https://example.org/"}
usage: {search: yes, ai_train: no, use: reference}
agents:
  - names: [GPTBot]
    disallow: [/]
    usage: {use: full}
  - names: ["*"]
    disallow: []
`
	src = strings.Replace(src, "ai_train", "train_ai", 1)
	doc, errs := manifest.LoadSite("site.yaml", []byte(src), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	m, verrs := validate.Site(doc, validate.Options{Now: now})
	if m == nil {
		t.Fatalf("validate: %v", verrs)
	}
	data, derrs := siteRobots(m.Doc())
	if derrs.HasErrors() {
		t.Fatal(derrs)
	}
	for _, want := range []string{
		"User-agent: GPTBot\nDisallow: /\nContent-Usage: train-ai=n, search=y\nContent-Signal: search=yes, ai-train=no, use=full\n",
		"User-agent: *\nDisallow:\nContent-Usage: train-ai=n, search=y\nContent-Signal: search=yes, ai-train=no, use=reference\n",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("robots.txt lacks\n%s\nin\n%s", want, data)
		}
	}
	f := robots.Parse(data)
	if u := f.Usage("SomeBot", "/"); u.Use != "reference" {
		t.Errorf("use read back: %q", u.Use)
	}
	if got := (&robots.Usage{Use: "immediate", ContentSignal: true}).Lines(); len(got) != 1 || got[0] != "Content-Signal: use=immediate" {
		t.Errorf("use alone: %q", got)
	}
}
