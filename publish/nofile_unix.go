//go:build unix

package publish

import "syscall"

// openFileLimit is the soft RLIMIT_NOFILE, which the Go runtime raised to
// the hard limit at start-up; 0 when unknown.
func openFileLimit() uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0
	}
	return uint64(rl.Cur)
}
