package serverconf

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/tdmrep"
	"github.com/discgen/discgen/tree"
)

// _headers sends the licence on every path, and writes a location's tdm
// headers only where no other location shares its URLs: Netlify and
// Cloudflare Pages join the values of every matching rule ("1, 0" is a
// protocol error a reader takes as no reservation) and cannot unset. What
// is left out is warned, and readers take it from tdmrep.json.
func TestRightsHeadersFile(t *testing.T) {
	rendered := tree.Tree{"robots.txt": {Data: []byte("User-agent: *\nDisallow:\n")}}
	for _, tc := range []struct {
		name     string
		r        Rights
		want     []string
		not      []string
		warnings []string
	}{
		{"nested", rightsSite(),
			[]string{"\n/*\n  Link: <https://www.example.org/license.xml>; rel=\"license\"; type=\"application/rsl+xml\"\n"},
			[]string{"tdm-reservation"},
			[]string{`"/open/closed/"`, `"/caf%C3%A9/"`, `"/*.pdf$"`, `"/open/"`, `"/"`}},
		{"apart", Rights{TDM: []tdmrep.Rule{
			{Location: "/b/", Reservation: 0},
			{Location: "/a/", Reservation: 1, Policy: "https://example.org/p.json"},
		}},
			[]string{"\n/b/*\n  tdm-reservation: 0\n", "\n/a/*\n  tdm-reservation: 1\n  tdm-policy: https://example.org/p.json\n"},
			[]string{"Link"}, nil},
		{"site only", Rights{TDM: []tdmrep.Rule{{Location: "/", Reservation: 1}}},
			[]string{"\n/*\n  tdm-reservation: 1\n"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			public, _, err := RenderAccess(rendered, []Kind{Headers}, Access{Rights: tc.r})
			if err != nil {
				t.Fatal(err)
			}
			got := string(public[HeadersFile].Data)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("_headers lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("_headers holds %q:\n%s", n, got)
				}
			}
			ws := Warnings([]Kind{Headers}, Access{Rights: tc.r})
			if len(ws) != len(tc.warnings) {
				t.Errorf("Warnings = %q, want %d", ws, len(tc.warnings))
			}
			for _, w := range tc.warnings {
				if !strings.Contains(strings.Join(ws, "\n"), w) {
					t.Errorf("no warning names %s: %q", w, ws)
				}
			}
			if ws := Warnings([]Kind{Nginx, Htaccess, Caddy}, Access{Rights: tc.r}); len(ws) != 0 {
				t.Errorf("Warnings for servers that match every path = %q", ws)
			}
		})
	}
}
