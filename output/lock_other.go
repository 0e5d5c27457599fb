//go:build !unix

package output

import "os"

// flock is a no-op where advisory locks are not available: concurrent
// builds of one root are then not serialized.
func flock(f *os.File) error { return nil }
