//go:build !linux

package statedir

import (
	"io"
	"time"
)

// LockKey locks, exclusive, the name key in the directory dir (made
// when missing, refused unless private: PrivateDir): where there are no open file
// description locks, a file of its own (key.lock), removed on release,
// as LockName takes it.
func LockKey(dir, key string, wait time.Duration) (io.Closer, error) {
	if err := privateKeyDir(dir); err != nil {
		return nil, err
	}
	return LockName(dir, key+".lock", true, wait)
}
