package generate

import (
	"net/url"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/llmstxt"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/tree"
)

// aiFiles renders /llms.txt; relative URLs resolve against the site's
// URL and are written in canonical form.
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
	return errs
}
