//go:build unix

package hostlimits

import "syscall"

// openFiles is the soft RLIMIT_NOFILE; 0 when unknown.
func openFiles() uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0
	}
	return uint64(rl.Cur)
}
