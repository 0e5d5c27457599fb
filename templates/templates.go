// Package templates holds the text discgen writes that is authored rather
// than computed: the starter manifest of `discgen init`.
package templates

import (
	_ "embed"
	"slices"
)

//go:embed starter.yaml
var starter []byte

// Starter returns the commented starter manifest. It validates as written.
func Starter() []byte { return slices.Clone(starter) }
