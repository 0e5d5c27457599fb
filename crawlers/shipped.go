package crawlers

import (
	"crypto/sha256"
	"encoding/hex"
)

//go:generate go test -run ^TestGeneratedCatalogue$ -update
//go:generate go test -run ^TestGeneratedKnown$ -update
//go:generate go test -run ^TestGeneratedNames$ -update

// The shipped catalogue is read and checked (Parse) once, when it
// changes, into Go source (catalogue_gen.go, written by `go generate`
// from Parse's own result): a build that names a preset then makes it
// without decoding 23 KB of JSON. The generated catalogue is used only
// while catalogue.json is the one it was generated from
// (generatedCatalogueSum); an edit without `go generate` is parsed at
// first use as before, and TestGeneratedCatalogue fails until the file is
// made again.
//
// generated says which: the index of known crawlers (known_gen.go) is
// taken as generated only with the generated catalogue.
func parseShipped() (c *Catalogue, generated bool, err error) {
	if sum := sha256.Sum256(catalogueJSON); hex.EncodeToString(sum[:]) == generatedCatalogueSum {
		return generatedCatalogue(), true, nil
	}
	c, err = Parse(catalogueJSON)
	return c, false, err
}
