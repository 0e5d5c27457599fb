package generate

import (
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/rfc8615"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
)

// sectionFiles renders the files of design section 13: those of the
// registry's kinds that the site gives (ads.txt, gpc.json, ...).
// change_password is a redirect that --server writes (Redirects), not a
// file. A kind whose file is a source (the app association files) has it
// copied byte for byte once it passes the kind's check; an error in one
// is at its line and column in the source file.
func sectionFiles(t tree.Tree, pos *manifest.Positions, m *manifest.Site, opt Options) diag.List {
	var errs diag.List
	md := &manifestDir{dir: opt.Dir}
	defer md.close()
	b := kit.Build{Now: opt.Now}
	for _, k := range registry.All() {
		if !k.Given(m) {
			continue
		}
		if bad := kit.FirstError(k.Check(m, b)); bad != nil {
			// Unreachable after validation, which reports each at its value.
			errs.Errorf(pos.Of(k.Key()), k.Key(), "%s", bad)
			continue
		}
		if cs, ok := k.(kit.Companions); ok {
			for _, c := range cs.Companions(m) {
				copyCompanion(t, pos, md, k, c, &errs)
			}
		}
		if src, ok := k.(kit.Sourced); ok {
			copySource(t, pos, md, k, src, m, b, &errs)
			continue
		}
		data, ok := k.Render(m, b)
		if !ok {
			continue
		}
		if sg, ok := k.(kit.Signer); ok && !opt.Unsigned {
			signed, d := sign(data, sg.Signing(m), manifest.Key(k.Key(), kit.SignField), opt, md, pos)
			if d != nil {
				errs.Add(*d)
				continue
			}
			data = signed
		}
		put(t, k.Path(), data, &errs)
	}
	if m.WellKnown != nil {
		errs.Append(checkSectionFiles(pos, m, md, b))
	}
	checkInTree(t, pos, m, &errs)
	return errs
}

// checkInTree checks each file of a kit.TreeChecker kind whose source the
// build copied against the other files of the tree, each problem at its
// line and column in the source.
func checkInTree(t tree.Tree, pos *manifest.Positions, m *manifest.Site, errs *diag.List) {
	read := func(p string) ([]byte, bool) {
		e, ok := t[p]
		if !ok || e.Link != "" {
			return nil, false
		}
		return e.Data, true
	}
	for _, k := range registry.All() {
		tc, ok := k.(kit.TreeChecker)
		src, sourced := k.(kit.Sourced)
		if !ok || !sourced || !k.Given(m) {
			continue
		}
		data, ok := read(k.Path())
		if !ok {
			continue // not copied: its own check failed
		}
		source, _ := src.Source(m)
		file := sourcePath(pos.File, source)
		reportJSON(errs, k.Key(), k.Name(), tc.CheckInTree(m, data, read), func(p kit.JSONProblem) diag.Pos {
			return diag.Pos{File: file, Line: p.Line, Col: p.Col}
		})
	}
}

// copySource reads the source file of kind k and puts it in t, byte for
// byte, unless its shape check finds an error; a kit.Dated kind's check
// judges the file's dates against the build's time.
func copySource(t tree.Tree, pos *manifest.Positions, md *manifestDir, k kit.Kind, src kit.Sourced, m *manifest.Site, b kit.Build, errs *diag.List) {
	source, _ := src.Source(m)
	fp := k.Key()
	data, err := md.read(source, MaxSourceBytes)
	if err != nil {
		errs.Errorf(pos.Of(fp), fp, "cannot read %q: %v", source, err)
		return
	}
	var ps []kit.JSONProblem
	if sc, ok := k.(kit.SiteShapeChecker); ok {
		ps = sc.CheckSiteShape(m, data)
	} else if dc, ok := k.(kit.Dated); ok {
		ps = dc.CheckShapeAt(data, b.Now)
	} else if sc, ok := k.(kit.ShapeChecker); ok {
		ps = sc.CheckShape(data)
	}
	file := sourcePath(pos.File, source)
	bad := reportJSON(errs, fp, k.Name(), ps, func(p kit.JSONProblem) diag.Pos {
		return diag.Pos{File: file, Line: p.Line, Col: p.Col}
	})
	if !bad {
		put(t, k.Path(), data, errs)
	}
}

// copyCompanion reads a companion of kind k and puts it at each of its
// paths, byte for byte, unless its check finds an error.
func copyCompanion(t tree.Tree, pos *manifest.Positions, md *manifestDir, k kit.Kind, c kit.Companion, errs *diag.List) {
	data, err := md.read(c.Source, MaxSourceBytes)
	if err != nil {
		errs.Errorf(pos.Of(c.Key), c.Key, "cannot read %q: %v", c.Source, err)
		return
	}
	file := sourcePath(pos.File, c.Source)
	bad := reportJSON(errs, c.Key, k.Name(), c.Check(data), func(p kit.JSONProblem) diag.Pos {
		return diag.Pos{File: file, Line: p.Line, Col: p.Col}
	})
	if bad {
		return
	}
	for _, p := range c.Paths {
		put(t, p, data, errs)
	}
}

// Redirects returns the redirects --server writes for a validated site
// manifest: one for each kind of the registry that is a redirect
// (/.well-known/change-password to well_known.change_password, 302).
func Redirects(s *model.Site) []serverconf.Redirect { return redirects(s.Value()) }

func redirects(m *manifest.Site) []serverconf.Redirect {
	var out []serverconf.Redirect
	for _, k := range registry.All() {
		if r, ok := k.(kit.Redirector); ok {
			if to, status, ok := r.Redirect(m); ok {
				out = append(out, serverconf.Redirect{From: k.Path(), To: to, Status: status})
			}
		}
	}
	return out
}

// sectionCheck returns the check of the file a well-known name writes
// for site m: a JSON check by shape (with the site, for a kind whose file
// names it; a kit.Dated kind's dates against the build's time), or a
// kind's lint; both nil for another file, and for a kit.SchemaShipper's,
// which checkSchema checks against the kind's schema.
func sectionCheck(name string, m *manifest.Site, b kit.Build) (shape func([]byte) []kit.JSONProblem, lint kit.Linter) {
	k, ok := registry.ByPath(".well-known/" + name)
	if !ok {
		return nil, nil
	}
	if _, ok := k.(kit.SchemaShipper); ok {
		return nil, nil // checked against the kind's schema (checkSchema)
	}
	if sc, ok := k.(kit.SiteShapeChecker); ok {
		return func(data []byte) []kit.JSONProblem { return sc.CheckSiteShape(m, data) }, nil
	}
	if dc, ok := k.(kit.Dated); ok {
		return func(data []byte) []kit.JSONProblem { return dc.CheckShapeAt(data, b.Now) }, nil
	}
	if sc, ok := k.(kit.ShapeChecker); ok {
		return sc.CheckShape, nil
	}
	l, _ := k.(kit.Linter)
	return nil, l
}

// reportJSON adds the problems of file name's check under the manifest
// path where, each at the position at gives it; it reports whether one
// was an error.
func reportJSON(errs *diag.List, where, name string, ps []kit.JSONProblem, at func(kit.JSONProblem) diag.Pos) bool {
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
// files by shape, another kind by its lint (atproto-did as a DID alone). A problem in inline content is at its line and column in the
// manifest (in a literal block; at the value otherwise), one in a source
// file at its line and column there.
func checkSectionFiles(pos *manifest.Positions, m *manifest.Site, md *manifestDir, b kit.Build) diag.List {
	var errs diag.List
	for i, f := range m.WellKnown.Files {
		name, err := rfc8615.FileName(f.Name)
		if err != nil {
			continue
		}
		check, lint := sectionCheck(name, m, b)
		isJSON := check != nil
		if !isJSON && lint == nil || f.Schema != "" {
			continue // a schema the entry names checks it instead
		}
		fp := manifest.Index("well_known.files", i)
		where := manifest.Key(fp, "content")
		var data []byte
		at := func(p kit.JSONProblem) diag.Pos { return pos.InValue(where, *f.Content, p.Offset) }
		if f.Content != nil {
			data = []byte(*f.Content)
		} else {
			where = manifest.Key(fp, "source")
			if data, err = md.read(f.Source, MaxSourceBytes); err != nil {
				continue // reported where the file is written
			}
			src := sourcePath(pos.File, f.Source)
			at = func(p kit.JSONProblem) diag.Pos { return diag.Pos{File: src, Line: p.Line, Col: p.Col} }
		}
		if isJSON {
			reportJSON(&errs, where, name, check(data), at)
			continue
		}
		for _, d := range lint.Lint(data) {
			p := at(kit.JSONProblem{Offset: d.Col - 1, Line: d.Line, Col: d.Col})
			if d.Severity == diag.Warning {
				errs.Warnf(p, where, "%s: %s", name, d.Message)
			} else {
				errs.Errorf(p, where, "%s: %s", name, d.Message)
			}
		}
	}
	return errs
}
