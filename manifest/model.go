package manifest

import (
	"encoding/json"
	"fmt"
)

// Site is a site (root) manifest, version 1. Field names are fixed by the
// manifest format; see the schema for their documentation.
type Site struct {
	Version      int                        `json:"version"`
	Site         SiteInfo                   `json:"site"`
	Host         string                     `json:"host,omitempty"`
	Agents       []Group                    `json:"agents,omitempty"`
	MobileAgents []MobileAgent              `json:"mobile_agents,omitempty"`
	Sitemaps     []string                   `json:"sitemaps,omitempty"`
	Expect       []Expect                   `json:"expect,omitempty"`
	Icons        []string                   `json:"icons,omitempty"`
	Feeds        []Feed                     `json:"feeds,omitempty"`
	Delegations  []Delegation               `json:"delegations,omitempty"`
	Files        map[string]Lines           `json:"files,omitempty"`
	Datasets     []Dataset                  `json:"datasets,omitempty"`
	DataTxt      *DataTxt                   `json:"data_txt,omitempty"`
	WellKnown    *WellKnown                 `json:"well_known,omitempty"`
	Environments map[string]json.RawMessage `json:"environments,omitempty"`
	// Noindex makes --server output send X-Robots-Tag: noindex for the
	// whole site.
	Noindex bool `json:"noindex,omitempty"`
	// PolicyPage is the path of the page for the host's customers that
	// says what each crawler may do here (generate.PolicyPage).
	PolicyPage string `json:"policy_page,omitempty"`
	// Usage is the site's usage preferences (usage.go).
	Usage *Usage `json:"usage,omitempty"`
	// VerifiedRanges and VerifiedCDN serve groups with Verified
	// (verified.go).
	VerifiedRanges map[string]string `json:"verified_ranges,omitempty"`
	VerifiedCDN    *VerifiedCDN      `json:"verified_cdn,omitempty"`
	// License and TDM are the site's RSL licence and TDMRep reservation
	// (license.go).
	License *License `json:"license,omitempty"`
	TDM     *TDM     `json:"tdm,omitempty"`

	// raw is the instance the site was decoded from, and kinds the
	// values of the kinds that have no field above, decoded from it
	// (kinds.go).
	raw   map[string]any
	kinds *kindValues
}

// SiteInfo is the site block.
type SiteInfo struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

// Group is one robots.txt group: the agents it names and their rules.
type Group struct {
	Names      []string     `json:"names,omitempty"`
	Allow      []string     `json:"allow,omitempty"`
	Disallow   []string     `json:"disallow,omitempty"`
	CrawlDelay *json.Number `json:"crawl_delay,omitempty"`
	Extensions []Extension  `json:"extensions,omitempty"`
	// Presets add the agents of crawler catalogue presets; ExceptAgents
	// removes agents the presets would add.
	Presets      []string `json:"presets,omitempty"`
	ExceptAgents []string `json:"except_agents,omitempty"`
	// Acknowledge lists codes of warnings about the names the group's
	// presets write, which the manifest cannot change (validate.Acknowledgeable).
	Acknowledge []string `json:"acknowledge,omitempty"`
	// InheritWildcard gives the group the "*" group's rules as well.
	InheritWildcard bool `json:"inherit_wildcard,omitempty"`
	// Enforce makes --server output refuse the group's agents (403)
	// where the group disallows them.
	Enforce bool `json:"enforce,omitempty"`
	// Usage overrides the site's usage preferences for this group.
	Usage *Usage `json:"usage,omitempty"`
	// Verified makes --server output refuse a request that claims one
	// of the group's agents from outside its published ranges.
	Verified bool `json:"verified,omitempty"`
	// Throttle makes --server nginx slow the group's agents rather than
	// refuse them.
	Throttle *Throttle `json:"throttle,omitempty"`
}

// Throttle is the pace each crawler of a group may keep: Rate is N/s or
// N/m, Burst the requests over it served at once.
type Throttle struct {
	Rate  string `json:"rate"`
	Burst int    `json:"burst,omitempty"`
}

// Extension is an extra line inside a robots.txt group.
type Extension struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// MobileAgent is a Mobile-agent-server line (seed 002).
type MobileAgent struct {
	Path   string `json:"path"`
	Server string `json:"server"`
}

// Expect is a build-time assertion on the emitted robots.txt.
type Expect struct {
	Agent      string   `json:"agent"`
	Allowed    []string `json:"allowed,omitempty"`
	Disallowed []string `json:"disallowed,omitempty"`
	// Usage is the preferences the agent must read at URLs ("/" when
	// none), both robots.txt forms together.
	Usage *UsageExpect `json:"usage,omitempty"`
	URLs  []string     `json:"urls,omitempty"`
	// License and TDM are the licence and reservation read at URLs
	// (license.go).
	License string     `json:"license,omitempty"`
	TDM     *TDMExpect `json:"tdm,omitempty"`
}

// Feed is one line of feeds.txt.
type Feed struct {
	URL  string `json:"url"`
	Type string `json:"type,omitempty"`
}

// Delegation delegates autodiscovery authority for a subdirectory space.
type Delegation struct {
	Path    string     `json:"path"`
	Only    []string   `json:"only,omitempty"`
	Except  []string   `json:"except,omitempty"`
	Tenants string     `json:"tenants,omitempty"`
	Inline  *Delegatee `json:"inline,omitempty"`
	// Limits, with tenants, bounds what each tenant may write; zero fields
	// keep the defaults (publish.DefaultTenantFiles, DefaultTenantBytes).
	Limits *TenantLimits `json:"limits,omitempty"`
}

// TenantLimits bounds the output of each tenant of a delegation.
type TenantLimits struct {
	Files int   `json:"files,omitempty"` // files in the tenant's directory
	Bytes int64 `json:"bytes,omitempty"` // bytes of those files
}

// Delegatee is what a delegatee may define: the inline block of a
// delegation, and the body of a tenant manifest.
type Delegatee struct {
	Description string           `json:"description,omitempty"`
	Icons       []string         `json:"icons,omitempty"`
	Feeds       []Feed           `json:"feeds,omitempty"`
	Agents      []Group          `json:"agents,omitempty"`
	Delegations []Delegation     `json:"delegations,omitempty"`
	Files       map[string]Lines `json:"files,omitempty"`
}

// Tenant is a tenant manifest: a delegatee with a version and the URL path
// it has authority for.
type Tenant struct {
	Version int    `json:"version"`
	Path    string `json:"path"`
	Delegatee
}

// Dataset is one entry of data.txt.
type Dataset struct {
	Path        string `json:"path"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Type        string `json:"type,omitempty"`
	License     string `json:"license,omitempty"`
}

// DataTxt configures data.txt.
type DataTxt struct {
	Format   string   `json:"format,omitempty"` // "records" (default) or "yaml"
	Disallow []string `json:"disallow,omitempty"`
}

// WellKnown lists resources under /.well-known/.
type WellKnown struct {
	Files []WellKnownFile `json:"files,omitempty"`
}

// Sign names the OpenPGP private key that signs security.txt: exactly one
// of KeyEnv (an environment variable holding the armored key) and KeyFile
// (a file relative to the manifest, inside its directory). It is the
// sign block of the kind's value (kinds/securitytxt), here because
// kit.Signer returns it to the stages that check it and sign with it
// (validate, generate), which may not import a kind.
type Sign struct {
	KeyEnv  string `json:"key_env,omitempty"`
	KeyFile string `json:"key_file,omitempty"`
}

// WellKnownFile is any other well-known resource, given inline or read from
// a file relative to the manifest.
type WellKnownFile struct {
	Name    string  `json:"name"`
	Content *string `json:"content,omitempty"`
	Source  string  `json:"source,omitempty"`
	// Schema names a JSON Schema the content must satisfy: one discgen
	// ships, or a path relative to the manifest.
	Schema string `json:"schema,omitempty"`
}

// Lines is a list of strings that the manifest may also write as a single
// string.
type Lines []string

// UnmarshalJSON accepts a string or a list of strings.
func (l *Lines) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*l = Lines{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("expected a string or a list of strings")
	}
	*l = many
	return nil
}
