package oauthmeta

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// CheckInTree checks the protected resource metadata against the
// authorization server metadata the same build publishes (the other
// kind's file in the tree). Each issuer identifier of
// authorization_servers on the site's origin is one a client turns into
// a well-known URL of this site (RFC 8414 §3.1) and then compares with
// the issuer it finds there (§3.3):
//
//   - an identifier without a path ("https://www.example.com" or with a
//     final "/") is read at the site's own
//     /.well-known/oauth-authorization-server: an error unless it is
//     identical to that document's issuer, as the client would reject
//     the metadata; a warning when the site publishes none;
//   - an identifier with a path is read at
//     /.well-known/oauth-authorization-server/<path>, which discgen does
//     not publish (the kind's issuer is the origin, see
//     CheckAuthorizationServer): a warning;
//   - a site that publishes authorization server metadata that
//     authorization_servers does not name gets a warning: RFC 9728 §2 lets
//     a resource list any issuers, but a client of this resource will not
//     use the site's own.
func (k Kind) CheckInTree(site *manifest.Site, data []byte, file func(string) ([]byte, bool)) []kit.JSONProblem {
	if k.name != ProtectedResource().name {
		return nil
	}
	return crossCheck(site, data, file, "")
}

// crossCheck is CheckInTree's check; unread, when not "", names the file
// that holds the site's authorization server metadata but that the check
// cannot read, which each identifier on the origin without a path is then
// told instead of being compared.
func crossCheck(site *manifest.Site, data []byte, file func(string) ([]byte, bool), unread string) []kit.JSONProblem {
	origin := Origin(site.Site.URL)
	c, m, bad := parse(data, origin)
	if bad != nil || origin == "" {
		return nil // reported by the document's own check
	}
	list, ok := m["authorization_servers"].([]any)
	if !ok {
		return nil
	}
	at := origin + "/.well-known/oauth-authorization-server"
	issuer, published := "", false
	if as, ok := file(AuthorizationServer().Path()); ok {
		var doc map[string]any
		if json.Unmarshal(as, &doc) == nil {
			issuer, published = doc["issuer"].(string)
		}
	}
	root := false
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			continue
		}
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || originOf(u) != origin {
			continue
		}
		p := fmt.Sprintf("/authorization_servers/%d", i)
		if u.Path != "" && u.Path != "/" {
			c.Add(p, true, "%s is an issuer with a path on this site: a client reads its metadata at %s%s (RFC 8414 §3.1), which discgen does not publish (it publishes the site's own at %s)",
				kit.JSONText(s), at, u.EscapedPath(), at)
			continue
		}
		root = true
		switch {
		case unread != "":
			c.Add(p, true, "%s is this site's origin, but its authorization server metadata is a file (%s) that the check of a well_known.files entry does not read, so its issuer is not compared with this identifier (RFC 8414 §3.3); give this document as well_known.oauth_protected_resource, a file, to have it compared", kit.JSONText(s), unread)
		case !published:
			c.Add(p, true, "%s is this site's origin, but the site publishes no authorization server metadata (well_known.oauth_authorization_server): a client reads it at %s (RFC 8414 §3)", kit.JSONText(s), at)
		case s != issuer:
			c.Add(p, false, "%s is not the issuer of the authorization server metadata this site publishes at %s (%s): RFC 8414 §3.3 has a client reject metadata whose issuer is not identical to the identifier it was built from; give %s",
				kit.JSONText(s), at, kit.JSONText(issuer), kit.JSONText(issuer))
		}
	}
	if published && !root && unread == "" {
		c.Add("/authorization_servers", true, "names no authorization server of this site, though it publishes the metadata of %s: a client of this resource will not use it (RFC 9728 §2)", kit.JSONText(issuer))
	}
	return c.Sorted()
}

// filesCrossCheck cross-checks a protected resource given as an entry of
// well_known.files, whose check (CheckSiteShape) runs before the tree is
// built: the site's authorization server metadata is then the entry of
// well_known.files named oauth-authorization-server when its content is
// inline (as import writes it). A source file, of that entry or of
// well_known.oauth_authorization_server, is read by the build, not by a
// kind, so it is named instead (crossCheck's unread). nil when the
// document is the kind's own file, which CheckInTree checks.
func filesCrossCheck(site *manifest.Site, data []byte) []kit.JSONProblem {
	if ProtectedResource().Given(site) {
		return nil
	}
	var as []byte
	published, unread := false, ""
	if src, ok := AuthorizationServer().Source(site); ok {
		unread = src + " (" + AuthorizationServer().Key() + ")"
	}
	var files []manifest.WellKnownFile
	if site.WellKnown != nil {
		files = site.WellKnown.Files
	}
	for _, f := range files {
		if name, err := url.PathUnescape(strings.TrimPrefix(f.Name, "/.well-known/")); err != nil || name != AuthorizationServer().name {
			continue
		}
		if f.Content == nil {
			unread = f.Source
			break
		}
		as, published = []byte(*f.Content), true
		break
	}
	file := func(p string) ([]byte, bool) {
		return as, published && p == AuthorizationServer().Path()
	}
	return crossCheck(site, data, file, unread)
}
