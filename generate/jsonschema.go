package generate

import (
	"path"
	"path/filepath"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/wellknown"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// schemaCache holds the schema files a build has compiled, by path.
type schemaCache map[string]*jsonschema.Schema

// checkSchema validates the content of well-known file f (data) against
// its schema, or against the one its name implies (agent-card.json).
// Each problem is at its line and column: in the source file, or in the
// manifest where the content is inline (exactly when it is a literal
// block scalar, at the value otherwise).
func checkSchema(pos *manifest.Positions, fp string, f manifest.WellKnownFile, data []byte, md *manifestDir, cache schemaCache) diag.List {
	var errs diag.List
	name := f.Schema
	if name == "" {
		name = wellknown.DefaultSchema(f.Name)
	}
	if name == "" {
		return nil
	}
	sp := manifest.Key(fp, "schema")
	s, shipped, err := wellknown.Shipped(wellknown.ResolveSchema(name, data))
	if err != nil {
		errs.Errorf(pos.Of(sp), sp, "schema %s: %v", name, err)
		return errs
	}
	about := name
	if shipped {
		about = name + ", " + wellknown.DescribeSchema(wellknown.ResolveSchema(name, data))
	} else {
		if s = cache[name]; s == nil {
			text, err := md.read(name, wellknown.MaxSchemaBytes)
			if err != nil {
				errs.Errorf(pos.Of(sp), sp, "cannot read %q: %v", name, err)
				return errs
			}
			s, err = wellknown.CompileSchema(name, text)
			if err != nil {
				errs.Errorf(pos.Of(sp), sp, "%s: %v", name, err)
				return errs
			}
			cache[name] = s
		}
	}
	content := manifest.Key(fp, "content")
	problems, err := wellknown.ValidateJSON(data, s)
	if err != nil {
		errs.Errorf(pos.Of(sp), sp, "%s: %v", name, err)
		return errs
	}
	for _, p := range problems {
		var at diag.Pos
		where := manifest.Key(fp, "source")
		if f.Content != nil {
			at = pos.InValue(content, *f.Content, p.Offset)
			where = content
		} else {
			at = diag.Pos{File: sourcePath(pos.File, f.Source), Line: p.Line, Col: p.Col}
		}
		msg := p.Message
		if p.Pointer != "" {
			msg = p.Pointer + ": " + msg
		}
		errs.Errorf(at, where, "%s (schema %s)", msg, about)
	}
	return errs
}

// sourcePath names a source file as the manifest's name does: relative
// to the same directory.
func sourcePath(manifestFile, source string) string {
	if manifestFile == "" {
		return source
	}
	return path.Join(path.Dir(filepath.ToSlash(manifestFile)), source)
}
