//go:build !unix

package publish

// openFileLimit is unknown here: tenants are only walked on Unix.
func openFileLimit() uint64 { return 0 }
