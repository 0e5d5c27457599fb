package generate

import (
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
)

// ServerPathWarnings warns, for a --server build, of each usage path and
// tdm path the server configuration leaves out: one holding an escaped
// reserved character (%2F, %3D, ...), which nginx, Apache and Caddy
// decode before matching, so that its rule would also match the URL with
// the raw character, of which robots.txt and tdmrep.json say nothing. A
// request for a URL holding the escape gets no such header (serverconf's
// requestform.go), and readers take the files' word.
func ServerPathWarnings(s *model.Site) diag.List {
	doc := s.Doc()
	var l diag.List
	m := doc.Value
	say := func(path, p, header, file string) {
		c := robots.Canonical(p)
		e := serverconf.ReservedEscape(c)
		if e == "" {
			return
		}
		raw := strings.Replace(c, e, string(rawOf(e)), 1)
		l.Warnf(doc.Pos.Of(path), path, "%q holds %s, which nginx, Apache, Caddy and _headers decode before matching (they would match %s too): the path is left out of the server configuration, so a request for a URL holding %s gets no %s, and readers take %s's", p, e, raw, e, header, file)
	}
	if m.Usage != nil {
		for i, p := range m.Usage.Paths {
			say(manifest.Key(manifest.Index(manifest.Key("usage", "paths"), i), "path"), p.Path, "Content-Usage header", "robots.txt")
		}
	}
	if m.TDM != nil {
		for i, p := range m.TDM.Paths {
			say(manifest.Key(manifest.Index(manifest.Key("tdm", "paths"), i), "path"), p.Path, "tdm header", tdmrep.Path)
		}
	}
	return l
}

// rawOf is the byte an escape "%XX" stands for.
func rawOf(e string) byte {
	h := func(c byte) byte {
		switch {
		case c >= 'a':
			return c - 'a' + 10
		case c >= 'A':
			return c - 'A' + 10
		}
		return c - '0'
	}
	return h(e[1])<<4 | h(e[2])
}
