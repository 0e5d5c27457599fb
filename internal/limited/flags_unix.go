//go:build unix

package limited

import (
	"errors"
	"syscall"
)

const (
	nonblock = syscall.O_NONBLOCK
	nofollow = syscall.O_NOFOLLOW
)

// isLoop reports the error open(2) gives for a symbolic link opened with
// O_NOFOLLOW.
func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }
