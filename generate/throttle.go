package generate

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/serverconf"
)

// SiteThrottle returns the --server throttle of a validated site
// manifest's groups with throttle (design section 16), a class per group
// with its crawlers in order of mention, or nil when no group has it.
// validate has refused a bad rate, "*" alone and a crawler of two classes.
func SiteThrottle(s *model.Site) *serverconf.Throttle {
	doc := s.Doc()
	var th serverconf.Throttle
	for _, g := range doc.Value.Agents {
		if g.Throttle == nil {
			continue
		}
		r, err := serverconf.ParseRate(g.Throttle.Rate)
		names := model.VerifiedNames(g)
		if err != nil || len(names) == 0 {
			continue
		}
		th.Classes = append(th.Classes, serverconf.ThrottleClass{Names: names, Rate: r, Burst: g.Throttle.Burst})
	}
	if len(th.Classes) == 0 {
		return nil
	}
	th.ID = siteID(doc.Value.Site.URL)
	return &th
}

// ThrottleWarnings warns, at each throttle key, for each kind of kinds
// that cannot throttle (all but nginx), naming it.
func ThrottleWarnings(s *model.Site, kinds []serverconf.Kind) diag.List {
	doc := s.Doc()
	var l diag.List
	for i, g := range doc.Value.Agents {
		if g.Throttle == nil {
			continue
		}
		p := manifest.Key(manifest.Index("agents", i), "throttle")
		for _, k := range kinds {
			if why := serverconf.ThrottleCannot(k); why != "" {
				l.Warnf(doc.Pos.KeyOf(p), p, "%s", why)
			}
		}
	}
	return l
}
