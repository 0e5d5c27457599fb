package mcp

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Import sets well_known.mcp from a catalogue that discgen renders byte
// for byte from servers whose cards are served elsewhere, each name taken
// from its identifier's last segment (reported: the catalogue carries
// none). A catalogue with an entry that points at a card discgen would
// publish beside it (under /.well-known/mcp/), in another form, or whose
// servers fail their check stays a well-known file with its cards.
func (k Kind) Import(site *manifest.Site, data []byte, warn func(int, string, ...any)) bool {
	var f File
	if json.Unmarshal(data, &f) != nil || f.SpecVersion != SpecVersion || len(f.Entries) == 0 {
		return false
	}
	m := &Value{}
	for _, e := range f.Entries {
		u, err := url.Parse(e.URL)
		if err != nil || e.Type != CardType || strings.HasPrefix(u.Path, "/.well-known/mcp") {
			return false
		}
		m.Servers = append(m.Servers, Server{Identifier: e.Identifier, Name: slug(e.Identifier), URL: e.URL})
	}
	try := &manifest.Site{Site: site.Site}
	kit.SetValue(try, k.Key(), m)
	if kit.FirstError(k.Check(try, kit.Build{})) != nil {
		return false
	}
	if out, ok := k.Render(try, kit.Build{}); !ok || !bytes.Equal(out, data) {
		return false
	}
	kit.SetValue(site, k.Key(), m)
	warn(0, "a catalogue names no server's name: each is its identifier's last segment; give the names people know them by")
	return true
}
