package adopt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
	"go.yaml.in/yaml/v3"
)

// comments maps a manifest path ("" for the document, "agents[2]",
// "delegations[0].inline") to comment lines written above it.
type comments map[string][]string

func (c comments) add(path string, lines ...string) {
	c[path] = append(c[path], lines...)
}

func (c comments) head(path string) string {
	var b strings.Builder
	for i, l := range c[path] {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("# ")
		// Comments are free text: an invalid byte is shown, not kept.
		b.WriteString(strings.TrimRight(clean(l), " \t"))
	}
	return b.String()
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func num(n json.Number) *yaml.Node {
	tag := "!!int"
	if strings.ContainsAny(string(n), ".eE") {
		tag = "!!float"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(n)}
}

func strs(ss []string, flow bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	if flow {
		n.Style = yaml.FlowStyle
	}
	for _, s := range ss {
		n.Content = append(n.Content, str(s))
	}
	return n
}

// flowOK reports whether a list of strings reads well on one line.
func flowOK(ss []string) bool {
	n := 0
	for _, s := range ss {
		n += len(s) + 2
		if strings.ContainsAny(s, "\n\"'") {
			return false
		}
	}
	return n < 60
}

func list(ss []string) *yaml.Node { return strs(ss, flowOK(ss)) }

// lines writes manifest.Lines as one string when it has one line.
func lines(ls []string) *yaml.Node {
	if len(ls) == 1 {
		return str(ls[0])
	}
	return list(ls)
}

type mapping struct {
	n    *yaml.Node
	c    comments
	path string
}

func newMapping(c comments, path string) mapping {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	return mapping{n, c, path}
}

func (m mapping) sub(key string) string {
	if m.path == "" {
		return key
	}
	return m.path + "." + key
}

// add adds key: v, with the comments recorded for its path above the key.
func (m mapping) add(key string, v *yaml.Node) {
	k := str(key)
	k.HeadComment = m.c.head(m.sub(key))
	m.n.Content = append(m.n.Content, k, v)
}

func (m mapping) addStr(key, v string) {
	if v != "" {
		m.add(key, str(v))
	}
}

func (m mapping) addList(key string, v []string) {
	if len(v) > 0 {
		m.add(key, list(v))
	}
}

// seq builds a block sequence of n items, each from item(i, path), with
// the comments recorded for path[i] above the item.
func seq(c comments, path string, n int, item func(i int, p string) *yaml.Node) *yaml.Node {
	s := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for i := range n {
		p := manifest.Index(path, i)
		it := item(i, p)
		it.HeadComment = c.head(p)
		s.Content = append(s.Content, it)
	}
	return s
}

// encodeSite writes m as a commented YAML manifest. Every value is valid
// UTF-8 (the importers check); the encoder's panic on anything else is
// turned into an error rather than a crash.
func encodeSite(m *manifest.Site, c comments) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("cannot write the manifest: %v", r)
		}
	}()
	root := newMapping(c, "")
	root.add("version", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"})
	site := newMapping(c, "site")
	site.add("url", str(m.Site.URL))
	site.addStr("description", m.Site.Description)
	root.add("site", site.n)
	root.addStr("host", m.Host)
	if len(m.Agents) > 0 {
		root.add("agents", groups(c, "agents", m.Agents))
	}
	if m.Usage != nil {
		root.add("usage", usageNode(c, "usage", m.Usage))
	}
	if len(m.MobileAgents) > 0 {
		root.add("mobile_agents", seq(c, "mobile_agents", len(m.MobileAgents), func(i int, p string) *yaml.Node {
			e := newMapping(c, p)
			e.add("path", str(m.MobileAgents[i].Path))
			e.add("server", str(m.MobileAgents[i].Server))
			e.n.Style = yaml.FlowStyle
			return e.n
		}))
	}
	if len(m.Sitemaps) > 0 {
		root.add("sitemaps", strs(m.Sitemaps, false))
	}
	delegatee(root, &manifest.Delegatee{Icons: m.Icons, Feeds: m.Feeds, Delegations: m.Delegations, Files: m.Files})
	if len(m.Datasets) > 0 {
		root.add("datasets", seq(c, "datasets", len(m.Datasets), func(i int, p string) *yaml.Node {
			d := m.Datasets[i]
			e := newMapping(c, p)
			e.add("path", str(d.Path))
			e.addStr("name", d.Name)
			e.addStr("title", d.Title)
			e.addStr("description", d.Description)
			e.addStr("type", d.Type)
			e.addStr("license", d.License)
			return e.n
		}))
	}
	if d := m.DataTxt; d != nil {
		e := newMapping(c, "data_txt")
		e.addStr("format", d.Format)
		e.addList("disallow", d.Disallow)
		root.add("data_txt", e.n)
	}
	if wk := m.WellKnown; wk != nil || kindsGiven(m, "well_known") {
		if wk == nil {
			wk = &manifest.WellKnown{}
		}
		root.add("well_known", wellKnown(c, m, wk))
	}
	kindNodes(root, c, m, "", nil)
	if m.License != nil {
		root.add("license", licenseNode(c, m.License))
	}
	if m.TDM != nil {
		root.add("tdm", tdmNode(c, m.TDM))
	}
	root.addStr("policy_page", m.PolicyPage)
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root.n}}
	doc.HeadComment = c.head("")
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// delegatee adds what a delegatee may define (and the site shares with
// one) to m: description is added by the caller for the site.
func delegatee(m mapping, d *manifest.Delegatee) {
	c := m.c
	m.addStr("description", d.Description)
	m.addList("icons", d.Icons)
	if len(d.Feeds) > 0 {
		m.add("feeds", seq(c, m.sub("feeds"), len(d.Feeds), func(i int, p string) *yaml.Node {
			e := newMapping(c, p)
			e.add("url", str(d.Feeds[i].URL))
			e.addStr("type", d.Feeds[i].Type)
			return e.n
		}))
	}
	if len(d.Agents) > 0 {
		m.add("agents", groups(c, m.sub("agents"), d.Agents))
	}
	if len(d.Delegations) > 0 {
		m.add("delegations", seq(c, m.sub("delegations"), len(d.Delegations), func(i int, p string) *yaml.Node {
			dl := d.Delegations[i]
			e := newMapping(c, p)
			e.add("path", str(dl.Path))
			if dl.Only != nil {
				e.add("only", strs(dl.Only, true))
			}
			if dl.Except != nil {
				e.add("except", strs(dl.Except, true))
			}
			e.addStr("tenants", dl.Tenants)
			if dl.Inline != nil {
				in := newMapping(c, e.sub("inline"))
				delegatee(in, dl.Inline)
				e.add("inline", in.n)
			}
			return e.n
		}))
	}
	if len(d.Files) > 0 {
		f := newMapping(c, m.sub("files"))
		for _, name := range slices.Sorted(maps.Keys(d.Files)) {
			f.add(name, lines(d.Files[name]))
		}
		m.add("files", f.n)
	}
}

func groups(c comments, path string, gs []manifest.Group) *yaml.Node {
	return seq(c, path, len(gs), func(i int, p string) *yaml.Node {
		g := gs[i]
		e := newMapping(c, p)
		e.add("names", strs(g.Names, flowOK(g.Names)))
		e.addList("allow", g.Allow)
		if len(g.Disallow) > 0 || len(g.Allow) == 0 {
			e.add("disallow", list(g.Disallow))
		}
		if g.CrawlDelay != nil {
			e.add("crawl_delay", num(*g.CrawlDelay))
		}
		if len(g.Extensions) > 0 {
			e.add("extensions", seq(c, e.sub("extensions"), len(g.Extensions), func(j int, _ string) *yaml.Node {
				x := newMapping(c, "")
				x.n.Style = yaml.FlowStyle
				x.add("field", str(g.Extensions[j].Field))
				x.add("value", str(g.Extensions[j].Value))
				return x.n
			}))
		}
		if g.Usage != nil {
			e.add("usage", usageNode(c, e.sub("usage"), g.Usage))
		}
		return e.n
	})
}

// usageNode writes a usage block: preferences, paths (one flow mapping
// each) and formats.
func usageNode(c comments, path string, u *manifest.Usage) *yaml.Node {
	m := newMapping(c, path)
	m.addStr("train_ai", u.TrainAI)
	m.addStr("search", u.Search)
	m.addStr("ai_input", u.AIInput)
	m.addStr("use", u.Use)
	if len(u.Paths) > 0 {
		m.add("paths", seq(c, m.sub("paths"), len(u.Paths), func(j int, _ string) *yaml.Node {
			p := u.Paths[j]
			x := newMapping(c, "")
			x.n.Style = yaml.FlowStyle
			x.add("path", str(p.Path))
			x.addStr("train_ai", p.TrainAI)
			x.addStr("search", p.Search)
			x.addStr("ai_input", p.AIInput)
			return x.n
		}))
	}
	m.addList("formats", u.Formats)
	return m.n
}

func wellKnown(c comments, site *manifest.Site, wk *manifest.WellKnown) *yaml.Node {
	m := newMapping(c, "well_known")
	kindNodes(m, c, site, "well_known", beforeFiles)
	if len(wk.Files) > 0 {
		m.add("files", seq(c, "well_known.files", len(wk.Files), func(i int, p string) *yaml.Node {
			f := wk.Files[i]
			e := newMapping(c, p)
			e.add("name", str(f.Name))
			if f.Content != nil {
				v := str(*f.Content)
				if strings.Contains(*f.Content, "\n") {
					v.Style = yaml.LiteralStyle
				}
				e.add("content", v)
			}
			return e.n
		}))
	}
	kindNodes(m, c, site, "well_known", func(key string) bool { return !beforeFiles(key) })
	return m.n
}

// clean makes free text safe for a YAML comment (kit.Clean).
func clean(s string) string { return kit.Clean(s) }

// plain reports whether s can be a one-line manifest value as it is
// (kit.Plain).
func plain(s string) bool { return kit.Plain(s) }
