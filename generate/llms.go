package generate

import (
	"net/url"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/llmstxt"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/tree"
	"github.com/discgen/discgen/wellknown"
)

// aiFiles renders /llms.txt and /.well-known/api-catalog; relative URLs
// resolve against the site's URL and are written in canonical form.
func aiFiles(t tree.Tree, pos *manifest.Positions, m *manifest.Site, base *url.URL) diag.List {
	var errs diag.List
	if l := m.LlmsTxt; l != nil {
		d := llmstxt.Doc{Title: l.Title, Summary: l.Summary, Details: l.Details}
		for _, s := range l.Sections {
			sec := llmstxt.Section{Name: s.Name}
			for _, k := range s.Links {
				sec.Links = append(sec.Links, llmstxt.Link{Title: k.Title, URL: resolveURI(base, k.URL), Notes: k.Notes})
			}
			d.Sections = append(d.Sections, sec)
		}
		put(t, "llms.txt", llmstxt.Render(d), &errs)
	}
	if wk := m.WellKnown; wk != nil && len(wk.APICatalog) > 0 {
		var ctxs []wellknown.LinkContext
		for _, e := range wk.APICatalog {
			c := wellknown.LinkContext{Anchor: resolveURI(base, e.Anchor), Links: map[string][]wellknown.LinkTarget{}}
			for rel, ts := range map[string][]manifest.LinkTarget{
				"service-desc": e.ServiceDesc, "service-doc": e.ServiceDoc, "service-meta": e.ServiceMeta,
				"status": e.Status, "item": e.Item,
			} {
				for _, x := range ts {
					c.Links[rel] = append(c.Links[rel], wellknown.LinkTarget{Href: resolveURI(base, x.Href), Type: x.Type, Title: x.Title})
				}
			}
			ctxs = append(ctxs, c)
		}
		if err := t.Put(".well-known/"+wellknown.APICatalogName, wellknown.RenderLinkset(ctxs)); err != nil {
			errs.Errorf(pos.Of("well_known.api_catalog"), "well_known.api_catalog", "%v", err)
		}
	}
	return errs
}
