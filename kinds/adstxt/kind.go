package adstxt

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Value is the manifest's ads_txt or app_ads_txt (IAB Tech Lab ads.txt
// 1.1): its records and its variables.
type Value struct {
	Records                []Record       `json:"records"`
	Contact                manifest.Lines `json:"contact,omitempty"`
	Subdomain              manifest.Lines `json:"subdomain,omitempty"`
	InventoryPartnerDomain manifest.Lines `json:"inventorypartnerdomain,omitempty"`
	OwnerDomain            string         `json:"ownerdomain,omitempty"`
	ManagerDomain          manifest.Lines `json:"managerdomain,omitempty"`
}

// Kind is ads.txt or app-ads.txt: the same records and variables, at a
// manifest key and a path of the site's root of its own.
type Kind struct {
	name, key string
}

// Ads returns the kind of /ads.txt, from ads_txt.
func Ads() Kind { return Kind{"ads.txt", "ads_txt"} }

// AppAds returns the kind of /app-ads.txt, from app_ads_txt.
func AppAds() Kind { return Kind{"app-ads.txt", "app_ads_txt"} }

// Value returns the site's value at the kind's key, nil for none.
func (k Kind) Value(site *manifest.Site) *Value { return kit.Value[Value](site, k.key) }

// NewValue returns a new empty value (kit.Owner).
func (Kind) NewValue() any { return new(Value) }

func (k Kind) Name() string      { return k.name }
func (k Kind) Key() string       { return k.key }
func (k Kind) Path() string      { return k.name }
func (k Kind) MediaType() string { return "text/plain; charset=utf-8" }

func (k Kind) Given(site *manifest.Site) bool { return k.Value(site) != nil }

func (k Kind) Check(site *manifest.Site, _ kit.Build) []kit.Finding {
	a := k.Value(site)
	if a == nil {
		return nil
	}
	return CheckFile(Model(a))
}

func (k Kind) Render(site *manifest.Site, _ kit.Build) ([]byte, bool) {
	a := k.Value(site)
	if a == nil {
		return nil, false
	}
	return RenderFile(Model(a), k.name), true
}

// Lint lints a hand-written copy line by line (LintFile).
func (k Kind) Lint(data []byte) []diag.Diagnostic { return LintFile(data) }

// Model converts the manifest block to the model.
func Model(a *Value) File {
	out := File{
		Contact:                a.Contact,
		Subdomain:              a.Subdomain,
		InventoryPartnerDomain: a.InventoryPartnerDomain,
		OwnerDomain:            a.OwnerDomain,
		ManagerDomain:          a.ManagerDomain,
	}
	out.Records = append(out.Records, a.Records...)
	return out
}
