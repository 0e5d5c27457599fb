package oauthmeta

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

const origin = "https://www.fict.org"

const goodResource = `{
  "resource": "https://www.fict.org/mcp",
  "authorization_servers": ["https://auth.fict.org", "https://www.fict.org"],
  "jwks_uri": "https://www.fict.org/jwks.json",
  "scopes_supported": ["docs:read", "docs:write"],
  "bearer_methods_supported": ["header"],
  "resource_signing_alg_values_supported": ["RS256", "ES256"],
  "resource_name": "Fict docs",
  "resource_name#de": "Fict-Dokumente",
  "resource_documentation": "https://www.fict.org/docs/api",
  "tls_client_certificate_bound_access_tokens": false,
  "dpop_bound_access_tokens_required": false,
  "x_fict_extension": {"anything": 1}
}`

const goodServer = `{
  "issuer": "https://www.fict.org",
  "authorization_endpoint": "https://www.fict.org/oauth/authorize",
  "token_endpoint": "https://www.fict.org/oauth/token",
  "registration_endpoint": "https://www.fict.org/oauth/register",
  "jwks_uri": "https://www.fict.org/oauth/jwks.json",
  "scopes_supported": ["docs:read"],
  "response_types_supported": ["code"],
  "grant_types_supported": ["authorization_code", "refresh_token"],
  "token_endpoint_auth_methods_supported": ["none", "private_key_jwt"],
  "token_endpoint_auth_signing_alg_values_supported": ["ES256"],
  "code_challenge_methods_supported": ["S256"],
  "ui_locales_supported": ["en", "de-CH"],
  "service_documentation": "https://www.fict.org/docs/oauth"
}`

func lines(ps []kit.JSONProblem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

func TestCheckProtectedResource(t *testing.T) {
	if ps := CheckProtectedResource([]byte(goodResource), origin); len(ps) > 0 {
		t.Errorf("good file: %s", lines(ps))
	}
	for _, c := range []struct{ name, origin, doc, want string }{
		{"not JSON", origin, "{\n  \"resource\": ,\n}", "2:15: not JSON: invalid character ',' looking for beginning of value\n"},
		{"a list", origin, `["https://www.fict.org"]`, "1:1: the file must be a JSON object of metadata members, not a list\n"},
		{"no resource", origin, `{"authorization_servers": []}`,
			"1:1: resource is missing: RFC 9728 §2 requires the protected resource's identifier (https://www.fict.org or a URL below it)\n"},
		{"another origin", origin, "{\"authorization_servers\": [],\n \"resource\": \"https://api.other.example/mcp\"}",
			"2:14: /resource: resource \"https://api.other.example/mcp\" is not on the site's origin: served at https://www.fict.org/.well-known/oauth-protected-resource, it must be https://www.fict.org or a URL below it (RFC 9728 §3.3)\n"},
		{"another port", origin, `{"authorization_servers": [], "resource": "https://www.fict.org:8443/"}`,
			"1:43: /resource: resource \"https://www.fict.org:8443/\" is not on the site's origin: served at https://www.fict.org/.well-known/oauth-protected-resource, it must be https://www.fict.org or a URL below it (RFC 9728 §3.3)\n"},
		{"the origin, upper case, default port", origin, `{"authorization_servers": [], "resource": "https://WWW.fict.org:443"}`, ""},
		{"http", origin, `{"authorization_servers": [], "resource": "http://www.fict.org/"}`,
			"1:43: /resource: resource \"http://www.fict.org/\" must use https (RFC 9728 §1.2)\n"},
		{"fragment", origin, `{"authorization_servers": [], "resource": "https://www.fict.org/#x"}`,
			"1:43: /resource: resource \"https://www.fict.org/#x\" must have no fragment (RFC 9728 §1.2)\n"},
		{"query", origin, `{"authorization_servers": [], "resource": "https://www.fict.org/?v=1"}`,
			"1:43: /resource: warning: resource \"https://www.fict.org/?v=1\" has a query; RFC 8707 §2 asks for none in a resource identifier\n"},
		{"relative", origin, `{"authorization_servers": [], "resource": "/mcp"}`,
			"1:43: /resource: resource \"/mcp\" is not an absolute URL (https://auth.example.com/...)\n"},
		{"lint: no origin", "", `{"authorization_servers": [], "resource": "https://api.other.example/mcp"}`, ""},
		{"no authorization servers", origin, `{"resource": "https://www.fict.org"}`,
			"1:1: warning: no authorization_servers: a client (an MCP client among them) learns from it where to get a token\n"},
		{"member types", origin, `{"resource": "https://www.fict.org", "authorization_servers": "https://auth.fict.org", "scopes_supported": ["a", 1], "bearer_methods_supported": ["header", "cookie"], "jwks_uri": "http://www.fict.org/jwks", "dpop_bound_access_tokens_required": "yes", "resource_signing_alg_values_supported": ["none"], "resource_tos_uri": "http://www.fict.org/tos", "resource_name#!!": "x", "signed_metadata": "abc"}`,
			"1:63: /authorization_servers: authorization_servers must be a JSON array of issuer identifiers, not a string\n" +
				"1:114: /scopes_supported/1: an entry of scopes_supported must be a string, not a number\n" +
				"1:157: /bearer_methods_supported/1: \"cookie\" is not a bearer method: header, body or query (RFC 6750 §2)\n" +
				"1:180: /jwks_uri: jwks_uri \"http://www.fict.org/jwks\" must use https\n" +
				"1:245: /dpop_bound_access_tokens_required: dpop_bound_access_tokens_required must be true or false, not a string\n" +
				"1:294: /resource_signing_alg_values_supported/0: resource_signing_alg_values_supported must not name \"none\": an unsigned token is no authentication\n" +
				"1:323: /resource_tos_uri: warning: resource_tos_uri \"http://www.fict.org/tos\" is plain http; give its https URL\n" +
				"1:370: /resource_name#!!: \"!!\" is not a language tag (BCP 47, such as de or pt-BR) in \"resource_name#!!\"\n" +
				"1:394: /signed_metadata: signed_metadata must be a signed JWT (header.payload.signature), not \"abc\"\n"},
		{"tagged pages, an unknown tagged member", origin, `{"resource": "https://www.fict.org", "authorization_servers": [], "resource_tos_uri#de": "http://www.fict.org/agb", "jwks_uri#x": "http://anything", "resource_policy_uri#": 1}`,
			"1:90: /resource_tos_uri#de: warning: resource_tos_uri#de \"http://www.fict.org/agb\" is plain http; give its https URL\n" +
				"1:174: /resource_policy_uri#: \"\" is not a language tag (BCP 47, such as de or pt-BR) in \"resource_policy_uri#\"\n" +
				"1:174: /resource_policy_uri#: resource_policy_uri# must be a string, not a number\n"},
		{"an issuer with a query", origin, `{"resource": "https://www.fict.org", "authorization_servers": ["https://auth.fict.org?tenant=1"]}`,
			"1:64: /authorization_servers/0: an authorization server \"https://auth.fict.org?tenant=1\" must have no query or fragment (RFC 8414 §2: an issuer identifier has neither)\n"},
	} {
		if got := lines(CheckProtectedResource([]byte(c.doc), c.origin)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestCheckAuthorizationServer(t *testing.T) {
	if ps := CheckAuthorizationServer([]byte(goodServer), origin); len(ps) > 0 {
		t.Errorf("good file: %s", lines(ps))
	}
	const ends = `"authorization_endpoint": "https://www.fict.org/a", "token_endpoint": "https://www.fict.org/t", "code_challenge_methods_supported": ["S256"]`
	for _, c := range []struct{ name, origin, doc, want string }{
		{"empty", origin, `{}`,
			"1:1: authorization_endpoint is missing: RFC 8414 §2 requires it unless no grant type that uses it is supported (grant_types_supported names authorization_code or implicit, or is absent)\n" +
				"1:1: issuer is missing: RFC 8414 §2 requires the authorization server's issuer identifier (https://www.fict.org)\n" +
				"1:1: response_types_supported is missing: RFC 8414 §2 requires the response types the server supports, such as [\"code\"]\n" +
				"1:1: token_endpoint is missing: RFC 8414 §2 requires it unless only the implicit grant type is supported\n"},
		{"issuer elsewhere", origin, "{" + ends + ",\n  \"response_types_supported\": [\"code\"],\n  \"issuer\": \"https://auth.fict.org\"}",
			"3:13: /issuer: issuer \"https://auth.fict.org\" is not the URL the metadata is served for: served at https://www.fict.org/.well-known/oauth-authorization-server, the issuer is https://www.fict.org (RFC 8414 §3.3)\n"},
		{"issuer with a path", origin, `{"issuer": "https://www.fict.org/tenant1", "response_types_supported": ["code"], ` + ends + `}`,
			"1:12: /issuer: issuer \"https://www.fict.org/tenant1\" has a path: RFC 8414 §3.1 has its metadata read at https://www.fict.org/.well-known/oauth-authorization-server/tenant1, which discgen does not publish; it publishes the metadata of the site's origin, whose issuer is https://www.fict.org (RFC 8414 §3.3)\n"},
		{"issuer with a final slash", origin, `{"issuer": "https://www.fict.org/", "response_types_supported": ["code"], ` + ends + `}`, ""},
		{"issuer with a query", origin, `{"issuer": "https://www.fict.org?x", "response_types_supported": ["code"], ` + ends + `}`,
			"1:12: /issuer: issuer \"https://www.fict.org?x\" must have no query or fragment (RFC 8414 §2: an issuer identifier has neither)\n"},
		{"lint: no origin", "", `{"issuer": "https://auth.fict.org", "response_types_supported": ["code"], ` + ends + `}`, ""},
		{"client credentials only", origin, `{"issuer": "https://www.fict.org", "response_types_supported": ["token"], "grant_types_supported": ["client_credentials"], "token_endpoint": "https://www.fict.org/t"}`, ""},
		{"implicit only", origin, `{"issuer": "https://www.fict.org", "response_types_supported": ["token"], "grant_types_supported": ["implicit"], "authorization_endpoint": "https://www.fict.org/a"}`, ""},
		{"endpoint over http, jwt without algs, no S256", origin, `{"issuer": "https://www.fict.org", "response_types_supported": ["code"], "authorization_endpoint": "http://www.fict.org/a", "token_endpoint": "https://www.fict.org/t", "token_endpoint_auth_methods_supported": ["private_key_jwt"], "ui_locales_supported": ["en", "english!"], "code_challenge_methods_supported": ["plain", "S512"]}`,
			"1:1: warning: code_challenge_methods_supported does not list S256: clients that require PKCE (MCP clients, OAuth 2.1) will not use this server\n" +
				"1:100: /authorization_endpoint: authorization_endpoint \"http://www.fict.org/a\" must use https\n" +
				"1:210: /token_endpoint_auth_methods_supported: token_endpoint_auth_methods_supported names a JWT method (private_key_jwt or client_secret_jwt), so RFC 8414 §2 requires token_endpoint_auth_signing_alg_values_supported\n" +
				"1:262: /ui_locales_supported/1: \"english!\" is not a language tag (BCP 47, such as de or pt-BR)\n" +
				"1:321: /code_challenge_methods_supported/1: warning: \"S512\" is not a PKCE method registered by RFC 7636 (S256, plain)\n"},
		{"empty response types", origin, `{"issuer": "https://www.fict.org", "response_types_supported": [], ` + ends + `}`,
			"1:64: /response_types_supported: response_types_supported names no response type\n"},
	} {
		if got := lines(CheckAuthorizationServer([]byte(c.doc), c.origin)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestKinds(t *testing.T) {
	site := &manifest.Site{Site: manifest.SiteInfo{URL: "https://www.fict.org/"}}
	src := "files/prm.json"
	kit.SetValue(site, ProtectedResource().Key(), &src)
	if !ProtectedResource().Given(site) || AuthorizationServer().Given(site) {
		t.Fatalf("Given: %v %v", ProtectedResource().Given(site), AuthorizationServer().Given(site))
	}
	if p, ok := ProtectedResource().Source(site); !ok || p != "files/prm.json" {
		t.Errorf("Source: %q %v", p, ok)
	}
	for _, k := range []Kind{ProtectedResource(), AuthorizationServer()} {
		if k.MediaType() != "application/json" || k.Path() != ".well-known/"+k.Name() {
			t.Errorf("%s: %s at %s", k.Name(), k.MediaType(), k.Path())
		}
	}
	other := `{"resource": "https://api.other.example/", "authorization_servers": []}`
	if ps := ProtectedResource().CheckSiteShape(site, []byte(other)); len(ps) != 1 || ps[0].Pointer != "/resource" {
		t.Errorf("CheckSiteShape: %s", lines(ps))
	}
	if ps := ProtectedResource().CheckShape([]byte(other)); len(ps) != 0 {
		t.Errorf("CheckShape: %s", lines(ps))
	}
	if ds := AuthorizationServer().Lint([]byte(`{"issuer": "http://x.example"}`)); len(ds) == 0 || ds[0].Code != kit.CodeJSON {
		t.Errorf("Lint: %v", ds)
	}
}

func TestSiteURL(t *testing.T) {
	for _, c := range []struct {
		k    Kind
		doc  string
		want string
	}{
		{ProtectedResource(), goodResource, "https://www.fict.org/mcp"},
		{AuthorizationServer(), goodServer, "https://www.fict.org"},
		{AuthorizationServer(), goodResource, ""},
		{ProtectedResource(), `{"resource": "urn:x"}`, ""},
		{ProtectedResource(), `{"resource": 1}`, ""},
		{ProtectedResource(), `[`, ""},
	} {
		if got, ok := c.k.SiteURL([]byte(c.doc)); got != c.want && ok || ok != (c.want != "") {
			t.Errorf("%s: SiteURL(%.30q) = %q, %v; want %q", c.k.Name(), c.doc, got, ok, c.want)
		}
	}
}

func TestOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://www.fict.org/":          "https://www.fict.org",
		"https://WWW.Fict.org:443/docs/": "https://www.fict.org",
		"https://www.fict.org:8443":      "https://www.fict.org:8443",
		"http://staging.fict.org/":       "https://staging.fict.org",
		"http://staging.fict.org:80/":    "https://staging.fict.org",
		"http://[::1]:8080/":             "https://[::1]:8080",
		"ftp://www.fict.org/":            "",
		"/relative":                      "",
	} {
		if got := Origin(in); got != want {
			t.Errorf("Origin(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzCheck: the checks never panic and put every problem inside the file.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{goodResource, goodServer, `[`, `{"resource#": 1}`, `{"authorization_servers": [1, "x"]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := strings.Count(s, "\n") + 1
		for _, check := range []func([]byte, string) []kit.JSONProblem{CheckProtectedResource, CheckAuthorizationServer} {
			for _, p := range check([]byte(s), origin) {
				if p.Line < 1 || p.Line > n || p.Col < 1 {
					t.Fatalf("%q: problem at %d:%d outside the file: %s", s, p.Line, p.Col, p.Message)
				}
			}
		}
	})
}
