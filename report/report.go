// Package report describes a built site on one self-contained HTML page.
//
// The page shows which agent may fetch which URL and why (the rule and
// line of the built robots.txt that decides, and where the 1996 draft's
// reading differs), the delegation tree from the site to its inline
// delegatees and tenants, every file the build produces with its size,
// and every warning.
//
// The page embeds its style sheet and has no scripts and no external
// resources, so it reads the same offline, from an artifact store or on
// paper. Its bytes depend only on the input.
package report

import (
	"net/url"
	"strings"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
)

// Tenant is a tenant's built tree.
type Tenant struct {
	Manifest string
	Space    pathspace.Space
	Tree     tree.Tree
}

// Input is what a report is made from.
type Input struct {
	Manifest string // the manifest's path, as the user gave it
	Site     *manifest.Site
	Tree     tree.Tree // the site's built tree
	Tenants  []Tenant
	Diags    diag.List
	// URLs are extra URLs (paths or absolute URLs on the site) to ask about.
	URLs []string
	// Note is a line shown under the title, such as the build time.
	Note string
	// Rights is the licence and reservation headers --server writes
	// (generate.SiteRights); nil when not known.
	Rights *serverconf.Rights
}

// Page is the data the template renders.
type Page struct {
	Title, Manifest, SiteURL, Note string
	Agents                         []Agent
	PresetAgents                   int // the members of the preset columns
	Rows                           []Row
	Differ                         int // cells where the 1996 reading differs
	Tree                           *Node
	Files                          []File
	Total                          int
	// Tenants counts the tenants; past listTenants their files are not
	// in Files but summed in TenantFiles and TenantBytes.
	Tenants, TenantFiles, TenantBytes int
	Diags                             []Diag
	Errors, Warnings                  int
	NoRobots                          bool
}

// File is one produced file.
type File struct {
	Path string
	Size int
	Link string
}

// Diag is a warning or error.
type Diag struct {
	Severity, Text string
}

// Build computes the page.
func Build(in Input) *Page {
	m := in.Site
	p := &Page{Title: "discgen report: " + hostOf(m.Site.URL), Manifest: in.Manifest, SiteURL: m.Site.URL, Note: in.Note}
	data, ok := in.Tree["robots.txt"]
	p.NoRobots = !ok
	f := robots.Parse(data.Data)
	p.Agents = agents(m, crawlers.Default())
	for _, a := range p.Agents {
		p.PresetAgents += len(a.Members)
	}
	rd := rightsReader(in)
	for _, u := range urls(m, in.URLs) {
		row := Row{Path: u.path, Sources: u.sources}
		rowRights(&row, rd)
		for _, a := range p.Agents {
			c := matrixCell(f, m, a, u.path)
			if c.Differs {
				p.Differ++
			}
			row.Cells = append(row.Cells, c)
		}
		p.Rows = append(p.Rows, row)
	}
	p.Tree = delegationTree(m, in.Tree, in.Tenants)
	for _, path := range in.Tree.Paths() {
		e := in.Tree[path]
		p.Files = append(p.Files, File{Path: "/" + path, Size: len(e.Data), Link: e.Link})
		p.Total += len(e.Data)
	}
	for _, t := range in.Tenants {
		for _, path := range t.Tree.Paths() {
			e := t.Tree[path]
			if len(in.Tenants) <= listTenants {
				p.Files = append(p.Files, File{Path: strings.TrimSuffix(t.Space.String(), "/") + "/" + path, Size: len(e.Data), Link: e.Link})
			} else {
				p.TenantFiles++
				p.TenantBytes += len(e.Data)
			}
			p.Total += len(e.Data)
		}
	}
	p.Tenants = len(in.Tenants)
	for _, d := range in.Diags {
		p.Diags = append(p.Diags, Diag{d.Severity.String(), d.String()})
		if d.Severity == diag.Error {
			p.Errors++
		} else {
			p.Warnings++
		}
	}
	return p
}

func hostOf(s string) string {
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		return u.Host
	}
	return s
}
