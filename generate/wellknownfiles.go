package generate

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
	"github.com/discgen/discgen/validate"
	"github.com/discgen/discgen/wellknown"
)

// sectionFiles renders the files of design section 13: /ads.txt,
// /app-ads.txt and, under /.well-known/, the app association files,
// gpc.json, traffic-advice and atproto-did. change_password is a redirect
// that --server writes, not a file. The app association files are copied
// byte for byte from their sources once they pass their checks; an error
// in one is at its line and column in the source file.
func sectionFiles(t tree.Tree, pos *manifest.Positions, m *manifest.Site, opt Options) diag.List {
	var errs diag.List
	for _, a := range []struct {
		key, name string
		v         *manifest.AdsTxt
	}{{"ads_txt", "ads.txt", m.AdsTxt}, {"app_ads_txt", "app-ads.txt", m.AppAdsTxt}} {
		if a.v == nil {
			continue
		}
		model := validate.AdsTxt(a.v)
		if bad := firstError(wellknown.CheckAdsTxt(model)); bad != nil {
			// Unreachable after validation, which reports each at its value.
			errs.Errorf(pos.Of(a.key), a.key, "%s", bad)
			continue
		}
		put(t, a.name, wellknown.RenderAdsTxt(model, a.name), &errs)
	}
	wk := m.WellKnown
	if wk == nil {
		return errs
	}
	if al := wk.AppLinks; al != nil {
		md := &manifestDir{dir: opt.Dir}
		defer md.close()
		for _, f := range []struct {
			key, source, name string
			check             func([]byte) []wellknown.JSONProblem
		}{
			{"apple", al.Apple, "apple-app-site-association", wellknown.CheckAppleAssociation},
			{"android", al.Android, "assetlinks.json", wellknown.CheckAssetLinks},
		} {
			if f.source == "" {
				continue
			}
			fp := "well_known.app_links." + f.key
			data, err := md.read(f.source, MaxSourceBytes)
			if err != nil {
				errs.Errorf(pos.Of(fp), fp, "cannot read %q: %v", f.source, err)
				continue
			}
			bad := false
			for _, p := range f.check(data) {
				at := diag.Pos{File: sourcePath(pos.File, f.source), Line: p.Line, Col: p.Col}
				msg := p.Message
				if p.Pointer != "" {
					msg = p.Pointer + ": " + msg
				}
				if p.IsWarning() {
					errs.Warnf(at, fp, "%s", msg[len("warning: "):])
					continue
				}
				bad = true
				errs.Errorf(at, fp, "%s: %s", f.name, msg)
			}
			if !bad {
				put(t, ".well-known/"+f.name, data, &errs)
			}
		}
	}
	if g := wk.GPC; g != nil {
		put(t, ".well-known/gpc.json", wellknown.RenderGPC(validate.GPC(g)), &errs)
	}
	if len(wk.TrafficAdvice) > 0 {
		put(t, ".well-known/traffic-advice", wellknown.RenderTrafficAdvice(validate.TrafficAdvice(wk.TrafficAdvice)), &errs)
	}
	if wk.AtprotoDID != "" {
		put(t, ".well-known/atproto-did", wellknown.RenderAtprotoDID(wk.AtprotoDID), &errs)
	}
	return errs
}

func firstError(fs []wellknown.Finding) *wellknown.Finding {
	for i := range fs {
		if !fs[i].Warning {
			return &fs[i]
		}
	}
	return nil
}

// Redirects returns the redirects --server writes for a validated site
// manifest: /.well-known/change-password to well_known.change_password,
// with 302 (wellknown.ChangePasswordStatus).
func Redirects(m *manifest.Site) []serverconf.Redirect {
	if m.WellKnown == nil || m.WellKnown.ChangePassword == "" {
		return nil
	}
	return []serverconf.Redirect{{From: ".well-known/change-password", To: m.WellKnown.ChangePassword, Status: wellknown.ChangePasswordStatus}}
}
