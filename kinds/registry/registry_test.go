package registry

import (
	"path"
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// TestKindsOnce: each kind is listed once, by a name, a manifest key and
// a path no other kind has, served at the site's root or under
// /.well-known/, with its root files first.
func TestKindsOnce(t *testing.T) {
	kinds := All()
	if len(kinds) == 0 {
		t.Fatal("the registry lists no kind")
	}
	names, keys, paths := map[string]bool{}, map[string]bool{}, map[string]bool{}
	wellKnownSeen := false
	for _, k := range kinds {
		for _, s := range []struct {
			what, v string
			seen    map[string]bool
		}{{"name", k.Name(), names}, {"key", k.Key(), keys}, {"path", k.Path(), paths}} {
			if s.v == "" || s.seen[s.v] {
				t.Errorf("%s: %s %q is empty or another kind's", k.Name(), s.what, s.v)
			}
			s.seen[s.v] = true
		}
		p := k.Path()
		if dir, _ := path.Split(p); dir != "" && !strings.HasPrefix(dir, ".well-known/") || strings.Contains(p, "..") || path.Clean(p) != p {
			t.Errorf("%s: path %q is neither at the root nor under .well-known/", k.Name(), p)
		}
		if WellKnown(k) {
			wellKnownSeen = true
		} else if wellKnownSeen {
			t.Errorf("%s: a file of the root after one under .well-known/", k.Name())
		}
		if got, ok := ByPath(p); !ok || got.Name() != k.Name() {
			t.Errorf("ByPath(%q) = %v, %v", p, got, ok)
		}
	}
}

// TestNothingGiven: a site that gives no kind gets no finding and no
// file from any.
func TestNothingGiven(t *testing.T) {
	site := &manifest.Site{}
	for _, k := range All() {
		if k.Given(site) {
			t.Errorf("%s: given by an empty site", k.Name())
		}
		if fs := k.Check(site, kit.Build{}); fs != nil {
			t.Errorf("%s: findings for an empty site: %v", k.Name(), fs)
		}
		if data, ok := k.Render(site, kit.Build{}); ok {
			t.Errorf("%s: renders %q for an empty site", k.Name(), data)
		}
	}
}

// FuzzLint: the lint of every kind that has one never panics and puts
// each diagnostic on a line of the file; a shape check puts each problem
// inside it.
func FuzzLint(f *testing.F) {
	for _, s := range []string{
		"google.com, pub-1, DIRECT, f08c47fec0942fa0\nCONTACT=a@b.org\n",
		`{"gpc": "true"}`, `{"applinks": {"details": [{"components": [{"?": {}}]}]}}`, `[{"relation": [], "target": {"namespace": "x"}}]`, `[{"user_agent": "*", "fraction": 2}]`, `[`,
		"did:plc:ewvi7nxzyoun6zhxrhs64oiz\n", `{"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "", "d": 1, "exp": 1e400}]}`, "\ufeffa.com,1,RESELLER;ext\r\nx=y\n,,,,\n\x00\n",
		`{"specVersion": 1, "entries": [{"identifier": "", "type": null, "url": "//x"}, 2]}`, `{"name": "a/b", "remotes": [{"headers": [{"isSecret": true, "value": "x"}]}], "icons": [{}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := strings.Count(s, "\n") + 1
		for _, k := range All() {
			if l, ok := k.(kit.Linter); ok {
				for _, d := range l.Lint([]byte(s)) {
					if d.Line < 0 || d.Line > n || d.Line > 0 && d.Col < 1 {
						t.Fatalf("%s: %q: finding at %d:%d outside the file's %d lines: %s", k.Name(), s, d.Line, d.Col, n, d.Message)
					}
				}
			}
			if c, ok := k.(kit.ShapeChecker); ok {
				for _, p := range c.CheckShape([]byte(s)) {
					if p.Line < 1 || p.Line > n || p.Col < 1 || p.Offset < 0 || p.Offset > len(s) {
						t.Fatalf("%s: %q: problem at %d:%d (offset %d) outside the file: %s", k.Name(), s, p.Line, p.Col, p.Offset, p.Message)
					}
				}
			}
		}
	})
}
