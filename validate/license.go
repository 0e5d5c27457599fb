package validate

import (
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/robots"
)

// license checks the RSL licence block (RSL 1.0, RSL-SPEC-1.0): its url is
// a URL robots.txt and a Link header can carry, absolute or relative to
// site.url; a source is a file beside the manifest, published at url's
// path, so url must then name a file of the site itself. The source's
// content is checked as an RSL document when the build reads it.
func (v *checker) license(p, siteURL string, l *manifest.License) {
	up := manifest.Key(p, "url")
	u := v.linkURL(up, l.URL, "the licence URL")
	if l.Source == "" {
		return
	}
	v.localPath(manifest.Key(p, "source"), l.Source)
	if u == nil {
		return
	}
	if _, ok := model.SiteFilePath(siteURL, l.URL); !ok {
		v.err(up, "%q: a source is published at the URL's path, so the URL must be a file of the site (%s): not another host, a directory (ending in \"/\"), a query or a fragment", l.URL, siteURL)
	}
}

// linkURL checks a URL that discgen writes absolute into robots.txt, a
// JSON file and a header (a Link target, a tdm-policy): a path from the
// site's root or an absolute http(s) URL, holding no character RFC 3986
// leaves out of URIs (such as "<", ">" or a quote, which would end the
// Link header's target) and no "$", which nginx would expand.
func (v *checker) linkURL(p, s, what string) *url.URL {
	if i := strings.IndexAny(s, "<>\"\\^`{|}"); i >= 0 {
		v.err(p, "%q: %s cannot hold %q (RFC 3986 leaves it out of URIs); percent-encode it", s, what, s[i:i+1])
		return nil
	}
	if strings.Contains(s, "$") {
		v.err(p, "%q: %s cannot hold \"$\": nginx reads it as the start of a variable in the header --server writes; write %%24", s, what)
		return nil
	}
	return v.siteRef(p, s, what)
}

// tdm checks the TDMRep block (W3C TDMRep, CG final report 2024-05-10):
// policies are URLs; each path is a robots.txt-style pattern, given once,
// saying a reservation or a policy; no two paths of one length may match
// one URL, since which applies would then depend on their order.
func (v *checker) tdm(p string, t *manifest.TDM) {
	if t.Reservation == nil && t.Policy == "" && len(t.Paths) == 0 {
		v.warn(p, "tdm states nothing: give reservation, policy or paths")
	}
	if t.Policy != "" {
		v.linkURL(manifest.Key(p, "policy"), t.Policy, "a TDM policy")
		if t.Reservation != nil && !*t.Reservation {
			v.warn(manifest.Key(p, "policy"), "a policy with reservation false is written but read by no one: TDMRep agents should not process tdm-policy where rights are not reserved")
		}
	}
	if len(t.Paths) > MaxTDMPaths {
		v.err(manifest.Index(manifest.Key(p, "paths"), MaxTDMPaths), "more than %d tdm paths; the limit is %d", MaxTDMPaths, MaxTDMPaths)
		return
	}
	type seenPath struct{ canon, at string }
	first := map[string]string{}    // canonical path: where it is first given
	byLen := map[int][]seenPath{}   // the paths with a wildcard, by length
	literal := map[int][]seenPath{} // the others, by length
	for i, tp := range t.Paths {
		ip := manifest.Index(manifest.Key(p, "paths"), i)
		pp := manifest.Key(ip, "path")
		if tp.Reservation == nil && tp.Policy == "" {
			v.err(ip, "%q states nothing: give reservation or policy", tp.Path)
		}
		if tp.Policy != "" {
			v.linkURL(manifest.Key(ip, "policy"), tp.Policy, "a TDM policy")
			if tp.Reservation != nil && !*tp.Reservation {
				v.warn(manifest.Key(ip, "policy"), "a policy with reservation false is written but read by no one: TDMRep agents should not process tdm-policy where rights are not reserved")
			}
		}
		if tp.Reservation == nil && t.Reservation == nil && tp.Policy != "" {
			v.err(ip, "%q has no reservation, and tdm has none for it to take: every tdmrep.json rule needs tdm-reservation; give reservation", tp.Path)
		}
		if !v.rulePath(pp, tp.Path, "tdmrep.json") {
			continue
		}
		c := robots.Canonical(tp.Path)
		if c == "/" {
			v.err(pp, "%q is every path, which tdm's own reservation and policy say: tdmrep.json would hold two rules for \"/\"; give them there", tp.Path)
			continue
		}
		here := v.pos.Of(pp).String()
		if at, dup := first[c]; dup {
			v.err(pp, "%q is given twice (first at %s)", tp.Path, at)
			continue
		}
		first[c] = here
		// Two literal paths of one length meet only when equal; a path
		// with a wildcard is compared with every other of its length.
		wild := strings.ContainsAny(c, "*$")
		others := byLen[len(c)]
		if wild {
			others = append(slices.Clone(others), literal[len(c)]...)
		}
		for _, s := range others {
			if robots.MayOverlap(s.canon, c) {
				v.err(pp, "%q and the path at %s have the same length and may match one URL: which applies would depend on their order; make one of them longer", tp.Path, s.at)
				break
			}
		}
		if wild {
			byLen[len(c)] = append(byLen[len(c)], seenPath{c, here})
		} else {
			literal[len(c)] = append(literal[len(c)], seenPath{c, here})
		}
	}
}

// MaxTDMPaths bounds tdm.paths: each is a rule of tdmrep.json and of
// every server configuration.
const MaxTDMPaths = 5_000

// rights checks the licence and the reservation.
func (v *checker) rights(m *manifest.Site) {
	for i, g := range m.Agents {
		for j, e := range g.Extensions {
			if strings.EqualFold(strings.TrimSpace(e.Field), "license") {
				v.err(manifest.Key(manifest.Index(manifest.Key(manifest.Index("agents", i), "extensions"), j), "field"),
					"License is a global line (RSL 1.0), not part of a group, where a crawler may take it for the group's agents alone: give license.url, which discgen writes after every group (and as a Link header with --server)")
			}
		}
	}
	for i, e := range m.Expect {
		ep := manifest.Index("expect", i)
		if e.License != "" {
			v.linkURL(manifest.Key(ep, "license"), e.License, "the licence URL")
		}
		if e.TDM != nil && e.TDM.Policy != "" {
			v.linkURL(manifest.Key(manifest.Key(ep, "tdm"), "policy"), e.TDM.Policy, "a TDM policy")
		}
	}
	if m.License != nil {
		v.license("license", m.Site.URL, m.License)
	}
	if m.TDM != nil {
		v.tdm("tdm", m.TDM)
	}
}
