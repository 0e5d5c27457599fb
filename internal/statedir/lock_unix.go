//go:build unix

package statedir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/discgen/discgen/internal/eintr"
)

// TryLock takes an exclusive advisory lock on the open directory f without
// waiting; busy reports that another process holds it. The kernel releases
// the lock when the process dies, kill -9 included.
func TryLock(f *os.File) (busy bool, err error) { return flock(f, syscall.LOCK_EX) }

// TryLockShared takes a shared lock the same way: busy reports that
// another process holds it exclusively.
func TryLockShared(f *os.File) (busy bool, err error) { return flock(f, syscall.LOCK_SH) }

func flock(f *os.File, how int) (busy bool, err error) {
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return false, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return true, nil
		case err != syscall.EINTR:
			return false, err
		}
	}
}

// Writable reports whether this process may create and remove files in
// the directory dir (by its effective user and groups).
func Writable(dir string) bool {
	return unix.Faccessat(unix.AT_FDCWD, dir, unix.W_OK|unix.X_OK, unix.AT_EACCESS) == nil
}

// openJournalFile opens a file for reading and locking, without
// following a symlink or waiting on a FIFO: a regular file only.
func openJournalFile(file string) (*os.File, error) {
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file", file)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// LockDir opens the directory dir, never through a symlink, creating it
// (mode 0700, its missing parents 0755) when create is set and it is
// missing, and takes its lock, exclusive or shared. A directory of this
// process's user that group or others may open is narrowed to mode 0700
// first.
//
// It waits, up to wait, only on a lock no other user can take: the
// directory is this user's and mode 0700 (root's lock is root's alone,
// and a user's own lock can be held by that user or by root). A lock in a
// directory another user owns, or can open, is tried once: a build run
// as root never waits on an unprivileged account.
//
// When the lock is held, it returns a *BusyError; the caller closes the
// file returned otherwise.
func LockDir(dir string, exclusive, create bool, wait time.Duration) (*os.File, error) {
	f, err := openLockDir(dir, create)
	if err != nil {
		return nil, err
	}
	private, err := narrow(f)
	return lockOpened(f, dir, private, exclusive, wait, err)
}

// LockDirHeld is LockDir, creating dir when missing, for a caller that
// only holds the lock and releases it (Close): the directory is opened as
// a raw descriptor, with no poller registration.
func LockDirHeld(dir string, exclusive bool, wait time.Duration) (io.Closer, error) {
	fd, err := eintr.Retry(func() (int, error) {
		return unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err == unix.ENOENT {
		f, err := LockDir(dir, exclusive, true, wait)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	private, err := narrowFD(fd, dir)
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	if !private {
		wait = 0
	}
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		err := unix.Flock(fd, how|unix.LOCK_NB)
		switch {
		case err == nil:
			return fdCloser(fd), nil
		case err == unix.EINTR:
			continue
		case err != unix.EWOULDBLOCK:
			unix.Close(fd)
			return nil, &fs.PathError{Op: "flock", Path: dir, Err: err}
		case time.Now().After(deadline):
			unix.Close(fd)
			return nil, &BusyError{Dir: dir, Waited: wait, Foreign: !private}
		}
		time.Sleep(delay)
	}
}

// fdCloser is a raw descriptor closed by Close.
type fdCloser int

func (fd fdCloser) Close() error { return unix.Close(int(fd)) }

// lockOpened takes the lock of f, opened at name, once err (from opening
// and checking it) is nil: waiting up to wait when private (no other user
// can open it), trying once otherwise. It closes f on any error, a
// *BusyError when the lock is held.
func lockOpened(f *os.File, name string, private, exclusive bool, wait time.Duration, err error) (*os.File, error) {
	if err == nil {
		if !private {
			wait = 0
		}
		try := TryLockShared
		if exclusive {
			try = TryLock
		}
		var busy bool
		busy, err = WaitLock(f, try, wait)
		if err == nil && busy {
			err = &BusyError{Dir: name, Waited: wait, Foreign: !private}
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// PrivateDir makes dir (creating it, mode 0700, when missing) a directory
// no user but this process's can open, narrowing one of this user's
// that is wider, and reports whether it is one: false when another user
// owns it.
func PrivateDir(dir string) (bool, error) {
	f, err := openLockDir(dir, true)
	if err != nil {
		return false, err
	}
	defer f.Close()
	return narrow(f)
}

// narrow reports whether no user but this process's (and root) can open
// the directory f: it is this user's and mode 0700, once narrowed to it.
func narrow(f *os.File) (bool, error) {
	return narrowFD(int(f.Fd()), f.Name())
}

// narrowFD is narrow of the directory open as fd, at name.
func narrowFD(fd int, name string) (bool, error) {
	var st unix.Stat_t
	if err := eintr.Retry0(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return false, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return false, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOTDIR}
	}
	if int(st.Uid) != euid() {
		return false, nil
	}
	if st.Mode&0o077 != 0 {
		if err := eintr.Retry0(func() error { return unix.Fchmod(fd, 0o700) }); err != nil {
			return false, nil
		}
	}
	return true, nil
}

// BusyError is a lock LockDir or LockFile found held.
type BusyError struct {
	Dir    string
	Waited time.Duration
	// Foreign: another user can take this lock, and it was tried once.
	Foreign bool
}

func (e *BusyError) Error() string {
	if e.Foreign {
		return fmt.Sprintf("%s is locked by another process", e.Dir)
	}
	return fmt.Sprintf("%s is locked by another process (still after %v)", e.Dir, e.Waited)
}

// LockFile locks the file name in the directory dir, exclusive or
// shared, both created when missing (dir mode 0700, the file 0600), as
// LockDir locks a directory: it waits only when dir is this user's and
// mode 0700 (narrowed to it when wider, as LockDir narrows) and the file
// is this user's and opens to no other (mode 0600, narrowed too), so that
// no other user can open the file, and otherwise tries once. The file
// must be a regular file; it is opened without following a symlink or
// waiting on a FIFO. The lock is released when the file returned is
// closed.
//
// A lock in a file, not on dir itself, is one nobody holds who opened
// dir before it was narrowed (an earlier version made it 0755): such a
// descriptor, kept open, keeps its flock on dir, never on the file.
func LockFile(dir, name string, exclusive bool, wait time.Duration) (*os.File, error) {
	f, _, err := lockFile(dir, name, exclusive, wait)
	return f, err
}

// lockID is the identity of a file lockFile locked: its device and inode.
type lockID struct{ dev, ino uint64 }

// lockFile is LockFile, returning also the identity of the file it
// locked, from the stat it took.
func lockFile(dir, name string, exclusive bool, wait time.Duration) (*os.File, lockID, error) {
	var st unix.Stat_t
	private := privateDirs.has(dir)
	if !private {
		d, err := openLockDir(dir, true)
		if err != nil {
			return nil, lockID{}, err
		}
		private, err = narrow(d)
		d.Close()
		if err != nil {
			return nil, lockID{}, err
		}
		if private {
			privateDirs.add(dir)
		}
	}
	file := filepath.Join(dir, name)
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0o600)
	if err != nil {
		return nil, lockID{}, err
	}
	err = eintr.Retry0(func() error { return unix.Fstat(int(f.Fd()), &st) })
	switch {
	case err != nil:
		err = &fs.PathError{Op: "stat", Path: file, Err: err}
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		err = fmt.Errorf("%s: not a regular file", file)
	case int(st.Uid) != euid():
		private = false
	case st.Mode&0o077 != 0:
		if eintr.Retry0(func() error { return unix.Fchmod(int(f.Fd()), 0o600) }) != nil {
			private = false
		}
	}
	f, err = lockOpened(f, file, private, exclusive, wait, err)
	return f, lockID{uint64(st.Dev), st.Ino}, err
}

// sameLocked reports whether the file at the OS path file is the one
// lockFile locked, id.
func sameLocked(id lockID, file string) (bool, error) {
	var now unix.Stat_t
	if err := eintr.Retry0(func() error { return unix.Lstat(file, &now) }); err != nil {
		return false, &fs.PathError{Op: "lstat", Path: file, Err: err}
	}
	return uint64(now.Dev) == id.dev && now.Ino == id.ino, nil
}

// openLockDir opens the directory dir, never through a symlink, creating
// it (mode 0700, its missing parents 0755) when create is set and it is
// missing.
func openLockDir(dir string, create bool) (*os.File, error) {
	open := func() (*os.File, error) {
		return os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	}
	f, err := open()
	if create && errors.Is(err, fs.ErrNotExist) {
		if perr := CreateDirs(filepath.Dir(dir), nil); perr != nil && !errors.Is(perr, fs.ErrExist) {
			return nil, perr
		}
		if err = os.Mkdir(dir, 0o700); err == nil || errors.Is(err, fs.ErrExist) {
			f, err = open()
		}
	}
	return f, err
}

// euid is this process's effective user ID, asked of the kernel once: a
// build never changes it, and the locks ask for it several times a root.
var euid = sync.OnceValue(os.Geteuid)
