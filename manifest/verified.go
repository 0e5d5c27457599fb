package manifest

// VerifiedCDN is a CDN whose verified-bot request header --server output
// trusts, from the CDN's published ranges only (design section 14).
type VerifiedCDN struct {
	CDN    string `json:"cdn"`
	Header string `json:"header"`
}
