package validate

import (
	"slices"
	"strings"

	"github.com/discgen/discgen/internal/rfc8615"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/manifest"
)

// The files of design section 13, each a kind of the registry
// (kinds/registry).

// alsoInFiles reports each entry of well_known.files (p is well_known)
// that names a file in own, which maps a file name to the key under
// well_known that writes it.
func (v *checker) alsoInFiles(p string, wk *manifest.WellKnown, own map[string]string) {
	for i, f := range wk.Files {
		if key, ok := own[nameOf(f.Name)]; ok {
			np := manifest.Key(manifest.Index(manifest.Key(p, "files"), i), "name")
			v.err(np, "%q is also written from well_known.%s; give it in one place", f.Name, key)
		}
	}
}

// kinds checks the value of each kind of the registry the site gives, at
// the kind's manifest key (a kind whose file is a source: its path); a
// kind under /.well-known/ that the site gives may not also be an entry
// of well_known.files, nor may a file it publishes besides its own
// (kit.Companions: an MCP server card). An app association file's content
// is checked when the build reads it (generate).
func (v *checker) kinds(m *manifest.Site) {
	own := map[string]string{}
	for _, k := range registry.All() {
		v.findings(k.Key(), k.Check(m, kit.Build{Now: v.opt.Now}))
		if src, ok := k.(kit.Sourced); ok {
			if path, ok := src.Source(m); ok {
				v.localPath(k.Key(), path)
			}
		}
		file := strings.TrimPrefix(k.Path(), ".well-known/")
		if registry.WellKnown(k) && k.Given(m) && file != seenFirst {
			own[file] = strings.TrimPrefix(k.Key(), "well_known.")
		}
		if cs, ok := k.(kit.Companions); ok && k.Given(m) {
			for _, c := range cs.Companions(m) {
				for _, p := range c.Paths {
					if file, ok := strings.CutPrefix(p, ".well-known/"); ok {
						own[file] = strings.TrimPrefix(c.Key, "well_known.")
					}
				}
			}
		}
	}
	if m.WellKnown != nil {
		v.alsoInFiles("well_known", m.WellKnown, own)
	}
}

// entryName reports what the kinds of the registry say about an entry of
// well_known.files by its name (kit.EntryChecker), at the name (np).
func (v *checker) entryName(np, name string) {
	for _, k := range registry.All() {
		if ec, ok := k.(kit.EntryChecker); ok {
			v.findings(np, ec.CheckEntry(name))
		}
	}
}

// shippedSchemas lists the names of the JSON Schemas the kinds of the
// registry ship (kit.SchemaShipper), sorted.
func shippedSchemas() []string {
	var out []string
	for _, k := range registry.All() {
		if sh, ok := k.(kit.SchemaShipper); ok {
			out = append(out, sh.Schemas()...)
		}
	}
	slices.Sort(out)
	return out
}

// findings reports the findings of a kind's check, each at its field
// under p ("[1].fraction" or "records[0].domain").
func (v *checker) findings(p string, fs []kit.Finding) {
	for _, f := range fs {
		msg := f.Message
		if f.First != "" {
			msg += " (first at " + v.pos.Of(under(p, f.First)).String() + ")"
		}
		fp := under(p, f.Field)
		switch {
		case f.In != nil:
			v.add(v.pos.InValue(fp, f.In.Value, f.In.Offset), kit.Severity(f.Warning), fp, "%s", msg)
		case f.Warning:
			v.warn(fp, "%s", msg)
		default:
			v.err(fp, "%s", msg)
		}
	}
}

// under returns the manifest path of field, relative to p.
func under(p, field string) string {
	switch {
	case field == "":
		return p
	case strings.HasPrefix(field, "["):
		return p + field
	}
	return p + "." + field
}

// nameOf is the file a well-known name writes, or "" for a bad name.
func nameOf(name string) string {
	f, err := rfc8615.FileName(name)
	if err != nil {
		return ""
	}
	return f
}
