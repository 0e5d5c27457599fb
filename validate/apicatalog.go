package validate

import (
	"path"
	"slices"
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/wellknown"
)

// apiCatalog checks well_known.api_catalog: anchors and hrefs are URLs
// that stay in the site or absolute http(s) URLs; each type is a media
// type; an anchor is given once. The relations are the manifest's keys,
// which the schema fixes (an unknown one is an unknown key there).
func (v *checker) apiCatalog(p string, entries []manifest.APICatalogEntry, files []manifest.WellKnownFile) {
	if len(entries) == 0 {
		return
	}
	for i, f := range files {
		if name, err := wellknown.FileName(f.Name); err == nil && name == wellknown.APICatalogName {
			np := manifest.Key(manifest.Index(manifest.Key(manifest.Parent(p), "files"), i), "name")
			v.err(np, "%q is also written from well_known.api_catalog; give it in one place", f.Name)
		}
	}
	anchors := map[string]string{}
	for i, e := range entries {
		ep := manifest.Index(p, i)
		ap := manifest.Key(ep, "anchor")
		if v.siteRef(ap, e.Anchor, "an anchor") != nil {
			if first, dup := anchors[e.Anchor]; dup {
				v.warn(ap, "anchor %q is listed twice (first at %s); give all its links in one entry", e.Anchor, first)
			} else {
				anchors[e.Anchor] = v.pos.Of(ap).String()
			}
		}
		n := 0
		for _, rel := range []struct {
			key     string
			targets []manifest.LinkTarget
		}{
			{"service_desc", e.ServiceDesc}, {"service_doc", e.ServiceDoc}, {"service_meta", e.ServiceMeta},
			{"status", e.Status}, {"item", e.Item},
		} {
			rp := manifest.Key(ep, rel.key)
			for j, t := range rel.targets {
				n++
				tp := manifest.Index(rp, j)
				v.siteRef(manifest.Key(tp, "href"), t.Href, "a link target")
				if t.Type != "" {
					if err := wellknown.CheckMediaType(t.Type); err != nil {
						v.err(manifest.Key(tp, "type"), "%v", err)
					}
				}
			}
		}
		if n == 0 {
			v.warn(ep, "the entry for %q has no links: give service_desc, service_doc, service_meta, status or item", e.Anchor)
		}
	}
}

// wellKnownSchema checks a well-known file's schema: a name discgen
// ships, or a path to a schema file relative to the manifest.
func (v *checker) wellKnownSchema(fp string, f manifest.WellKnownFile) {
	sp := manifest.Key(fp, "schema")
	switch {
	case f.Schema == "":
		return
	case slices.Contains(wellknown.ShippedSchemas(), f.Schema):
	case strings.ContainsAny(f.Schema, "/\\") || path.Ext(f.Schema) != "":
		v.localPath(sp, f.Schema)
	default:
		v.err(sp, "%q is not a schema discgen ships (%s); give one of those, or the path of a JSON Schema file relative to the manifest", f.Schema, strings.Join(wellknown.ShippedSchemas(), ", "))
	}
}
