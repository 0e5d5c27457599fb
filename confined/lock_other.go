//go:build !unix

package confined

import "os"

// TryLock does nothing where advisory locks are not available: concurrent
// builds of one root are then not serialized.
func TryLock(f *os.File) (busy bool, err error) { return false, nil }

// TryLockShared does nothing either: Recover may then run beside a build
// in progress with the same state directory.
func TryLockShared(f *os.File) (busy bool, err error) { return false, nil }
