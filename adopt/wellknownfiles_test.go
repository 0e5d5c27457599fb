package adopt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/adstxt"
	"github.com/discgen/discgen/kinds/atprotodid"
	"github.com/discgen/discgen/kinds/gpc"
)

// TestImportHandWrittenSection imports hand-written section 13 files: an
// ads.txt becomes ads_txt, each line it cannot carry reported at its
// line; files the manifest would not build byte for byte stay well-known
// files.
func TestImportHandWrittenSection(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ads.txt": "# our sellers\n" +
			"google.com, pub-1234567890123456, direct, f08c47fec0942fa0\n" +
			"appnexus.com,1234,RESELLER;ext=1\n" +
			"openx.com, 537\n" +
			"SELLER=x\n" +
			"contact=ads@fict.org\n" +
			"OWNERDOMAIN=fict.org\n" +
			"OWNERDOMAIN=other.org\n",
		"app-ads.txt":             "placeholder.example.com, placeholder, DIRECT, placeholder\n",
		".well-known/gpc.json":    `{"gpc": true, "lastUpdate": "2026-01-01"}`,
		".well-known/atproto-did": "did:plc:ewvi7nxzyoun6zhxrhs64oiz\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Dir(dir, Options{Now: goldenNow, SiteURL: "https://www.fict.org/"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Diags.HasErrors() {
		t.Errorf("errors: %v", res.Diags.Errors())
	}
	a := adstxt.Ads().Value(&res.Site)
	if a == nil || len(a.Records) != 2 || a.Records[0].Relationship != "DIRECT" || a.Records[1].Account != "1234" ||
		a.OwnerDomain != "fict.org" || len(a.Contact) != 1 {
		t.Errorf("ads_txt: %+v", a)
	}
	if aa := adstxt.AppAds().Value(&res.Site); aa == nil || aa.Records == nil || len(aa.Records) != 0 {
		t.Errorf("app_ads_txt: %+v, want an empty records list", aa)
	}
	var b strings.Builder
	for _, d := range res.Diags {
		b.WriteString(d.String() + "\n")
	}
	diags := b.String()
	for _, w := range []string{
		"/ads.txt:3:1: warning: the extension field \"ext=1\" is not kept",
		"/ads.txt:4:1: warning: \"openx.com, 537\" is neither a record nor a variable: left out",
		"/ads.txt:5:1: warning: \"SELLER\" is not a variable of ads.txt 1.1: left out",
		"/ads.txt:8:1: warning: a second OWNERDOMAIN",
		"/ads.txt: warning: is rebuilt in discgen's form",
	} {
		if !strings.Contains(diags, w) {
			t.Errorf("missing %q in:\n%s", w, diags)
		}
	}
	if n := strings.Count(diags, "app-ads.txt"); n != 1 || !strings.Contains(diags, "/app-ads.txt: warning: is rebuilt in discgen's form") {
		t.Errorf("app-ads.txt, the placeholder alone, should draw only the warning that discgen's comment is added:\n%s", diags)
	}
	wk := res.Site.WellKnown
	if wk == nil || (gpc.Kind{}).Given(&res.Site) || (atprotodid.Kind{}).Given(&res.Site) || len(wk.Files) != 2 {
		t.Fatalf("well_known: %+v; want gpc.json and atproto-did kept as files", wk)
	}
	y := string(res.YAML)
	for _, w := range []string{"app_ads_txt:\n  records: []\n", "- {domain: appnexus.com, account: \"1234\", relationship: RESELLER}\n"} {
		if !strings.Contains(y, w) {
			t.Errorf("manifest lacks %q:\n%s", w, y)
		}
	}
}
