package generate

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
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
	for _, k := range registry.All() {
		if !k.Given(m) {
			continue
		}
		if bad := kit.FirstError(k.Check(m)); bad != nil {
			// Unreachable after validation, which reports each at its value.
			errs.Errorf(pos.Of(k.Key()), k.Key(), "%s", bad)
			continue
		}
		if data, ok := k.Render(m); ok {
			put(t, k.Path(), data, &errs)
		}
	}
	wk := m.WellKnown
	if wk == nil {
		return errs
	}
	md := &manifestDir{dir: opt.Dir}
	defer md.close()
	if al := wk.AppLinks; al != nil {
		for _, f := range []struct{ key, source, name string }{
			{"apple", al.Apple, "apple-app-site-association"},
			{"android", al.Android, "assetlinks.json"},
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
			src := sourcePath(pos.File, f.source)
			bad := reportJSON(&errs, fp, f.name, jsonChecks[f.name](data), func(p wellknown.JSONProblem) diag.Pos {
				return diag.Pos{File: src, Line: p.Line, Col: p.Col}
			})
			if !bad {
				put(t, ".well-known/"+f.name, data, &errs)
			}
		}
	}
	errs.Append(checkSectionFiles(pos, wk, md))
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

// Redirects returns the redirects --server writes for a validated site
// manifest: /.well-known/change-password to well_known.change_password,
// with 302 (wellknown.ChangePasswordStatus).
func Redirects(m *manifest.Site) []serverconf.Redirect {
	if m.WellKnown == nil || m.WellKnown.ChangePassword == "" {
		return nil
	}
	return []serverconf.Redirect{{From: ".well-known/change-password", To: m.WellKnown.ChangePassword, Status: wellknown.ChangePasswordStatus}}
}

// jsonChecks are the checks of the JSON files of section 13, by file name.
var jsonChecks = map[string]func([]byte) []wellknown.JSONProblem{
	"apple-app-site-association": wellknown.CheckAppleAssociation,
	"assetlinks.json":            wellknown.CheckAssetLinks,
	"gpc.json":                   wellknown.CheckGPCJSON,
	"traffic-advice":             wellknown.CheckTrafficAdviceJSON,
}

// reportJSON adds the problems of file name's check under the manifest
// path where, each at the position at gives it; it reports whether one
// was an error.
func reportJSON(errs *diag.List, where, name string, ps []wellknown.JSONProblem, at func(wellknown.JSONProblem) diag.Pos) bool {
	bad := false
	for _, p := range ps {
		msg, warn := p.Message, p.IsWarning()
		if warn {
			msg = msg[len("warning: "):]
		}
		if p.Pointer != "" {
			msg = p.Pointer + ": " + msg
		}
		if warn {
			errs.Warnf(at(p), where, "%s: %s", name, msg)
			continue
		}
		bad = true
		errs.Errorf(at(p), where, "%s: %s", name, msg)
	}
	return bad
}

// checkSectionFiles checks the files of section 13 that well_known.files
// gives (as import writes them), unless the entry names a schema: the JSON
// files by shape, atproto-did as a DID alone. A problem in inline content is at its line and column in the
// manifest (in a literal block; at the value otherwise), one in a source
// file at its line and column there.
func checkSectionFiles(pos *manifest.Positions, wk *manifest.WellKnown, md *manifestDir) diag.List {
	var errs diag.List
	for i, f := range wk.Files {
		name, err := wellknown.FileName(f.Name)
		check, isJSON := jsonChecks[name]
		if err != nil || !isJSON && name != "atproto-did" || f.Schema != "" {
			continue // a schema the entry names checks it instead
		}
		fp := manifest.Index("well_known.files", i)
		where := manifest.Key(fp, "content")
		var data []byte
		at := func(p wellknown.JSONProblem) diag.Pos { return pos.InValue(where, *f.Content, p.Offset) }
		if f.Content != nil {
			data = []byte(*f.Content)
		} else {
			where = manifest.Key(fp, "source")
			if data, err = md.read(f.Source, MaxSourceBytes); err != nil {
				continue // reported where the file is written
			}
			src := sourcePath(pos.File, f.Source)
			at = func(p wellknown.JSONProblem) diag.Pos { return diag.Pos{File: src, Line: p.Line, Col: p.Col} }
		}
		if isJSON {
			reportJSON(&errs, where, name, check(data), at)
			continue
		}
		for _, d := range wellknown.LintAtprotoDID(data) {
			p := at(wellknown.JSONProblem{Offset: d.Col - 1, Line: d.Line, Col: d.Col})
			if d.Severity == diag.Warning {
				errs.Warnf(p, where, "atproto-did: %s", d.Message)
			} else {
				errs.Errorf(p, where, "atproto-did: %s", d.Message)
			}
		}
	}
	return errs
}
