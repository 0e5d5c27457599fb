package adopt

import (
	"go.yaml.in/yaml/v3"

	"github.com/discgen/discgen/manifest"
)

// llmsNode writes llms_txt.
func llmsNode(c comments, l *manifest.LlmsTxt) *yaml.Node {
	m := newMapping(c, "llms_txt")
	m.add("title", str(l.Title))
	m.addStr("summary", l.Summary)
	if l.Details != "" {
		v := str(l.Details)
		v.Style = yaml.LiteralStyle
		m.add("details", v)
	}
	if len(l.Sections) > 0 {
		m.add("sections", seq(c, "llms_txt.sections", len(l.Sections), func(i int, p string) *yaml.Node {
			s := l.Sections[i]
			e := newMapping(c, p)
			e.add("name", str(s.Name))
			if len(s.Links) > 0 {
				e.add("links", seq(c, p+".links", len(s.Links), func(j int, lp string) *yaml.Node {
					k := s.Links[j]
					x := newMapping(c, lp)
					x.add("title", str(k.Title))
					x.add("url", str(k.URL))
					x.addStr("notes", k.Notes)
					x.n.Style = yaml.FlowStyle
					return x.n
				}))
			}
			return e.n
		}))
	}
	return m.n
}
