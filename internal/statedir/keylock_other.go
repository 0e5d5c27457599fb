//go:build !linux

package statedir

import (
	"io"
	"time"
)

// LockKey locks, exclusive, the name key in the directory dir, which the
// caller has found private (PrivateDir): where there are no open file
// description locks, a file of its own (key.lock), removed on release,
// as LockName takes it.
func LockKey(dir, key string, wait time.Duration) (io.Closer, error) {
	return LockName(dir, key+".lock", true, wait)
}
