package adopt

import (
	"bytes"
	"errors"
	"net/url"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/discgen/discgen/llmstxt"
	"github.com/discgen/discgen/manifest"
)

// llmsTxt reads /llms.txt into llms_txt when it has the form discgen
// writes (rendering what was read gives the same bytes) and every value
// is one the manifest accepts; otherwise it is left out with a warning,
// since the manifest has no place for a file it cannot describe.
func (d *dirImport) llmsTxt() {
	data := d.read("llms.txt")
	if data == nil {
		return
	}
	doc, err := llmstxt.Parse(data)
	if err == nil && !bytes.Equal(llmstxt.Render(doc), data) {
		err = errors.New("it is not in the form discgen writes (a heading, blockquote, details, then sections of \"- [title](url): notes\" items)")
	}
	if err == nil {
		err = llmsValues(doc)
	}
	if err != nil {
		d.warn("llms.txt", 0, "left out: %v", err)
		return
	}
	l := &manifest.LlmsTxt{Title: doc.Title, Summary: doc.Summary, Details: doc.Details}
	for _, s := range doc.Sections {
		sec := manifest.LlmsSection{Name: s.Name}
		for _, k := range s.Links {
			sec.Links = append(sec.Links, manifest.LlmsLink{Title: k.Title, URL: k.URL, Notes: k.Notes})
		}
		l.Sections = append(l.Sections, sec)
	}
	d.r.Site.LlmsTxt = l
}

// llmsValues refuses what the manifest would refuse: values that are not
// plain one-line text, a heading in the details, URLs that are not
// absolute http(s) URLs.
func llmsValues(doc llmstxt.Doc) error {
	one := []string{doc.Title, doc.Summary}
	for _, s := range doc.Sections {
		one = append(one, s.Name)
		for _, k := range s.Links {
			one = append(one, k.Title, k.Notes)
			u, err := url.Parse(k.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(k.URL, " \t") {
				return errors.New("the link " + clean(k.URL) + " is not an absolute http(s) URL")
			}
		}
	}
	for _, s := range one {
		if !plain(s) {
			return errors.New("a title, summary, section name or note holds a character the manifest refuses")
		}
	}
	if !plain(strings.NewReplacer("\n", "", "\t", "").Replace(doc.Details)) {
		return errors.New("the details hold a character the manifest refuses")
	}
	if off, line := llmstxt.Heading(doc.Details); off >= 0 {
		return errors.New("the details hold a heading, " + clean(strings.TrimSpace(line)) + ", which the manifest refuses")
	}
	return nil
}

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
