package manifest

import "encoding/json"

// The files of design section 13: small files that sites publish by hand,
// each written from the manifest and checked against its specification.

// AppLinks names the app association files, each a JSON file relative to
// the manifest: Apple's apple-app-site-association and Android's Digital
// Asset Links statement list (assetlinks.json).
type AppLinks struct {
	Apple   string `json:"apple,omitempty"`
	Android string `json:"android,omitempty"`
}

// GPC is /.well-known/gpc.json (W3C Global Privacy Control). GPC is nil
// for the default, true.
type GPC struct {
	GPC        *bool  `json:"gpc,omitempty"`
	LastUpdate string `json:"last_update,omitempty"`
}

// TrafficAdvice is one entry of /.well-known/traffic-advice.
type TrafficAdvice struct {
	UserAgent string       `json:"user_agent"`
	Fraction  *json.Number `json:"fraction,omitempty"`
	Disallow  bool         `json:"disallow,omitempty"`
}

// AdsTxt is /ads.txt or /app-ads.txt (IAB Tech Lab ads.txt 1.1): its
// records and its variables.
type AdsTxt struct {
	Records                []AdsRecord `json:"records"`
	Contact                Lines       `json:"contact,omitempty"`
	Subdomain              Lines       `json:"subdomain,omitempty"`
	InventoryPartnerDomain Lines       `json:"inventorypartnerdomain,omitempty"`
	OwnerDomain            string      `json:"ownerdomain,omitempty"`
	ManagerDomain          Lines       `json:"managerdomain,omitempty"`
}

// AdsRecord is one record of ads.txt: an advertising system, the
// publisher's account in it, the relationship and the certification
// authority ID.
type AdsRecord struct {
	Domain       string `json:"domain"`
	Account      string `json:"account"`
	Relationship string `json:"relationship"`
	Cert         string `json:"cert,omitempty"`
}
