//go:build unix

package confined

import (
	"errors"
	"os"
	"syscall"
)

// TryLock takes an exclusive advisory lock on the open directory f without
// waiting; busy reports that another process holds it. The kernel releases
// the lock when the process dies, kill -9 included.
func TryLock(f *os.File) (busy bool, err error) { return flock(f, syscall.LOCK_EX) }

// TryLockShared takes a shared lock the same way: busy reports that
// another process holds it exclusively.
func TryLockShared(f *os.File) (busy bool, err error) { return flock(f, syscall.LOCK_SH) }

func flock(f *os.File, how int) (busy bool, err error) {
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return false, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return true, nil
		case err != syscall.EINTR:
			return false, err
		}
	}
}
