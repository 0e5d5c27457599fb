//go:build unix

package confined

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
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

// LockShared opens the directory dir (creating it when missing) and locks
// it shared, waiting up to wait for an exclusive holder; unlock releases
// it. It holds a bare descriptor: a batch of many roots takes one for
// each.
func LockShared(dir string, wait time.Duration) (unlock func(), err error) {
	open := func() (int, error) {
		return unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	}
	fd, err := retry(open)
	if err == unix.ENOENT {
		if err = MkdirAll(dir, nil); err == nil || errors.Is(err, fs.ErrExist) {
			fd, err = retry(open)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", &fs.PathError{Op: "open", Path: dir, Err: err})
	}
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		err = unix.Flock(fd, unix.LOCK_SH|unix.LOCK_NB)
		if err == unix.EINTR {
			continue
		}
		if err != unix.EWOULDBLOCK || time.Now().After(deadline) {
			break
		}
		time.Sleep(delay)
	}
	switch {
	case err == unix.EWOULDBLOCK:
		unix.Close(fd)
		return nil, fmt.Errorf("state directory: %s is being recovered by another build (still locked after %v); run the build again", dir, wait)
	case err != nil:
		unix.Close(fd)
		return nil, fmt.Errorf("state directory: cannot lock %s: %w", dir, err)
	}
	return func() { unix.Close(fd) }, nil
}
