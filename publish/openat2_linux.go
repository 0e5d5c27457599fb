package publish

import "golang.org/x/sys/unix"

const fdDir = "/proc/self/fd/"

// openat2 opens name below dirfd with RESOLVE_BENEATH and
// RESOLVE_NO_SYMLINKS. EAGAIN (a concurrent rename seen during the lookup)
// is retried a few times, then returned.
func openat2(dirfd int, name string, flags int) (int, error) {
	how := unix.OpenHow{
		Flags:   uint64(flags),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for try := 0; ; try++ {
		fd, err := unix.Openat2(dirfd, name, &how)
		if (err == unix.EINTR || err == unix.EAGAIN) && try < 8 {
			continue
		}
		return fd, err
	}
}
