package adopt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/mcp"
)

// TestImportMCPCatalog: a catalogue of cards served elsewhere, as discgen
// writes it, becomes well_known.mcp (each name taken from its
// identifier, which is reported); one that points at a card published
// beside it stays a well-known file, byte for byte, with its cards.
func TestImportMCPCatalog(t *testing.T) {
	const external = `{
  "specVersion": "draft",
  "entries": [
    {
      "identifier": "urn:air:www.fict.org:docs:search",
      "type": "application/mcp-server-card+json",
      "url": "https://www.fict.org/mcp/server-card"
    }
  ]
}
`
	local := strings.Replace(external, "https://www.fict.org/mcp/server-card", "https://www.fict.org/.well-known/mcp/servers/search.json", 1)
	for _, c := range []struct {
		name, catalog string
		key           bool
	}{{"external", external, true}, {"local", local, false}, {"not discgen's form", strings.ReplaceAll(external, "  ", "\t"), false}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, ".well-known", "mcp", "catalog.json")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(c.catalog), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := Dir(dir, Options{Now: goldenNow, SiteURL: "https://www.fict.org/"})
			if err != nil {
				t.Fatal(err)
			}
			wk := res.Site.WellKnown
			y := string(res.YAML)
			if !c.key {
				if wk == nil || (mcp.Kind{}).Given(&res.Site) || len(wk.Files) != 1 || wk.Files[0].Name != "mcp/catalog.json" {
					t.Errorf("well_known: %+v; want the catalogue kept as a file", wk)
				}
				return
			}
			if !(mcp.Kind{}).Given(&res.Site) || wk != nil && len(wk.Files) != 0 {
				t.Fatalf("well_known: %+v; want well_known.mcp", wk)
			}
			want := "  mcp:\n    servers:\n      - {identifier: 'urn:air:www.fict.org:docs:search', name: search, url: 'https://www.fict.org/mcp/server-card'}\n"
			if !strings.Contains(y, want) {
				t.Errorf("manifest lacks %q:\n%s", want, y)
			}
			var b strings.Builder
			for _, d := range res.Diags {
				b.WriteString(d.String() + "\n")
			}
			if d := b.String(); !strings.Contains(d, "/.well-known/mcp/catalog.json: warning: a catalogue names no server's name: each is its identifier's last segment; give the names people know them by") {
				t.Errorf("diagnostics:\n%s", d)
			}
		})
	}
}
