// Package changepassword is the kind of /.well-known/change-password,
// W3C "A Well-Known URL for Changing Passwords"
// (https://www.w3.org/TR/change-password-url/): the server redirects with
// 302, 303 or 307 and a Location; not a file. The manifest's
// well_known.change_password gives the target, and --server writes the
// redirect.
package changepassword

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Status is the redirect discgen writes: 302 Found, the first the
// specification names.
const Status = 302

// CheckTarget checks where change-password redirects: a path of the site
// (starting with "/", not "//") or an absolute https URL.
func CheckTarget(s string) (msg string, warn bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') && !strings.ContainsRune("-._~:/?#[]@!&()*+,;=%", rune(c)) {
			// Space and quotes end a value in server configurations, "$"
			// starts an nginx variable or an Apache back-reference, "{" a
			// Caddy placeholder.
			return fmt.Sprintf("%q holds %q, which a URL does not hold as it is and a server configuration could read otherwise: percent-encode it", s, c), false
		}
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Sprintf("%q is not a URL: %v", s, err), false
	case strings.HasPrefix(s, "//"):
		return fmt.Sprintf("%q is a scheme-relative URL: give a path (/account/password) or an https URL", s), false
	case strings.HasPrefix(s, "/"):
		if strings.Trim(u.Path, "/") == ".well-known/change-password" {
			return fmt.Sprintf("%q redirects to itself", s), false
		}
		return "", false
	case u.Scheme == "https" && u.Host != "":
		return "", false
	case u.Scheme == "http" && u.Host != "":
		return fmt.Sprintf("%q is not https: a password form should be served over https", s), true
	}
	return fmt.Sprintf("%q is neither a path of the site (/account/password) nor an absolute https URL", s), false
}

// Kind is change-password.
type Kind struct{}

// value returns the manifest's well_known.change_password, a string, "" for none.
func value(site *manifest.Site) string {
	if s := kit.Value[string](site, Kind{}.Key()); s != nil {
		return *s
	}
	return ""
}

// NewValue returns a new empty well_known.change_password (kit.Owner).
func (Kind) NewValue() any { return new(string) }

func (Kind) Name() string                   { return "change-password" }
func (Kind) Key() string                    { return "well_known.change_password" }
func (Kind) Path() string                   { return ".well-known/change-password" }
func (Kind) MediaType() string              { return "" }
func (Kind) Given(site *manifest.Site) bool { return value(site) != "" }

func (Kind) Check(site *manifest.Site, _ kit.Build) []kit.Finding {
	if s := value(site); s != "" {
		if msg, warn := CheckTarget(s); msg != "" {
			return []kit.Finding{{Warning: warn, Message: msg}}
		}
	}
	return nil
}

// Render writes no file: change-password is a redirect.
func (Kind) Render(*manifest.Site, kit.Build) ([]byte, bool) { return nil, false }

// Redirect returns the target and Status.
func (Kind) Redirect(site *manifest.Site) (string, int, bool) {
	s := value(site)
	return s, Status, s != ""
}
