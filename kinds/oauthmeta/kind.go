// Package oauthmeta is the kind of the two OAuth discovery documents a
// client (an MCP client among them) reads before it authenticates:
//
//   - ProtectedResource: RFC 9728, "OAuth 2.0 Protected Resource
//     Metadata" (April 2025), served at
//     /.well-known/oauth-protected-resource (§3). §2 names the members:
//     resource (REQUIRED; the resource identifier of §1.2, an https URL
//     without a fragment, and without a query by RFC 8707 §2, a warning),
//     authorization_servers (issuer identifiers), jwks_uri (https),
//     scopes_supported, bearer_methods_supported (header, body, query),
//     resource_signing_alg_values_supported ("none" refused),
//     resource_name, resource_documentation, resource_policy_uri,
//     resource_tos_uri (pages, language-tagged as "resource_name#de"
//     by §2.1), tls_client_certificate_bound_access_tokens,
//     authorization_details_types_supported,
//     dpop_signing_alg_values_supported, dpop_bound_access_tokens_required
//     and signed_metadata (§2.2, a JWT). §3.3 has resource be the
//     identifier the well-known URL was made from; the file discgen serves
//     is the origin's, so resource is the site's origin or, as MCP servers
//     publish it for a resource at a path ("https://www.example.com/mcp"),
//     a URL below it on the same origin. Another origin is refused.
//   - AuthorizationServer: RFC 8414, "OAuth 2.0 Authorization Server
//     Metadata" (June 2018), served at
//     /.well-known/oauth-authorization-server (§3). §2 names the members:
//     issuer (REQUIRED; https, no query or fragment),
//     response_types_supported (REQUIRED), authorization_endpoint
//     (required unless no grant type that uses it is supported: with
//     grant_types_supported absent it defaults to authorization_code and
//     implicit), token_endpoint (required unless only implicit is
//     supported), the other endpoints and jwks_uri (https), the lists of
//     scopes, response modes, grant types, client authentication methods
//     (private_key_jwt or client_secret_jwt require the matching
//     ..._signing_alg_values_supported; "none" is refused there), PKCE
//     methods (S256, plain) and UI locales (BCP 47), the pages
//     service_documentation, op_policy_uri and op_tos_uri, and
//     signed_metadata (§2.1). §3.3 has issuer identical to the URL the
//     metadata was fetched for: served at the origin's well-known URL, the
//     issuer is the site's origin ("https://www.example.com", a final "/"
//     allowed as §3.1 strips it). A code flow without S256 among
//     code_challenge_methods_supported is a warning: MCP clients and OAuth
//     2.1 require PKCE.
//
// Sub-path metadata (RFC 9728 §3.1, RFC 8414 §3.1: an identifier with a
// path has its document at /.well-known/<name>/<path>) is not published
// by the keys: each kind writes the one path of the origin, and a build
// cannot write both, as .well-known/oauth-protected-resource cannot be a
// file and a directory at once in the tree each server serves as it is
// (well_known.files refuses "a" beside "a/b" for the same reason). A
// protected resource with a path is served at the root, the location MCP
// clients read after the sub-path one; a site whose clients read the
// sub-path alone gives the document as the well_known.files entry
// "oauth-protected-resource/<path>", which Serving serves as the root
// document (its members are not checked: the entry matches no kind's
// path). An issuer with a path is refused at /issuer, its message naming
// the sub-path URL a client would read.
//
// With both documents built, CheckInTree checks the protected resource's
// authorization_servers against the site's own issuer: an identifier on
// the origin that is not identical to it is an error (RFC 8414 §3.3: the
// client rejects the metadata), the site's issuer left unnamed, an
// identifier with a path on the site, or one on the site with no
// authorization server metadata built, a warning. A protected resource
// given as an entry of well_known.files is checked against the entry
// oauth-authorization-server by CheckSiteShape when that entry's content
// is inline; a file (its source, or the key oauth_authorization_server) is
// the build's to read, not a kind's, and is named in a warning instead.
//
// A member the RFCs do not name is left as it is: both RFCs have clients
// ignore one they do not understand. URLs are absolute; those a client
// sends requests or keys to are https (an error otherwise), the pages for
// people may be http (a warning).
//
// The manifest's well_known.oauth_protected_resource and
// well_known.oauth_authorization_server each name a JSON file relative to
// the manifest, which discgen copies byte for byte once it passes its
// check; each problem is at its line and column in that file. Both are
// served as application/json (RFC 9728 §3.2, RFC 8414 §3.2) with
// Access-Control-Allow-Origin: *, as every file discgen serves: an MCP
// client running in a browser reads them from another origin. It sends
// MCP-Protocol-Version with the request, so the browser first sends a
// CORS preflight: Serving names GET and that header, and every --server
// format that can set a status answers the preflight with 204. lint checks
// a copy without knowing the site (the origin rules are then skipped);
// import keeps a copy found in a tree or on a site as an entry of
// well_known.files, which the build checks with the origin rules.
package oauthmeta

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Kind is one of the two OAuth metadata documents, each at a key under
// well_known and a path under /.well-known/ of its own.
type Kind struct {
	kit.SourceFile
	name, key string
	check     func(data []byte, origin string) []kit.JSONProblem
}

// ProtectedResource returns the kind of
// /.well-known/oauth-protected-resource, from
// well_known.oauth_protected_resource.
func ProtectedResource() Kind {
	return Kind{kit.SourceAt("well_known.oauth_protected_resource"),
		"oauth-protected-resource", "well_known.oauth_protected_resource", CheckProtectedResource}
}

// AuthorizationServer returns the kind of
// /.well-known/oauth-authorization-server, from
// well_known.oauth_authorization_server.
func AuthorizationServer() Kind {
	return Kind{kit.SourceAt("well_known.oauth_authorization_server"),
		"oauth-authorization-server", "well_known.oauth_authorization_server", CheckAuthorizationServer}
}

// NewValue returns a new empty source path (kit.Owner).
func (Kind) NewValue() any { return new(string) }

func (k Kind) Name() string      { return k.name }
func (k Kind) Key() string       { return k.key }
func (k Kind) Path() string      { return ".well-known/" + k.name }
func (k Kind) MediaType() string { return "application/json" }

// CheckShape checks a copy on its own, without the origin rules.
func (k Kind) CheckShape(data []byte) []kit.JSONProblem { return k.check(data, "") }

// CheckSiteShape checks the copy site serves: resource or issuer on the
// origin of site.url.
// A protected resource given as an entry of well_known.files is also
// checked against the site's authorization server metadata here
// (filesCrossCheck), as the kind's own file is once the tree is built
// (CheckInTree).
func (k Kind) CheckSiteShape(site *manifest.Site, data []byte) []kit.JSONProblem {
	ps := k.check(data, Origin(site.Site.URL))
	if k.name != ProtectedResource().name || slices.ContainsFunc(ps, func(p kit.JSONProblem) bool { return !p.IsWarning() }) {
		return ps
	}
	ps = append(ps, filesCrossCheck(site, data)...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Offset < ps[j].Offset })
	return ps
}

// SiteURL returns the resource or issuer a copy names, which is on the
// site's origin when the copy passes its check: import takes it for
// site.url.
func (k Kind) SiteURL(data []byte) (string, bool) {
	var doc map[string]any
	if json.Unmarshal(data, &doc) != nil {
		return "", false
	}
	member := "resource"
	if k.name == AuthorizationServer().name {
		member = "issuer"
	}
	s, ok := doc[member].(string)
	return s, ok && Origin(s) != ""
}

// CrossOriginReader names the reader that needs CORS: verify fails a
// response without Access-Control-Allow-Origin: *.
func (k Kind) CrossOriginReader() string {
	return "a browser-based OAuth client (an MCP client in a web page)"
}

// The headers both documents are served with (kit.Served): the media
// type of RFC 9728 §3.2 and RFC 8414 §3.2, a day's caching as every
// well-known file, and the CORS a browser-based client's preflight asks
// for: GET, and MCP-Protocol-Version, the header MCP clients send with
// their discovery requests ("Authorization": "Server Metadata
// Discovery"), which a browser does not send without a preflight.
const (
	cacheControl = "max-age=86400"
	allowMethods = "GET"
	allowHeaders = "Content-Type, MCP-Protocol-Version"
)

// Serving gives the kind's document its headers, at the origin's path
// and at a sub-path (RFC 9728 §3.1, RFC 8414 §3.1: the metadata of an
// identifier with a path, /.well-known/oauth-protected-resource/mcp for
// https://www.example.com/mcp), which an entry of well_known.files can
// publish.
func (k Kind) Serving(p string) (kit.Serving, bool) {
	if rest, sub := strings.CutPrefix(p, k.Path()+"/"); p != k.Path() && (!sub || rest == "") {
		return kit.Serving{}, false
	}
	return kit.Serving{MediaType: k.MediaType(), CacheControl: cacheControl, AllowMethods: allowMethods, AllowHeaders: allowHeaders}, true
}

// Lint lints a hand-written copy by shape.
func (k Kind) Lint(data []byte) []diag.Diagnostic {
	return kit.JSONDiagnostics(k.CheckShape(data), kit.CodeJSON)
}
