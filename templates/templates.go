// Package templates holds the text discgen writes that is authored rather
// than computed: the starter manifest of `discgen init`.
package templates

import (
	"bytes"
	_ "embed"
	"slices"

	"github.com/discgen/discgen/schema"
)

//go:embed starter.yaml
var starter []byte

// Starter returns the commented starter manifest. It validates as written.
// Its first lines are a yaml-language-server modeline naming the schema's
// published URL, and a comment on how to use it offline.
func Starter() []byte { return slices.Clone(starter) }

// StarterWithSchema returns the starter manifest with its modeline naming
// ref instead (such as ./site.schema.json, a copy beside the manifest),
// without the comment on working offline.
func StarterWithSchema(ref string) []byte {
	_, rest, _ := bytes.Cut(starter, []byte("\n"))
	if bytes.HasPrefix(rest, []byte("# (offline:")) {
		_, rest, _ = bytes.Cut(rest, []byte("\n"))
	}
	return append([]byte("# "+schema.Modeline(ref)+"\n"), rest...)
}
