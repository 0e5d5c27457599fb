package validate

import (
	"strings"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/wellknown"
)

func (v *checker) wellKnown(p string, wk *manifest.WellKnown) {
	seen := map[string]string{}
	if s := wk.SecurityTxt; s != nil {
		sp := manifest.Key(p, "security_txt")
		seen["security.txt"] = v.pos.Of(sp).String()
		for _, f := range wellknown.CheckSecurityTxt(SecurityTxt(s), v.opt.Now) {
			fp := sp + "." + f.Field
			if f.Warning {
				v.warn(fp, "%s", f.Message)
			} else {
				v.err(fp, "%s", f.Message)
			}
		}
	}
	for i, f := range wk.Files {
		fp := manifest.Index(manifest.Key(p, "files"), i)
		np := manifest.Key(fp, "name")
		file, err := wellknown.FileName(f.Name)
		if err != nil {
			v.err(np, "%v", err)
			continue
		}
		// Names that differ only in escapes ("gpc%2Ejson") are one file.
		if first, dup := seen[file]; dup {
			v.err(np, "%q is defined twice (first at %s)", f.Name, first)
			continue
		}
		seen[file] = v.pos.Of(np).String()
		if !wellknown.Registered(f.Name) {
			v.warn(np, "%q is not in the IANA well-known URI registry (copy of %s)", f.Name, wellknown.RegistryDate())
		}
		if f.Source != "" && (strings.ContainsRune(f.Source, 0) || f.Source != strings.TrimSpace(f.Source)) {
			v.err(manifest.Key(fp, "source"), "%q is not a usable file path", f.Source)
		}
	}
}

// SecurityTxt converts the manifest block to the wellknown model.
func SecurityTxt(s *manifest.SecurityTxt) wellknown.SecurityTxt {
	return wellknown.SecurityTxt{
		Contact:            s.Contact,
		Expires:            s.Expires,
		Encryption:         s.Encryption,
		Acknowledgments:    s.Acknowledgments,
		PreferredLanguages: s.PreferredLanguages,
		Canonical:          s.Canonical,
		Policy:             s.Policy,
		Hiring:             s.Hiring,
		CSAF:               s.CSAF,
	}
}
