package generate

import (
	"fmt"
	"net/url"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/rights"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/rsl"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
	"github.com/discgen/discgen/tree"
)

// MaxLicenseBytes bounds an RSL document a manifest names as its source.
const MaxLicenseBytes = MaxSourceBytes

// licenseURL returns the absolute URL of the site's RSL licence (written
// as icons and sitemaps are, resolveURI), or "" when it has none.
func licenseURL(m *manifest.Site) string {
	if m.License == nil || m.License.URL == "" {
		return ""
	}
	return absolute(m, m.License.URL)
}

func absolute(m *manifest.Site, ref string) string {
	base, err := url.Parse(m.Site.URL)
	if err != nil {
		return ref
	}
	return resolveURI(base, ref)
}

// licenseLines returns the License lines robots.txt gets: the licence
// URL, unless robots_txt is false.
func licenseLines(m *manifest.Site) []string {
	if !m.License.WritesRobotsTxt() || m.License.URL == "" {
		return nil
	}
	return []string{licenseURL(m)}
}

// tdmRules returns the rules of the site's /.well-known/tdmrep.json, in
// the file's order (tdmrep.Sort); nil when the manifest has no tdm. The
// site's reservation is the rule for "/"; each path is a rule of its own,
// taking the site's reservation when it gives none, and the site's policy
// when it gives none and its rights are reserved (a policy where rights
// are not reserved is read by no one).
func tdmRules(m *manifest.Site) []tdmrep.Rule {
	t := m.TDM
	if t == nil {
		return nil
	}
	var out []tdmrep.Rule
	site := func() (int, bool) {
		if t.Reservation == nil {
			return 0, false
		}
		return bit(*t.Reservation), true
	}
	policy := func(ref string) string {
		if ref == "" {
			return ""
		}
		return absolute(m, ref)
	}
	if r, ok := site(); ok {
		out = append(out, tdmrep.Rule{Location: "/", Reservation: r, Policy: policy(t.Policy)})
	}
	for _, p := range t.Paths {
		r, ok := site()
		if p.Reservation != nil {
			r, ok = bit(*p.Reservation), true
		}
		if !ok {
			continue // validate refuses it
		}
		pol := p.Policy
		if pol == "" && r == 1 {
			pol = t.Policy
		}
		out = append(out, tdmrep.Rule{Location: robots.Canonical(p.Path), Reservation: r, Policy: policy(pol)})
	}
	tdmrep.Sort(out)
	return out
}

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rightsFiles renders /.well-known/tdmrep.json and the licence's source,
// published at its URL's path once checked as an RSL document: each
// problem of the document at its line and column in the source file.
func rightsFiles(t tree.Tree, pos *manifest.Positions, m *manifest.Site, md *manifestDir) diag.List {
	var errs diag.List
	if m.TDM != nil {
		if rules := tdmRules(m); len(rules) > 0 {
			put(t, tdmrep.Path[1:], tdmrep.Marshal(rules), &errs)
		}
	}
	l := m.License
	if l == nil || l.Source == "" {
		return errs
	}
	sp := "license.source"
	data, err := md.read(l.Source, MaxLicenseBytes)
	if err != nil {
		errs.Errorf(pos.Of(sp), sp, "cannot read %q: %v", l.Source, err)
		return errs
	}
	problems := rsl.Check(data)
	for _, p := range problems {
		at := diag.Pos{File: sourcePath(pos.File, l.Source), Line: p.Line, Col: p.Col}
		if p.Warning {
			errs.Warnf(at, sp, "%s (%s)", p.Message, rsl.Version)
		} else {
			errs.Errorf(at, sp, "%s (%s)", p.Message, rsl.Version)
		}
	}
	if len(rsl.Errors(problems)) > 0 {
		return errs
	}
	name, ok := model.SiteFilePath(m.Site.URL, l.URL)
	if !ok {
		errs.Errorf(pos.Of("license.url"), "license.url", "%q is not a file of the site, where the source could be published", l.URL)
		return errs
	}
	if err := t.Put(name, data); err != nil {
		errs.Errorf(pos.Of("license.url"), "license.url", "cannot publish the licence at /%s: %v", name, err)
	}
	return errs
}

// SiteRights returns the licence and reservation --server sends as
// headers: the same URL as robots.txt's License line, and the rules of
// tdmrep.json; and where the RSL document is published, to be served
// with its media type.
func SiteRights(s *model.Site) serverconf.Rights { return siteRights(s.Value()) }

func siteRights(m *manifest.Site) serverconf.Rights {
	r := serverconf.Rights{License: licenseURL(m), TDM: tdmRules(m)}
	if l := m.License; l != nil && l.Source != "" {
		if name, ok := model.SiteFilePath(m.Site.URL, l.URL); ok {
			r.Document = name
		}
	}
	return r
}

// checkExpectRights checks an expect entry's license and tdm assertions
// against what a crawler reads at each of its urls ("/" when none): the
// emitted robots.txt's License line and the Link header, tdmrep.json's
// first matching rule and the tdm headers. Every source must say what the
// entry asserts.
func checkExpectRights(doc *manifest.Doc[manifest.Site], data []byte, i int, e manifest.Expect) diag.List {
	if e.License == "" && e.TDM == nil {
		return nil
	}
	var errs diag.List
	m := doc.Value
	ep := manifest.Index("expect", i)
	headers := siteRights(m)
	var tdm []byte
	if rules := tdmRules(m); len(rules) > 0 {
		tdm = tdmrep.Marshal(rules)
	}
	rd := rights.NewReader(data, tdm, &headers)
	for j, u := range expectUsageURLs(e) {
		r := rd.At(u)
		if e.License != "" {
			at := manifest.Key(ep, "license")
			if len(e.URLs) > 0 {
				at = manifest.Index(manifest.Key(ep, "urls"), j)
			}
			want := absolute(m, e.License)
			if m.License.WritesRobotsTxt() && r.License != want {
				errs.Errorf(doc.Pos.Of(at), at, "robots.txt gives %s the licence %s at %s, expected %s", e.Agent, orNone(r.License), u, want)
			}
			if r.LinkLicense != want {
				errs.Errorf(doc.Pos.Of(at), at, "the Link header gives the licence %s at %s, expected %s", orNone(r.LinkLicense), u, want)
			}
		}
		if e.TDM != nil {
			at := manifest.Key(ep, "tdm")
			if len(e.URLs) > 0 {
				at = manifest.Index(manifest.Key(ep, "urls"), j)
			}
			want := "unset"
			if e.TDM.Reservation != nil {
				want = rights.ReservationWord(tdmrep.Rule{Reservation: bit(*e.TDM.Reservation), Policy: policyOr(m, e.TDM.Policy)})
			}
			got := "unset"
			if r.TDM != nil {
				got = rights.ReservationWord(r.TDM.Rule)
				if e.TDM.Policy == "" {
					got = rights.ReservationWord(tdmrep.Rule{Reservation: r.TDM.Reservation})
				}
			}
			if got != want {
				where := "no tdmrep.json rule matches"
				if r.TDM != nil {
					where = fmt.Sprintf("tdmrep.json location %s", r.TDM.Location)
				}
				errs.Errorf(doc.Pos.Of(at), at, "the reservation at %s is %s (%s), expected %s", u, got, where, want)
			}
		}
	}
	return errs
}

func policyOr(m *manifest.Site, p string) string {
	if p == "" {
		return ""
	}
	return absolute(m, p)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
