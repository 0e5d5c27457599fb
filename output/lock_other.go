//go:build !unix

package output

import "os"

// tryLock does nothing where advisory locks are not available: concurrent
// builds of one root are then not serialized.
func tryLock(f *os.File) (busy bool, err error) { return false, nil }
