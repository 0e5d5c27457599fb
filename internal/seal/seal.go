// Package seal holds the key to package model's constructors. Only
// package validate imports it, besides model itself, so only validation
// makes a model: internal/layout's TestSealImporters fails when another
// package of the module imports it, and Go's rule for internal/ keeps
// every other module out. Package model's doc tells the whole design.
package seal

// Key is what model.NewSite and model.NewTenant ask for. Code that cannot
// import this package cannot name the type, nor write a value of it: its
// field is unexported, so no struct type written in another package is
// identical to it. A zero Key can still be come by without naming the
// type (a generic function's type parameter inferred from NewSite's
// signature), so a constructor refuses a Key that is not Valid.
type Key struct{ p *byte }

var sentinel byte

// New returns a valid key.
func New() Key { return Key{&sentinel} }

// Valid reports whether k came from New.
func (k Key) Valid() bool { return k.p == &sentinel }
