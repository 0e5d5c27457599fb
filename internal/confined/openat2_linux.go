package confined

import "golang.org/x/sys/unix"

const fdDir = "/proc/self/fd/"

// oNoatime reads a manifest without updating its access time: a build
// that reads every tenant's manifest would otherwise dirty every one of
// their inodes, for the next flush to write out. The kernel allows it to
// the file's owner and to root; anyone else is refused (EPERM), and
// readManifest then reads without it.
const oNoatime = unix.O_NOATIME

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
