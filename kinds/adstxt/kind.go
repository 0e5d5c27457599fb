package adstxt

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Kind is ads.txt or app-ads.txt: the same records and variables, at a
// manifest key and a path of the site's root of its own.
type Kind struct {
	name, key string
	field     func(*manifest.Site) **manifest.AdsTxt
}

// Ads is /ads.txt, from ads_txt; AppAds is /app-ads.txt, from app_ads_txt.
var (
	Ads    = Kind{"ads.txt", "ads_txt", func(s *manifest.Site) **manifest.AdsTxt { return &s.AdsTxt }}
	AppAds = Kind{"app-ads.txt", "app_ads_txt", func(s *manifest.Site) **manifest.AdsTxt { return &s.AppAdsTxt }}
)

func (k Kind) Name() string      { return k.name }
func (k Kind) Key() string       { return k.key }
func (k Kind) Path() string      { return k.name }
func (k Kind) MediaType() string { return "text/plain; charset=utf-8" }

func (k Kind) Given(site *manifest.Site) bool { return *k.field(site) != nil }

func (k Kind) Check(site *manifest.Site, _ kit.Build) []kit.Finding {
	a := *k.field(site)
	if a == nil {
		return nil
	}
	return CheckFile(Model(a))
}

func (k Kind) Render(site *manifest.Site, _ kit.Build) ([]byte, bool) {
	a := *k.field(site)
	if a == nil {
		return nil, false
	}
	return RenderFile(Model(a), k.name), true
}

// Lint lints a hand-written copy line by line (LintFile).
func (k Kind) Lint(data []byte) []diag.Diagnostic { return LintFile(data) }

// Model converts the manifest block to the model.
func Model(a *manifest.AdsTxt) File {
	out := File{
		Contact:                a.Contact,
		Subdomain:              a.Subdomain,
		InventoryPartnerDomain: a.InventoryPartnerDomain,
		OwnerDomain:            a.OwnerDomain,
		ManagerDomain:          a.ManagerDomain,
	}
	for _, r := range a.Records {
		out.Records = append(out.Records, Record(r))
	}
	return out
}
