package oauthmeta

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
)

// CheckProtectedResource checks an RFC 9728 protected resource metadata
// document and returns its problems in document order; those whose
// Message starts with "warning: " do not stop a build. origin is the
// site's origin, which resource must be or lie below; "" skips that check
// (a copy linted on its own).
func CheckProtectedResource(data []byte, origin string) []kit.JSONProblem {
	c, m, bad := parse(data, origin)
	if bad != nil {
		return bad
	}
	if _, ok := m["resource"]; !ok {
		c.Add("", false, "resource is missing: RFC 9728 §2 requires the protected resource's identifier (%s)", exampleOrigin(origin))
	}
	if _, ok := m["authorization_servers"]; !ok {
		c.Add("", true, "no authorization_servers: a client (an MCP client among them) learns from it where to get a token")
	}
	for _, k := range sortedKeys(m) {
		p, v := ptr(k), m[k]
		if name, tag, ok := strings.Cut(k, "#"); ok {
			// Only a value for people is language-tagged (§2.1); another
			// name with a "#" is a member RFC 9728 does not define.
			switch name {
			case "resource_name":
				c.languageTag(p, k, tag)
				c.str(p, k, v)
			case "resource_documentation", "resource_policy_uri", "resource_tos_uri":
				c.languageTag(p, k, tag)
				c.page(p, k, v)
			}
			continue
		}
		switch k {
		case "resource":
			c.resource(p, v)
		case "authorization_servers":
			l, ok := v.([]any)
			if !ok {
				c.Add(p, false, "authorization_servers must be a JSON array of issuer identifiers, not %s", kit.JSONKind(v))
				continue
			}
			for i, e := range l {
				c.issuer(fmt.Sprintf("%s/%d", p, i), "an authorization server", e)
			}
		case "jwks_uri":
			c.endpoint(p, k, v)
		case "scopes_supported", "authorization_details_types_supported", "dpop_signing_alg_values_supported":
			c.list(p, k, v)
		case "bearer_methods_supported":
			c.list(p, k, v)
			l, _ := v.([]any)
			for i, e := range l {
				if s, ok := e.(string); ok && s != "header" && s != "body" && s != "query" {
					c.Add(fmt.Sprintf("%s/%d", p, i), false, "%q is not a bearer method: header, body or query (RFC 6750 §2)", s)
				}
			}
		case "resource_signing_alg_values_supported":
			c.algs(p, k, v)
		case "resource_name":
			c.str(p, k, v)
		case "resource_documentation", "resource_policy_uri", "resource_tos_uri":
			c.page(p, k, v)
		case "tls_client_certificate_bound_access_tokens", "dpop_bound_access_tokens_required":
			c.boolean(p, k, v)
		case "signed_metadata":
			c.jwt(p, k, v)
		}
	}
	return c.Sorted()
}

// resource checks the resource identifier (RFC 9728 §1.2, §3.3): an https
// URL without a fragment, on the site's origin.
func (c *checker) resource(p string, v any) {
	s, ok := c.str(p, "resource", v)
	if !ok {
		return
	}
	u, ok := c.absolute(p, "resource", s)
	switch {
	case !ok:
		return
	case u.Scheme != "https":
		c.Add(p, false, "resource %s must use https (RFC 9728 §1.2)", kit.JSONText(s))
		return
	case u.Fragment != "" || strings.Contains(s, "#"):
		c.Add(p, false, "resource %s must have no fragment (RFC 9728 §1.2)", kit.JSONText(s))
		return
	}
	if c.origin != "" && originOf(u) != c.origin {
		c.Add(p, false, "resource %s is not on the site's origin: served at %s/.well-known/oauth-protected-resource, it must be %s or a URL below it (RFC 9728 §3.3)", kit.JSONText(s), c.origin, c.origin)
		return
	}
	if u.RawQuery != "" || u.ForceQuery {
		c.Add(p, true, "resource %s has a query; RFC 8707 §2 asks for none in a resource identifier", kit.JSONText(s))
	}
}

// exampleOrigin is the site's origin for a message, or an example.
func exampleOrigin(origin string) string {
	if origin == "" {
		return "the site's origin, such as https://www.example.com"
	}
	return origin + " or a URL below it"
}
