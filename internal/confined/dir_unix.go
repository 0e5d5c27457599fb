//go:build unix

package confined

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/internal/rawstat"
)

// noOpenat2 is set once openat2 turned out to be missing (Linux before 5.6,
// or a seccomp filter refusing it); later opens go straight to openat.
var noOpenat2 atomic.Bool

// noatimeRefused is set once O_NOATIME was refused (the manifests are
// someone else's): later reads do not ask for it.
var noatimeRefused atomic.Bool

// openAt opens the single component name in the directory dirfd without
// following a symlink there: openat2 with RESOLVE_BENEATH and
// RESOLVE_NO_SYMLINKS where the kernel has it, openat with O_NOFOLLOW
// otherwise. name never holds a "/", so the two refuse the same things.
func openAt(dirfd int, name string, flags int) (int, error) {
	if name == "" || name == "." || name == ".." || containsSlash(name) {
		return -1, fmt.Errorf("%q is not one path component", name)
	}
	flags |= unix.O_CLOEXEC | unix.O_NOFOLLOW
	if !noOpenat2.Load() {
		fd, err := openat2(dirfd, name, flags)
		// EPERM is a seccomp filter refusing openat2, unless O_NOATIME
		// was asked of a file someone else owns: the caller retries
		// without it.
		if !errors.Is(err, unix.ENOSYS) && !(errors.Is(err, unix.EPERM) && flags&oNoatime == 0) {
			return fd, err
		}
		noOpenat2.Store(true)
	}
	for {
		fd, err := unix.Openat(dirfd, name, flags, 0)
		if err == unix.EINTR {
			continue
		}
		return fd, err
	}
}

func containsSlash(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return true
		}
	}
	return false
}

// OpenDir opens name in d as a directory, never through a symlink.
func (d *Dir) OpenDir(name string) (*Dir, error) {
	fd, err := openAt(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	return &Dir{fd: fd, name: path.Join(d.name, name)}, nil
}

// OpenPath opens the slash path rel below d as a directory (one or more
// components, none of them "", "." or ".."), never through a symlink and
// never outside d: in one openat2 where the kernel has it (RESOLVE_BENEATH
// and RESOLVE_NO_SYMLINKS hold for every component), one component at a
// time otherwise.
func (d *Dir) OpenPath(rel string) (*Dir, error) {
	for _, c := range strings.Split(rel, "/") {
		if c == "" || c == "." || c == ".." {
			return nil, fmt.Errorf("%q is not a path below a directory", rel)
		}
	}
	if !containsSlash(rel) {
		return d.OpenDir(rel)
	}
	if !noOpenat2.Load() {
		fd, err := openat2(d.fd, rel, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW)
		if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
			if err != nil {
				return nil, err
			}
			return &Dir{fd: fd, name: path.Join(d.name, rel)}, nil
		}
		noOpenat2.Store(true)
	}
	cur := d
	for c := range strings.SplitSeq(rel, "/") {
		next, err := cur.OpenDir(c)
		if cur != d {
			cur.Close()
		}
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

func closeFD(fd int) error { return unix.Close(fd) }

// OpenTop opens the directory dir by path, following symlinks on the way:
// it is a path the operator wrote (a glob's fixed prefix), the top of
// what is walked. Below it nothing is followed.
func OpenTop(dir string) (*Dir, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return &Dir{fd: fd, name: dir}, nil
}

// InfoOf is the Info of a raw stat.
func InfoOf(st *unix.Stat_t) Info {
	m := rawstat.Mode(uint32(st.Mode))
	return Info{
		Mode: m, Size: st.Size,
		Mtime: st.Mtim.Sec*1e9 + int64(st.Mtim.Nsec),
		Ctime: st.Ctim.Sec*1e9 + int64(st.Ctim.Nsec),
		Dev:   uint64(st.Dev), Ino: uint64(st.Ino),
		UID: int(st.Uid), GID: int(st.Gid),
	}
}

// Lstat describes name in d without following a symlink.
func (d *Dir) Lstat(name string) (Info, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return Info{}, err
		}
		return InfoOf(&st), nil
	}
}

// Stat describes the directory d itself.
func (d *Dir) Stat() (Info, error) {
	var st unix.Stat_t
	if err := unix.Fstat(d.fd, &st); err != nil {
		return Info{}, err
	}
	return InfoOf(&st), nil
}

// ReadFile reads the regular file name in d (a tenant's manifest):
// opened without following a symlink and without waiting (O_NONBLOCK, in
// case it was swapped for a FIFO since the caller's Lstat), checked again
// with fstat, and read up to limit bytes (one more tells a larger file).
// It returns the stat of the file read, which may be another regular file
// than the caller's Lstat saw when a save replaced it (a rename over it):
// that one is read, not refused, so that a build beside a save does not
// fail. On error it returns want.
func (d *Dir) ReadFile(name string, want Info, limit int64) ([]byte, Info, error) {
	flags := unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY
	fd, err := -1, error(unix.EPERM)
	if oNoatime != 0 && !noatimeRefused.Load() {
		fd, err = openAt(d.fd, name, flags|oNoatime)
		if errors.Is(err, unix.EPERM) {
			noatimeRefused.Store(true) // not the owner, not root
		}
	}
	if errors.Is(err, unix.EPERM) {
		fd, err = openAt(d.fd, name, flags)
	}
	if err != nil {
		return nil, want, err
	}
	fi, err := (&Dir{fd: fd, name: name}).Stat()
	if err == nil && !fi.Mode.IsRegular() {
		err = errors.New("the file changed while it was opened (now " + limited.TypeName(fi.Mode) + ")")
	}
	if err != nil {
		unix.Close(fd)
		return nil, want, err
	}
	defer unix.Close(fd)
	data, err := limited.ReadUpTo(fdReader(fd), fi.Size, limit)
	if err != nil {
		return nil, want, err
	}
	return data, fi, nil
}

// fdReader reads a raw descriptor, without the os.File a read through
// os would wrap it in (an fcntl and an epoll_ctl, for a file that
// O_NONBLOCK opened).
type fdReader int

func (f fdReader) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(int(f), p)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// Root opens an os.Root at the very directory d is open on: through
// /proc/self/fd on Linux (/dev/fd elsewhere), which names the open
// directory itself, not a path to it, so a rename or a symlink swapped in
// since cannot move it.
func (d *Dir) Root() (*os.Root, error) {
	return os.OpenRoot(fdDir + strconv.Itoa(d.fd))
}

// IsSymlink reports whether err, from opening or reading through a Dir,
// says a symlink was met on the way (ELOOP, or EXDEV from openat2).
func IsSymlink(err error) bool {
	return errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV)
}

// IsAbsent reports whether err says the name, or a directory on its way,
// is missing or not a directory.
func IsAbsent(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)
}

// StatPath describes a file by path, following symlinks (zero when it
// cannot be stat'ed): a path the operator gave, such as the site's own
// manifest.
func StatPath(name string) Info {
	var st unix.Stat_t
	if err := unix.Stat(name, &st); err != nil {
		return Info{}
	}
	return InfoOf(&st)
}
