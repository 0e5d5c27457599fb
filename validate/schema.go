package validate

import (
	"path"
	"slices"
	"strings"

	"github.com/discgen/discgen/manifest"
)

// wellKnownSchema checks a well-known file's schema: a name discgen
// ships, or a path to a schema file relative to the manifest.
func (v *checker) wellKnownSchema(fp string, f manifest.WellKnownFile) {
	sp := manifest.Key(fp, "schema")
	switch {
	case f.Schema == "":
		return
	case slices.Contains(shippedSchemas(), f.Schema):
	case strings.ContainsAny(f.Schema, "/\\") || path.Ext(f.Schema) != "":
		v.localPath(sp, f.Schema)
	default:
		v.err(sp, "%q is not a schema discgen ships (%s); give one of those, or the path of a JSON Schema file relative to the manifest", f.Schema, strings.Join(shippedSchemas(), ", "))
	}
}
