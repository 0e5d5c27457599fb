// Package unloadable imports a package that does not exist: a check that
// ignores type errors sees no call in it at all.
package unloadable

import (
	"os"

	"example.com/no/such/package"
)

// Remove calls os.Remove, beside the unloadable import.
func Remove(name string) error {
	such.Nothing()
	return os.Remove(name)
}
