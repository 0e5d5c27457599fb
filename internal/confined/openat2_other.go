//go:build unix && !linux

package confined

import "golang.org/x/sys/unix"

const fdDir = "/dev/fd/"

// oNoatime: O_NOATIME is Linux's.
const oNoatime = 0

// openat2 is Linux's; elsewhere openAt falls back to openat.
func openat2(int, string, int) (int, error) { return -1, unix.ENOSYS }
