//go:build linux

package confined

import (
	"io/fs"
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/discgen/discgen/internal/eintr"
)

// On Linux the write path works on raw descriptors: every directory is
// opened from the locked root with openat2 and RESOLVE_BENEATH|
// RESOLVE_NO_SYMLINKS (or one component at a time with O_NOFOLLOW), and
// every file is created, written, renamed and stat'ed relative to its
// directory's descriptor. This skips what an *os.File costs for each file
// (poller registration, fcntl calls and a stat of the target before each
// rename) without giving up any confinement: no directory is reached
// through a symlink or outside the root, and no operation on a file
// resolves more than its one name.

// wdirs is the write path's state for one root: the root's descriptor and
// the identity of each directory below it, as first opened by this Apply.
// No directory below the root stays open beyond the piece of work that
// opened it (see "Descriptors" in docs/output-design.md).
type wdirs struct {
	root int      // the root's descriptor (the lock's); 0 until set
	pins *dirPins // what each directory opened was, by slash path
}

// KeepOpen: a written file's descriptor is kept until its rename, so the
// stat a cache needs (taken after the rename, which changes the change
// time) is an fstat.
const KeepOpen = true

// WriteDir is an open directory of the write path.
type WriteDir struct {
	fd int
	// created, set by a test, runs once Mkdir, MkdirOwned or
	// SymlinkOwned has created a name, before it is opened again.
	created func(name string)
}

// File is a file being written.
type File struct{ fd int }

// SetWriteRoot makes the root directory dir (from OpenSelf) the base of
// every write; dir stays open until the writes are done.
func (t *Root) SetWriteRoot(dir *os.File) {
	t.wd = wdirs{root: int(dir.Fd()), pins: &dirPins{}}
}

// WriteDir opens the existing slash directory d below the root, confined
// to it: openat2 from the root with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS,
// or, without openat2, one component at a time with O_NOFOLLOW. A
// directory opened before since SetWriteRoot must be the same one (device
// and inode), or the open fails with errReplaced. The caller gives it
// back with Done.
func (t *Root) WriteDir(d string) (WriteDir, error) {
	if d == "" {
		return WriteDir{fd: t.wd.root}, nil
	}
	names := strings.Split(d, "/")
	for _, n := range names {
		if err := checkName(n); err != nil {
			return WriteDir{fd: -1}, err
		}
	}
	fd, err := openBeneath(t.wd.root, d, names)
	if err != nil {
		return WriteDir{fd: -1}, err
	}
	var st unix.Stat_t
	if err = eintr.Retry0(func() error { return unix.Fstat(fd, &st) }); err == nil {
		err = t.wd.pins.check(d, dirID{dev: st.Dev, ino: st.Ino})
	}
	if err != nil {
		unix.Close(fd)
		return WriteDir{fd: -1}, err
	}
	return WriteDir{fd: fd}, nil
}

// openBeneath opens the directory d (names, its components) below the
// directory root without following a symlink on the way.
func openBeneath(root int, d string, names []string) (int, error) {
	const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	if !noOpenat2.Load() {
		fd, err := openat2(root, d, flags)
		if err != unix.ENOSYS && err != unix.EPERM && err != unix.EAGAIN {
			return fd, err
		}
		if err != unix.EAGAIN {
			noOpenat2.Store(true)
		}
	}
	fd := root
	for _, n := range names {
		next, err := WriteDir{fd: fd}.openDir(n)
		if fd != root {
			unix.Close(fd)
		}
		if err != nil {
			return -1, err
		}
		fd = next
	}
	return fd, nil
}

// Done closes a directory WriteDir opened (not the root).
func (t *Root) Done(w WriteDir) {
	if w.fd >= 0 && w.fd != t.wd.root {
		unix.Close(w.fd)
	}
}

// closeWAll ends the write path: it holds no descriptor of its own.
func (t *Root) closeWAll() {
	t.wd.root = 0
}

// checkName refuses a name that is not one plain component.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return unix.EINVAL
	}
	return nil
}

func (w WriteDir) openDir(name string) (int, error) {
	if err := checkName(name); err != nil {
		return -1, err
	}
	return eintr.Retry(func() (int, error) {
		return unix.Openat(w.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
}

// Mkdir creates the directory name, mode 0755 whatever the umask (as a
// file gets exactly its mode); fs.ErrExist when it exists. The mode is
// set on the directory opened without following a symlink: in a
// directory its owner may write, what lies at name once it is created
// may be something else.
func (w WriteDir) Mkdir(name string) error { return w.mkdir(name, nil) }

// mkdir creates the directory name, opens it without following a symlink
// and only as a directory, runs own on that descriptor (nil: nothing) and
// gives it mode 0755.
func (w WriteDir) mkdir(name string, own func(fd int) error) error {
	if err := checkName(name); err != nil {
		return err
	}
	err := eintr.Retry0(func() error { return unix.Mkdirat(w.fd, name, 0o755) })
	if err == unix.EEXIST {
		return fs.ErrExist
	}
	if err != nil {
		return err
	}
	if w.created != nil {
		w.created(name)
	}
	fd, err := w.openDir(name)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if own != nil {
		if err := own(fd); err != nil {
			return err
		}
	}
	var st unix.Stat_t
	if err := eintr.Retry0(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return err
	}
	if st.Mode&0o7777 != 0o755 {
		return eintr.Retry0(func() error { return unix.Fchmod(fd, 0o755) })
	}
	return nil
}

// Lchown gives name to uid and gid, not following a symlink.
func (w WriteDir) Lchown(name string, uid, gid int) error {
	return eintr.Retry0(func() error { return unix.Fchownat(w.fd, name, uid, gid, unix.AT_SYMLINK_NOFOLLOW) })
}

// Remove removes a file (not a directory).
func (w WriteDir) Remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	return eintr.Retry0(func() error { return unix.Unlinkat(w.fd, name, 0) })
}

// Lstat describes name, not following a symlink.
func (w WriteDir) Lstat(name string) (Info, error) {
	if err := checkName(name); err != nil {
		return Info{}, err
	}
	var st unix.Stat_t
	if err := eintr.Retry0(func() error { return unix.Fstatat(w.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) }); err != nil {
		return Info{}, err
	}
	return rawStat(&st), nil
}

// Symlink creates the symlink name to target.
func (w WriteDir) Symlink(target, name string) error {
	return eintr.Retry0(func() error { return unix.Symlinkat(target, w.fd, name) })
}

// Rename renames from to to, both in w.
func (w WriteDir) Rename(from, to string) error {
	if err := checkName(to); err != nil {
		return err
	}
	return eintr.Retry0(func() error { return unix.Renameat(w.fd, from, w.fd, to) })
}

// Create creates the new file name (O_EXCL, never through a symlink).
func (w WriteDir) Create(name string, perm fs.FileMode) (File, error) {
	if err := checkName(name); err != nil {
		return File{-1}, err
	}
	fd, err := eintr.Retry(func() (int, error) {
		return unix.Openat(w.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	})
	return File{fd}, err
}

// Write writes all of data.
func (f File) Write(data []byte) error {
	for len(data) > 0 {
		n, err := eintr.Retry(func() (int, error) { return unix.Write(f.fd, data) })
		if err != nil {
			return err
		}
		if n == 0 {
			return unix.EIO
		}
		data = data[n:]
	}
	return nil
}

// Chown gives the file to uid and gid.
func (f File) Chown(uid, gid int) error {
	return eintr.Retry0(func() error { return unix.Fchown(f.fd, uid, gid) })
}

// Writeback does nothing on Linux: a batch's syncfs writes every file
// back. Starting each file's writeback as it is written
// (sync_file_range) cost more CPU in the writing threads than it saved in
// the flush: a 20,000-tenant build took 1 s longer with it (see the
// history of BENCHMARKS.md: git log -p BENCHMARKS.md).
func (f File) Writeback() error { return nil }

// Sync flushes the file's data and inode (fsync).
func (f File) Sync() error { return eintr.Retry0(func() error { return unix.Fsync(f.fd) }) }

// SyncFile flushes the regular file name in the directory (fsync), opened
// without following a symlink or waiting on a FIFO.
func (w WriteDir) SyncFile(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	fd, err := openAt(w.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC)
	if err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	return eintr.Retry0(func() error { return unix.Fsync(fd) })
}

// Stat returns the file's stat, giving it exactly perm first when the
// umask narrowed it at creation.
func (f File) Stat(perm fs.FileMode) (Info, error) {
	var st unix.Stat_t
	if err := eintr.Retry0(func() error { return unix.Fstat(f.fd, &st) }); err != nil {
		return Info{}, err
	}
	if fs.FileMode(st.Mode&0o777) != perm.Perm() {
		if err := eintr.Retry0(func() error { return unix.Fchmod(f.fd, uint32(perm.Perm())) }); err != nil {
			return Info{}, err
		}
		if err := eintr.Retry0(func() error { return unix.Fstat(f.fd, &st) }); err != nil {
			return Info{}, err
		}
	}
	return rawStat(&st), nil
}

// Chmod gives the file exactly perm.
func (f File) Chmod(perm fs.FileMode) error {
	return eintr.Retry0(func() error { return unix.Fchmod(f.fd, uint32(perm.Perm())) })
}

// TempPerm is the mode a temporary file is created with: none, until it
// is published.
func TempPerm(fs.FileMode) fs.FileMode { return 0 }

// Close closes the file.
func (f File) Close() error {
	err := unix.Close(f.fd)
	if err == unix.EINTR {
		return nil // the descriptor is closed anyway
	}
	return err
}

// rawStat is StatOf for a raw stat.
func rawStat(st *unix.Stat_t) Info { return InfoOf(st) }
