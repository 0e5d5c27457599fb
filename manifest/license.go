package manifest

// License is the site's RSL licence (RSL 1.0, rslstandard.org, RSL-SPEC-1.0
// of 2025-11-06): a global License: line in robots.txt and, with --server,
// a Link header with rel="license" on every response.
type License struct {
	// URL is the RSL document's URL, absolute or relative to site.url.
	URL string `json:"url"`
	// Source is a file beside the manifest, published at URL's path and
	// checked as an RSL document at build.
	Source string `json:"source,omitempty"`
	// RobotsTxt writes the License: line in robots.txt; true when absent.
	RobotsTxt *bool `json:"robots_txt,omitempty"`
}

// WritesRobotsTxt reports whether the licence goes in robots.txt.
func (l *License) WritesRobotsTxt() bool {
	return l != nil && (l.RobotsTxt == nil || *l.RobotsTxt)
}

// TDM is the site's TDMRep reservation (W3C TDM Reservation Protocol,
// Community Group final report of 2024-05-10): /.well-known/tdmrep.json
// and, with --server, tdm-reservation and tdm-policy headers.
type TDM struct {
	// Reservation is tdm-reservation for every path: true 1, false 0,
	// absent unset.
	Reservation *bool `json:"reservation,omitempty"`
	// Policy is tdm-policy, absolute or relative to site.url.
	Policy string    `json:"policy,omitempty"`
	Paths  []TDMPath `json:"paths,omitempty"`
}

// TDMPath is a path-scoped reservation: it applies, instead of the
// site's, to the URLs its path matches (longest match, as Allow and
// Disallow).
type TDMPath struct {
	Path        string `json:"path"`
	Reservation *bool  `json:"reservation,omitempty"`
	Policy      string `json:"policy,omitempty"`
}

// TDMExpect is the reservation an expect entry asserts at its urls.
type TDMExpect struct {
	Reservation *bool  `json:"reservation"`
	Policy      string `json:"policy,omitempty"`
}
