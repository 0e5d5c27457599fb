package oauthmeta

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
)

// CheckAuthorizationServer checks an RFC 8414 authorization server
// metadata document and returns its problems in document order; those
// whose Message starts with "warning: " do not stop a build. origin is the
// site's origin, which issuer must be (the file is served at the origin's
// /.well-known/oauth-authorization-server); "" skips that check.
func CheckAuthorizationServer(data []byte, origin string) []kit.JSONProblem {
	c, m, bad := parse(data, origin)
	if bad != nil {
		return bad
	}
	if _, ok := m["issuer"]; !ok {
		c.Add("", false, "issuer is missing: RFC 8414 §2 requires the authorization server's issuer identifier (%s)", exampleIssuer(origin))
	}
	if _, ok := m["response_types_supported"]; !ok {
		c.Add("", false, "response_types_supported is missing: RFC 8414 §2 requires the response types the server supports, such as [\"code\"]")
	}
	// grant_types_supported defaults to authorization_code and implicit
	// (RFC 8414 §2); both use the authorization endpoint.
	grants := []string{"authorization_code", "implicit"}
	if g, ok := m["grant_types_supported"].([]any); ok {
		grants = grants[:0:0]
		for _, e := range g {
			if s, ok := e.(string); ok {
				grants = append(grants, s)
			}
		}
	}
	if _, ok := m["authorization_endpoint"]; !ok && (slices.Contains(grants, "authorization_code") || slices.Contains(grants, "implicit")) {
		c.Add("", false, "authorization_endpoint is missing: RFC 8414 §2 requires it unless no grant type that uses it is supported (grant_types_supported names authorization_code or implicit, or is absent)")
	}
	if _, ok := m["token_endpoint"]; !ok && !(len(grants) == 1 && grants[0] == "implicit") {
		c.Add("", false, "token_endpoint is missing: RFC 8414 §2 requires it unless only the implicit grant type is supported")
	}
	for _, k := range sortedKeys(m) {
		p, v := ptr(k), m[k]
		switch k {
		case "issuer":
			c.issuerOfSite(p, v)
		case "authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint",
			"revocation_endpoint", "introspection_endpoint", "userinfo_endpoint",
			"pushed_authorization_request_endpoint", "device_authorization_endpoint":
			c.endpoint(p, k, v)
		case "scopes_supported", "response_modes_supported", "grant_types_supported":
			c.list(p, k, v)
		case "response_types_supported":
			if l := c.list(p, k, v); l != nil && len(l) == 0 {
				c.Add(p, false, "response_types_supported names no response type")
			}
		case "token_endpoint_auth_methods_supported", "revocation_endpoint_auth_methods_supported", "introspection_endpoint_auth_methods_supported":
			c.authMethods(p, k, v, m)
		case "token_endpoint_auth_signing_alg_values_supported", "revocation_endpoint_auth_signing_alg_values_supported",
			"introspection_endpoint_auth_signing_alg_values_supported", "dpop_signing_alg_values_supported":
			c.algs(p, k, v)
		case "ui_locales_supported":
			c.list(p, k, v)
			l, _ := v.([]any)
			for i, e := range l {
				if s, ok := e.(string); ok && !kit.ValidLanguageTag(s) {
					c.Add(fmt.Sprintf("%s/%d", p, i), false, "%q is not a language tag (BCP 47, such as de or pt-BR)", s)
				}
			}
		case "code_challenge_methods_supported":
			c.list(p, k, v)
			l, _ := v.([]any)
			for i, e := range l {
				if s, ok := e.(string); ok && s != "S256" && s != "plain" {
					c.Add(fmt.Sprintf("%s/%d", p, i), true, "%q is not a PKCE method registered by RFC 7636 (S256, plain)", s)
				}
			}
		case "service_documentation", "op_policy_uri", "op_tos_uri":
			c.page(p, k, v)
		case "require_pushed_authorization_requests", "authorization_response_iss_parameter_supported", "tls_client_certificate_bound_access_tokens":
			c.boolean(p, k, v)
		case "signed_metadata":
			c.jwt(p, k, v)
		}
	}
	if rt, ok := m["response_types_supported"].([]any); ok && slices.Contains(rt, any("code")) {
		if l, ok := m["code_challenge_methods_supported"].([]any); !ok || !slices.Contains(l, any("S256")) {
			c.Add("", true, "code_challenge_methods_supported does not list S256: clients that require PKCE (MCP clients, OAuth 2.1) will not use this server")
		}
	}
	return c.Sorted()
}

// authMethods checks a list of client authentication methods: with
// private_key_jwt or client_secret_jwt, RFC 8414 §2 requires the matching
// ..._auth_signing_alg_values_supported.
func (c *checker) authMethods(p, key string, v any, m map[string]any) {
	l := c.list(p, key, v)
	if slices.Contains(l, "private_key_jwt") || slices.Contains(l, "client_secret_jwt") {
		algs := key[:len(key)-len("methods_supported")] + "signing_alg_values_supported"
		if _, ok := m[algs]; !ok {
			c.Add(p, false, "%s names a JWT method (private_key_jwt or client_secret_jwt), so RFC 8414 §2 requires %s", key, algs)
		}
	}
}

// issuerOfSite checks the issuer: an issuer identifier that is the site's
// origin (RFC 8414 §3.3: identical to the URL the metadata is served for,
// less the well-known suffix).
func (c *checker) issuerOfSite(p string, v any) {
	u, ok := c.issuer(p, "issuer", v)
	if !ok || c.origin == "" {
		return
	}
	if originOf(u) == c.origin && u.Path != "" && u.Path != "/" {
		c.Add(p, false, "issuer %s has a path: RFC 8414 §3.1 has its metadata read at %s/.well-known/oauth-authorization-server%s, which discgen does not publish; it publishes the metadata of the site's origin, whose issuer is %s (RFC 8414 §3.3)",
			kit.JSONText(v), c.origin, strings.TrimSuffix(u.EscapedPath(), "/"), c.origin)
		return
	}
	if originOf(u) != c.origin || (u.Path != "" && u.Path != "/") {
		c.Add(p, false, "issuer %s is not the URL the metadata is served for: served at %s/.well-known/oauth-authorization-server, the issuer is %s (RFC 8414 §3.3)", kit.JSONText(v), c.origin, c.origin)
	}
}

func exampleIssuer(origin string) string {
	if origin == "" {
		return "the site's origin, such as https://www.example.com"
	}
	return origin
}
