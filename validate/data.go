package validate

import (
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
)

func (v *checker) datasets(m *manifest.Site) {
	names := map[string]string{}
	paths := map[string]string{}
	for i, d := range m.Datasets {
		p := manifest.Index("datasets", i)
		pp := manifest.Key(p, "path")
		if d.Path == "" || d.Path[0] != '/' {
			v.err(pp, "%q must be a URL path starting with \"/\"", d.Path)
		} else if v.noSpace(pp, d.Path, "a path") && v.noHash(pp, d.Path, "data.txt") && v.escapes(pp, d.Path) {
			if first, dup := paths[d.Path]; dup {
				v.err(pp, "dataset %q is listed twice (first at %s)", d.Path, first)
			}
			paths[d.Path] = v.pos.Of(pp).String()
		}
		if d.Name != "" {
			np := manifest.Key(p, "name")
			if first, dup := names[d.Name]; dup {
				v.err(np, "dataset name %q is used twice (first at %s)", d.Name, first)
			}
			names[d.Name] = v.pos.Of(np).String()
		}
		if d.Type != "" && !mediaTypeRE.MatchString(d.Type) {
			v.err(manifest.Key(p, "type"), "%q is not a media type such as text/csv", d.Type)
		}
	}
	if m.DataTxt != nil {
		allowed := map[string]int{}
		for i, d := range m.Datasets {
			if _, ok := allowed[robots.Canonical(d.Path)]; !ok {
				allowed[robots.Canonical(d.Path)] = i
			}
		}
		for i, d := range m.DataTxt.Disallow {
			dp := manifest.Index("data_txt.disallow", i)
			if !v.rulePath(dp, d, "data.txt") {
				continue
			}
			if j, ok := allowed[robots.Canonical(d)]; ok && m.DataTxt.Format != "yaml" {
				jp := manifest.Key(manifest.Index("datasets", j), "path")
				v.err(dp, "%q is also the path of %s (%s): data.txt would have both Allow: and Disallow: for it; remove one", d, jp, v.pos.Of(jp))
			}
		}
		if len(m.Datasets) == 0 {
			v.warn("data_txt", "data_txt is set but there are no datasets; data.txt is not written")
		}
		if m.DataTxt.Format == "yaml" && len(m.DataTxt.Disallow) > 0 {
			v.warn("data_txt.disallow", "the yaml format has no disallow lines; these paths are not written (use format: records)")
		}
	}
}
