package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOAuthCrossCheck builds both OAuth metadata documents: the protected
// resource's authorization_servers is checked against the authorization
// server metadata the site publishes (RFC 9728 §2, RFC 8414 §3.1 and
// §3.3), each problem at its line and column in the protected resource's
// file.
func TestOAuthCrossCheck(t *testing.T) {
	const as = `{"issuer": "https://www.fict.org", "response_types_supported": ["code"],
 "authorization_endpoint": "https://www.fict.org/authorize", "token_endpoint": "https://www.fict.org/token",
 "code_challenge_methods_supported": ["S256"]}`
	cases := []struct {
		name, prm, as string
		errs, warns   []string
	}{
		{name: "named", prm: `{"resource": "https://www.fict.org/mcp", "authorization_servers": ["https://www.fict.org"]}`, as: as},
		{name: "another issuer also named", prm: `{"resource": "https://www.fict.org/mcp", "authorization_servers": ["https://auth.example", "https://www.fict.org"]}`, as: as},
		{name: "final slash", prm: `{"resource": "https://www.fict.org/mcp",
 "authorization_servers": ["https://www.fict.org/"]}`, as: as,
			errs: []string{`prm.json:2:28: well_known.oauth_protected_resource: oauth-protected-resource: /authorization_servers/0: "https://www.fict.org/" is not the issuer of the authorization server metadata this site publishes at https://www.fict.org/.well-known/oauth-authorization-server ("https://www.fict.org"): RFC 8414 §3.3 has a client reject metadata whose issuer is not identical to the identifier it was built from; give "https://www.fict.org"`}},
		{name: "not named", prm: `{"resource": "https://www.fict.org/mcp",
 "authorization_servers": ["https://auth.example"]}`, as: as,
			warns: []string{`prm.json:2:27: well_known.oauth_protected_resource: oauth-protected-resource: /authorization_servers: names no authorization server of this site, though it publishes the metadata of "https://www.fict.org": a client of this resource will not use it (RFC 9728 §2)`}},
		{name: "sub-path issuer", prm: `{"resource": "https://www.fict.org/mcp",
 "authorization_servers": ["https://www.fict.org", "https://www.fict.org/tenant"]}`, as: as,
			warns: []string{`prm.json:2:52: well_known.oauth_protected_resource: oauth-protected-resource: /authorization_servers/1: "https://www.fict.org/tenant" is an issuer with a path on this site: a client reads its metadata at https://www.fict.org/.well-known/oauth-authorization-server/tenant (RFC 8414 §3.1), which discgen does not publish (it publishes the site's own at https://www.fict.org/.well-known/oauth-authorization-server)`}},
		{name: "no server metadata", prm: `{"resource": "https://www.fict.org/mcp",
 "authorization_servers": ["https://www.fict.org"]}`,
			warns: []string{`prm.json:2:28: well_known.oauth_protected_resource: oauth-protected-resource: /authorization_servers/0: "https://www.fict.org" is this site's origin, but the site publishes no authorization server metadata (well_known.oauth_authorization_server): a client reads it at https://www.fict.org/.well-known/oauth-authorization-server (RFC 8414 §3)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "prm.json"), []byte(c.prm), 0o644); err != nil {
				t.Fatal(err)
			}
			src := "version: 1\nsite: {url: \"https://www.fict.org/\"}\nwell_known:\n  oauth_protected_resource: prm.json\n"
			if c.as != "" {
				if err := os.WriteFile(filepath.Join(dir, "as.json"), []byte(c.as), 0o644); err != nil {
					t.Fatal(err)
				}
				src += "  oauth_authorization_server: as.json\n"
			}
			doc := loadUnvalidated(t, src)
			tr, errs := Site(doc, Options{Now: now, Dir: dir})
			compare := func(what string, got []string, want []string) {
				t.Helper()
				if len(got) != len(want) {
					t.Errorf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
					return
				}
				for i := range want {
					if got[i] != want[i] {
						t.Errorf("%s %d:\n got %s\nwant %s", what, i, got[i], want[i])
					}
				}
			}
			var gotErrs, gotWarns []string
			for _, d := range errs.Errors() {
				gotErrs = append(gotErrs, d.String())
			}
			for _, d := range errs.Warnings() {
				gotWarns = append(gotWarns, strings.Replace(d.String(), "warning: ", "", 1))
			}
			compare("errors", gotErrs, c.errs)
			compare("warnings", gotWarns, c.warns)
			if len(c.errs) > 0 && tr != nil {
				t.Errorf("a tree was made despite the errors")
			}
			if len(c.errs) == 0 && tr[".well-known/oauth-protected-resource"].Data == nil {
				t.Errorf("the protected resource metadata was not written")
			}
		})
	}
}
