package adopt

import (
	"unicode/utf8"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
)

// The files of design section 13. ads.txt and app-ads.txt become ads_txt
// and app_ads_txt: their records and variables, each line that is neither
// reported and left out. gpc.json, traffic-advice and atproto-did become
// well_known.gpc, traffic_advice and atproto_did when the manifest builds
// them byte for byte (discgen's own output); any other is kept as a
// well-known file, byte for byte, as the app association files are.
// Each key a kind sets is written by kindNodes (kinds.go).

// rootProbes are the files of the site's root Fetch asks for besides
// robots.txt, data.txt and llms.txt: those of the registry's kinds that
// import.
var rootProbes = func() []string {
	var out []string
	for _, k := range registry.All() {
		if _, ok := k.(kit.Importer); ok && !registry.WellKnown(k) {
			out = append(out, k.Path())
		}
	}
	return out
}()

// rootKinds imports the files of the tree's root that a kind of the
// registry carries back into the manifest (ads.txt, app-ads.txt).
func (d *dirImport) rootKinds() {
	for _, k := range registry.All() {
		im, ok := k.(kit.Importer)
		if !ok || registry.WellKnown(k) {
			continue
		}
		name := k.Path()
		data := d.read(name)
		if data == nil {
			continue
		}
		if !utf8.Valid(data) {
			d.warn(name, 0, "is not UTF-8: left out")
			continue
		}
		im.Import(&d.r.Site, data, func(line int, format string, args ...any) { d.warn(name, line, format, args...) })
	}
}

// redirects says, for each kind served as a redirect (change-password),
// that a tree cannot show it: the redirect is the web server's, written by
// --server, and no file of the tree holds its target.
func (d *dirImport) redirects() {
	for _, k := range registry.All() {
		if _, ok := k.(kit.Redirector); ok {
			d.r.Diags.Warnf(diag.Pos{File: d.dir}, "", "%s is served as a redirect (/%s), which a built tree does not hold: if the site has one, add %s to the manifest by hand", k.Key(), k.Path(), k.Key())
		}
	}
}

// sectionWellKnown imports the well-known file name at tree path p into
// the key of the registry's kind served there, when the kind can take it
// back (security.txt, with its comments; gpc.json, traffic-advice and
// atproto-did when the manifest builds them byte for byte); it reports
// whether it did.
func (d *dirImport) sectionWellKnown(p, name string, data []byte) bool {
	k, ok := registry.ByPath(".well-known/" + name)
	if !ok {
		return false
	}
	im, ok := k.(kit.Importer)
	if !ok || !im.Import(&d.r.Site, data, func(line int, format string, args ...any) { d.warn(p, line, format, args...) }) {
		return false
	}
	if cm, ok := k.(kit.Commented); ok {
		if cs := cm.Comments(data); len(cs) > 0 {
			d.r.comments.add(k.Key(), cs...)
		}
	}
	return true
}

// siteURL takes the URL a well-known file of a registry's kind names as
// the site's own (an OAuth metadata document's issuer or resource) as a
// candidate for site.url.
func (d *dirImport) siteURL(name string, data []byte) {
	k, ok := registry.ByPath(".well-known/" + name)
	if !ok {
		return
	}
	if on, ok := k.(kit.OriginNamer); ok {
		if u, ok := on.SiteURL(data); ok {
			d.r.urls = append(d.r.urls, u)
		}
	}
}
