package statedir

import (
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"github.com/discgen/discgen/internal/eintr"
)

// LockKey locks, exclusive, the name key in the directory dir, made mode
// 0700 when missing and refused unless it is this user's alone (mode
// 0700, narrowed to it when wider; once a process, see PrivateDir): the
// lock of one of many names a build takes (an output root's, by its
// device and inode) without a file of its own. Here it is an open file
// description lock (F_OFD_SETLK) on one byte of dir's KeysFile, at an
// offset the key's hash gives, so that a build of many roots creates and
// removes no file for each: an open, a lock and a close a root, where a
// file a key cost an open that creates it, a lock, a stat, a check of the
// name, a removal and a close, and an inode made and freed (on ext4, a
// search of the inode table for one not freed recently). Each LockKey is
// an open of its own, so two locks of one key exclude each other in one
// process as in two; two keys whose hashes meet (62 bits) exclude each
// other too, which only makes one wait. The kernel releases the lock when
// its holder closes it or dies. It waits for a held key up to wait.
func LockKey(dir, key string, wait time.Duration) (io.Closer, error) {
	if err := privateKeyDir(dir); err != nil {
		return nil, err
	}
	file := filepath.Join(dir, KeysFile)
	var fd int
	err := eintr.Retry0(func() (err error) {
		fd, err = unix.Open(file, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0o600)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: file, Err: err}
	}
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart, Start: keyOffset(key), Len: 1}
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		err := unix.FcntlFlock(uintptr(fd), unix.F_OFD_SETLK, &lk)
		switch {
		case err == nil:
			return fdCloser(fd), nil
		case err == unix.EINTR:
			continue
		case err == unix.EINVAL:
			// A kernel before 3.15 has no open file description
			// locks: a file a key, as elsewhere.
			unix.Close(fd)
			return LockName(dir, key+".lock", true, wait)
		case err != unix.EAGAIN && err != unix.EACCES:
			unix.Close(fd)
			return nil, &fs.PathError{Op: "fcntl", Path: file, Err: err}
		case time.Now().After(deadline):
			unix.Close(fd)
			return nil, &BusyError{Dir: file + " (" + key + ")", Waited: wait}
		}
		time.Sleep(delay)
	}
}

// keyOffset is the byte of KeysFile that locks key: its 64-bit FNV-1a
// hash, cut to 62 bits so that the byte after it is a valid offset.
func keyOffset(key string) int64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h = (h ^ uint64(key[i])) * 1099511628211
	}
	return int64(h & (1<<62 - 1))
}
