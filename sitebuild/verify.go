package sitebuild

import (
	"context"

	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/verify"
)

// Verify fetches every file the site and its tenants build from
// opt.Origin (the site's own URL when empty) and checks each against the
// build (verify.Run), then the sitemaps its robots.txt names
// (verify.Sitemaps). What the build decides of the check (the usage
// header, the licence and reservation headers, the redirects, the roots)
// is filled in from the site.
func (s *Site) Verify(ctx context.Context, opt verify.Options) ([]verify.Result, error) {
	m := s.Doc.Value
	if opt.Origin == "" {
		opt.Origin = m.Site.URL
	}
	opt.Usage, _ = generate.HeaderUsage(s.Model)
	if m.License != nil || m.TDM != nil {
		rights := generate.SiteRights(s.Model)
		opt.Rights = &rights
	}
	opt.Redirects = generate.Redirects(s.Model)
	opt.Roots = []verify.Root{{Prefix: "/", Tree: s.Tree}}
	for _, tn := range s.Tenants {
		opt.Roots = append(opt.Roots, verify.Root{Prefix: tn.Space.String(), Tree: tn.Tree})
	}
	rs, err := verify.Run(ctx, opt)
	if err != nil {
		return nil, err
	}
	sitemaps, err := verify.Sitemaps(ctx, opt, m.Site.URL)
	return append(rs, sitemaps...), err
}
