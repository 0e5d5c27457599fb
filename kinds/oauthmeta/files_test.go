package oauthmeta

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/manifest"
)

// filesSite is a site whose OAuth documents are entries of
// well_known.files, as import writes them: the protected resource's
// content, and the authorization server's as given.
func filesSite(as manifest.WellKnownFile) *manifest.Site {
	prm := `{"resource": "https://www.fict.org/mcp", "authorization_servers": ["https://www.fict.org/"]}`
	return &manifest.Site{Site: manifest.SiteInfo{URL: "https://www.fict.org/"}, WellKnown: &manifest.WellKnown{
		Files: []manifest.WellKnownFile{{Name: "oauth-protected-resource", Content: &prm}, as},
	}}
}

// TestCrossCheckFiles: a protected resource given as an entry of
// well_known.files is checked against the authorization server metadata
// the site publishes, as the kind's own file is: an issuer that is not
// identical to the site's own is an error at its place; one the check
// cannot read (a source file) is said at authorization_servers.
func TestCrossCheckFiles(t *testing.T) {
	prm := []byte(*filesSite(manifest.WellKnownFile{}).WellKnown.Files[0].Content)
	inline := goodServer
	site := filesSite(manifest.WellKnownFile{Name: "oauth-authorization-server", Content: &inline})
	ps := ProtectedResource().CheckSiteShape(site, prm)
	if len(ps) != 1 || ps[0].IsWarning() || ps[0].Pointer != "/authorization_servers/0" || !strings.Contains(ps[0].Message, "RFC 8414 §3.3") {
		t.Errorf("inline authorization server metadata: %s", lines(ps))
	}

	site = filesSite(manifest.WellKnownFile{Name: "oauth-authorization-server", Source: "files/as.json"})
	ps = ProtectedResource().CheckSiteShape(site, prm)
	if len(ps) != 1 || !ps[0].IsWarning() || ps[0].Pointer != "/authorization_servers/0" || !strings.Contains(ps[0].Message, "files/as.json") {
		t.Errorf("authorization server metadata from a source: %s", lines(ps))
	}
	site.WellKnown.Files = site.WellKnown.Files[:1]
	asSrc := "files/as.json"
	manifest.SetKindValue(site, AuthorizationServer().Key(), &asSrc)
	ps = ProtectedResource().CheckSiteShape(site, prm)
	if len(ps) != 1 || !ps[0].IsWarning() || !strings.Contains(ps[0].Message, "well_known.oauth_authorization_server") {
		t.Errorf("authorization server metadata of the kind's key: %s", lines(ps))
	}

	manifest.SetKindValue[string](site, AuthorizationServer().Key(), nil)
	ps = ProtectedResource().CheckSiteShape(site, prm)
	if len(ps) != 1 || !ps[0].IsWarning() || !strings.Contains(ps[0].Message, "publishes no authorization server metadata") {
		t.Errorf("no authorization server metadata: %s", lines(ps))
	}

	// The kind's own file is cross-checked once the tree is built
	// (CheckInTree), not here.
	prmSrc := "files/prm.json"
	manifest.SetKindValue(site, ProtectedResource().Key(), &prmSrc)
	if ps := ProtectedResource().CheckSiteShape(site, prm); len(ps) != 0 {
		t.Errorf("the kind's own file: %s", lines(ps))
	}
}
