//go:build !unix

package output

import (
	"os"
	"time"
)

// tryLock does nothing where advisory locks are not available: concurrent
// builds of one root are then not serialized.
func tryLock(f *os.File) (busy bool, err error) { return false, nil }

// tryLockShared does nothing either: Recover may then run beside a build
// in progress with the same state directory.
func tryLockShared(f *os.File) (busy bool, err error) { return false, nil }

// writable reports true: where there are no advisory locks, the build
// finds out when it writes.
func writable(string) bool { return true }

// openJournalFile opens a journal file for reading.
func openJournalFile(file string) (*os.File, error) { return os.Open(file) }

// lockShared does nothing either.
func lockShared(string, time.Duration) (func(), error) { return func() {}, nil }
