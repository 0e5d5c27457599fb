package report

import (
	"bytes"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/sitebuild"
)

// Site renders the page about a site built in memory (Build, Render): its
// verdicts, delegations, tenants, files and diags (the build's), asking
// about urls too; manifest names the site manifest, and note says when
// it was built.
func Site(s *sitebuild.Site, manifest string, diags diag.List, urls []string, note string) ([]byte, error) {
	in := Input{Manifest: manifest, Site: s.Doc.Value, Tree: s.Tree, Diags: diags, URLs: urls, Note: note}
	headers := generate.SiteRights(s.Model)
	in.Rights = &headers
	for _, tn := range s.Tenants {
		in.Tenants = append(in.Tenants, Tenant{Manifest: tn.Manifest, Space: tn.Space, Tree: tn.Tree})
	}
	var b bytes.Buffer
	err := Render(&b, Build(in))
	return b.Bytes(), err
}
