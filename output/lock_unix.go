//go:build unix

package output

import (
	"os"
	"syscall"
)

// flock takes an exclusive advisory lock on the open directory f, waiting
// for it. The kernel releases it when the process dies, kill -9 included.
func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}
