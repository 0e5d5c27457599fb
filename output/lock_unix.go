//go:build unix

package output

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive advisory lock on the open directory f without
// waiting; busy reports that another process holds it. The kernel releases
// the lock when the process dies, kill -9 included.
func tryLock(f *os.File) (busy bool, err error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
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
