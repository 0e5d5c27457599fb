//go:build linux

package confined

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/discgen/discgen/internal/eintr"
)

// MkdirOwned is Mkdir, giving the new directory to uid and gid: the
// directory is opened once created, without following a symlink and only
// as a directory (O_DIRECTORY|O_NOFOLLOW, relative to w), and that
// descriptor is chowned and chmoded. In a directory another user may
// write (a tenant's), what stands at name the moment after mkdirat may
// be that user's: a hard link to another user's file, a symlink. Neither
// is opened, and nothing but a directory is given away.
func (w WriteDir) MkdirOwned(name string, uid, gid int) error {
	return w.mkdir(name, func(fd int) error {
		return eintr.Retry0(func() error { return unix.Fchown(fd, uid, gid) })
	})
}

// SymlinkOwned is Symlink, giving the new symlink to uid and gid through
// a descriptor of it (O_PATH|O_NOFOLLOW, checked to be a symlink), never
// by name: in a directory another user may write, what stands at name
// the moment after symlinkat may be a hard link to another user's file.
func (w WriteDir) SymlinkOwned(target, name string, uid, gid int) error {
	if err := w.Symlink(target, name); err != nil {
		return err
	}
	if w.created != nil {
		w.created(name)
	}
	fd, err := eintr.Retry(func() (int, error) {
		return unix.Openat(w.fd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := eintr.Retry0(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFLNK {
		return fmt.Errorf("%s: replaced once created", name)
	}
	return eintr.Retry0(func() error { return unix.Fchownat(fd, "", uid, gid, unix.AT_EMPTY_PATH) })
}
