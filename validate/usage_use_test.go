package validate_test

import (
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/validate"
)

// TestUsageUseChecked: usage.use takes Cloudflare's content-use levels
// (immediate, reference, full) and nothing else, at its position; with
// formats that leave out content-signal it is warned as not written.
func TestUsageUseChecked(t *testing.T) {
	for _, c := range []struct{ usage, want string }{
		{"{use: reference}", ""},
		{"{train_ai: no, use: immediate}", ""},
		{"{use: partial}", "site.yaml:3:14: usage.use: "},
		{"{use: full, formats: [content-usage]}", "site.yaml:3:14: warning: usage.use: use is not written: formats has no content-signal"},
	} {
		src := "version: 1\nsite: {url: \"https://example.org/\"}\nusage: " + c.usage + "\nagents:\n  - names: [\"*\"]\n    disallow: []\n"
		doc, errs := manifest.LoadSite("site.yaml", []byte(src), "")
		var got []string
		for _, d := range errs {
			got = append(got, d.String())
		}
		if doc != nil {
			_, verrs := validate.Site(doc, validate.Options{Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
			for _, d := range verrs {
				got = append(got, d.String())
			}
		}
		s := strings.Join(got, "\n")
		if c.want == "" && s != "" || c.want != "" && !strings.Contains(s, c.want) {
			t.Errorf("usage %s:\n%s\nwant %q", c.usage, s, c.want)
		}
	}
}
