//go:build unix

package publish

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"sync/atomic"

	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/internal/rawstat"
	"golang.org/x/sys/unix"
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

// openDir opens name in dir as a directory, never through a symlink.
func openDir(dir *dirH, name string) (*dirH, error) {
	fd, err := openAt(dir.fd, name, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	return &dirH{fd: fd, name: path.Join(dir.name, name)}, nil
}

func closeFD(fd int) error { return unix.Close(fd) }

// openTop opens the glob's fixed prefix. The site's administrator wrote
// it, so symlinks on the way there are followed; below it nothing is.
func openTop(dir string) (*dirH, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return &dirH{fd: fd, name: dir}, nil
}

func infoOf(st *unix.Stat_t) fileInfo {
	m := rawstat.Mode(uint32(st.Mode))
	return fileInfo{
		mode: m, size: st.Size,
		mtime: st.Mtim.Sec*1e9 + int64(st.Mtim.Nsec),
		ctime: st.Ctim.Sec*1e9 + int64(st.Ctim.Nsec),
		dev:   uint64(st.Dev), ino: uint64(st.Ino),
		uid: int(st.Uid), gid: int(st.Gid),
	}
}

// statAt describes name in dir without following a symlink.
func statAt(dir *dirH, name string) (fileInfo, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(dir.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fileInfo{}, err
		}
		return infoOf(&st), nil
	}
}

// statFile describes an open file.
func statFile(f *dirH) (fileInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstat(f.fd, &st); err != nil {
		return fileInfo{}, err
	}
	return infoOf(&st), nil
}

// readManifest reads the manifest name in dir, which statAt found to be
// the regular file want: opened without following a symlink and without
// waiting (O_NONBLOCK, in case it was swapped for a FIFO since), checked
// again with fstat, and read up to limit bytes (one more tells a larger
// file). It returns the file read: another regular file than want when a
// save replaced the manifest (a rename over it) since statAt, which is
// read, not refused, so that a build beside a save does not fail.
func readManifest(dir *dirH, name string, want fileInfo, limit int64) ([]byte, fileInfo, error) {
	flags := unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY
	fd, err := -1, error(unix.EPERM)
	if oNoatime != 0 && !noatimeRefused.Load() {
		fd, err = openAt(dir.fd, name, flags|oNoatime)
		if errors.Is(err, unix.EPERM) {
			noatimeRefused.Store(true) // not the owner, not root
		}
	}
	if errors.Is(err, unix.EPERM) {
		fd, err = openAt(dir.fd, name, flags)
	}
	if err != nil {
		return nil, want, err
	}
	fi, err := statFile(&dirH{fd: fd, name: name})
	if err == nil && !fi.mode.IsRegular() {
		err = errors.New("the file changed while it was opened (now " + limited.TypeName(fi.mode) + ")")
	}
	if err != nil {
		unix.Close(fd)
		return nil, want, err
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, want, err
	}
	return data, fi, nil
}

// rootOf opens an os.Root at the very directory dir is open on: through
// /proc/self/fd on Linux (/dev/fd elsewhere), which names the open
// directory itself, not a path to it, so a rename or a symlink swapped in
// since cannot move it.
func rootOf(dir *dirH) (*os.Root, error) {
	return os.OpenRoot(fdDir + strconv.Itoa(dir.fd))
}

// errKind sorts an error of the walk: a missing or non-directory entry is
// simply not a match; a symlink is refused; anything else (permission
// denied) skips the directory.
func isSymlinkErr(err error) bool {
	return err == errSymlink || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV)
}

func isAbsent(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)
}

// statPath describes a file by path (zero when it cannot be stat'ed).
func statPath(name string) fileInfo {
	var st unix.Stat_t
	if err := unix.Stat(name, &st); err != nil {
		return fileInfo{}
	}
	return infoOf(&st)
}
