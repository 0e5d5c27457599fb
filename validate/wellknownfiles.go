package validate

import (
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/wellknown"
)

// The files of design section 13. The app association files are JSON
// files the manifest names: their paths are checked here, their content
// when the build reads them (generate).

// ownFiles names the file each field of well_known writes.
var ownFiles = []struct{ key, file string }{
	{"app_links.apple", "apple-app-site-association"},
	{"app_links.android", "assetlinks.json"},
	{"gpc", "gpc.json"},
	{"traffic_advice", "traffic-advice"},
	{"change_password", "change-password"},
	{"atproto_did", "atproto-did"},
}

// moreWellKnown checks app_links, gpc, traffic_advice, change_password
// and atproto_did of the well_known block at p. A name well_known.files
// also defines is an error there.
func (v *checker) moreWellKnown(p string, wk *manifest.WellKnown) {
	set := map[string]bool{
		"gpc":             wk.GPC != nil,
		"traffic_advice":  len(wk.TrafficAdvice) > 0,
		"change_password": wk.ChangePassword != "",
		"atproto_did":     wk.AtprotoDID != "",
	}
	if a := wk.AppLinks; a != nil {
		ap := manifest.Key(p, "app_links")
		set["app_links.apple"] = a.Apple != ""
		set["app_links.android"] = a.Android != ""
		if a.Apple != "" {
			v.localPath(manifest.Key(ap, "apple"), a.Apple)
		}
		if a.Android != "" {
			v.localPath(manifest.Key(ap, "android"), a.Android)
		}
	}
	own := map[string]string{}
	for _, o := range ownFiles {
		if set[o.key] {
			own[o.file] = o.key
		}
	}
	for i, f := range wk.Files {
		if key, ok := own[nameOf(f.Name)]; ok {
			np := manifest.Key(manifest.Index(manifest.Key(p, "files"), i), "name")
			v.err(np, "%q is also written from well_known.%s; give it in one place", f.Name, key)
		}
	}
	if g := wk.GPC; g != nil && g.LastUpdate != "" {
		if msg := wellknown.CheckGPCDate(g.LastUpdate); msg != "" {
			v.err(manifest.Key(manifest.Key(p, "gpc"), "last_update"), "%s", msg)
		}
	}
	if len(wk.TrafficAdvice) > 0 {
		tp := manifest.Key(p, "traffic_advice")
		v.findings(tp, wellknown.CheckTrafficAdvice(TrafficAdvice(wk.TrafficAdvice)))
	}
	if s := wk.ChangePassword; s != "" {
		cp := manifest.Key(p, "change_password")
		if msg, warn := wellknown.CheckChangePassword(s); warn {
			v.warn(cp, "%s", msg)
		} else if msg != "" {
			v.err(cp, "%s", msg)
		}
	}
	if s := wk.AtprotoDID; s != "" {
		if msg := wellknown.CheckAtprotoDID(s); msg != "" {
			v.err(manifest.Key(p, "atproto_did"), "%s", msg)
		}
	}
}

// kinds checks the value of each kind of the registry the site gives, at
// the kind's manifest key.
func (v *checker) kinds(m *manifest.Site) {
	for _, k := range registry.All() {
		v.findings(k.Key(), k.Check(m))
	}
}

// findings reports the findings of a kind's check, each at its field
// under p ("[1].fraction" or "records[0].domain").
func (v *checker) findings(p string, fs []kit.Finding) {
	for _, f := range fs {
		fp := p
		switch {
		case f.Field == "":
		case strings.HasPrefix(f.Field, "["):
			fp = p + f.Field
		default:
			fp = p + "." + f.Field
		}
		if f.Warning {
			v.warn(fp, "%s", f.Message)
		} else {
			v.err(fp, "%s", f.Message)
		}
	}
}

// TrafficAdvice converts the manifest list to the wellknown model.
func TrafficAdvice(list []manifest.TrafficAdvice) []wellknown.TrafficAdvice {
	out := make([]wellknown.TrafficAdvice, len(list))
	for i, e := range list {
		out[i] = wellknown.TrafficAdvice{UserAgent: e.UserAgent, Disallow: e.Disallow}
		if e.Fraction != nil {
			out[i].Fraction = string(*e.Fraction)
		}
	}
	return out
}

// GPC converts the manifest block to the wellknown model: gpc is true
// unless the manifest says false.
func GPC(g *manifest.GPC) wellknown.GPC {
	return wellknown.GPC{GPC: g.GPC == nil || *g.GPC, LastUpdate: g.LastUpdate}
}

// nameOf is the file a well-known name writes, or "" for a bad name.
func nameOf(name string) string {
	f, err := wellknown.FileName(name)
	if err != nil {
		return ""
	}
	return f
}
