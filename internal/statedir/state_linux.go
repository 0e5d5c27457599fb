//go:build linux

package statedir

import (
	"fmt"
	"io/fs"

	"golang.org/x/sys/unix"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/eintr"
)

// ReadFile reads a regular file of a state directory whole, up to limit
// bytes, returning its stat taken on the open descriptor. A state
// directory is the operator's, not the published tree's, so it is opened
// by path. It is read with raw descriptors (no poller registration) and
// O_NOATIME, so that a rebuild which reads every tenant's stat cache does
// not dirty every one of their inodes; where O_NOATIME is refused (a state
// directory someone else owns) it reads without.
func ReadFile(name string, limit int64) ([]byte, confined.Info, error) {
	// A root's own state directory is its owner's to fill (see
	// output.RootStateDir): a symlink there is not followed, and a FIFO
	// is not waited on.
	flags := unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_NOFOLLOW
	fd, err := eintr.Retry(func() (int, error) { return unix.Open(name, flags|unix.O_NOATIME, 0) })
	if err == unix.EPERM {
		fd, err = eintr.Retry(func() (int, error) { return unix.Open(name, flags, 0) })
	}
	if err != nil {
		return nil, confined.Info{}, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := eintr.Retry0(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return nil, confined.Info{}, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	fst := confined.InfoOf(&st)
	switch {
	case !fst.Mode.IsRegular():
		return nil, confined.Info{}, fmt.Errorf("%s: not a regular file", name)
	case st.Size > limit:
		return nil, confined.Info{}, fmt.Errorf("%s: larger than %d bytes", name, limit)
	}
	data := make([]byte, st.Size)
	n := 0
	for n < len(data) {
		m, err := eintr.Retry(func() (int, error) { return unix.Read(fd, data[n:]) })
		if err != nil {
			return nil, confined.Info{}, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if m == 0 {
			break // shrunk since the stat
		}
		n += m
	}
	return data[:n], fst, nil
}

// WriteFile writes data to the state file tmp (an OS path), flushing it
// with sync, renames it to name when they differ, and with wantStat
// returns the stat of what is left on disk, taken on the descriptor after
// the rename (which changes the change time).
//
// It never writes through what it finds at tmp, which in a root's own
// state directory its owner may have put there: a temporary file is
// created anew (whatever was at its name, a symlink or a hard link to
// another file included, is removed first), and a file rewritten in place
// (tmp == name) is opened without following a symlink and rewritten only
// when it is a regular file with one link; otherwise, or when this
// process may not write it (a stat cache the build run by root wrote in
// the directory it gave the owner), it is replaced through a temporary
// file of a random name (RandomTemp).
func WriteFile(tmp, name string, data []byte, sync, wantStat bool) (confined.Info, error) {
	var fd int
	var err error
	if tmp != name {
		fd, err = createFresh(tmp)
	} else if fd, err = openInPlace(tmp); err != nil && err != unix.ENOENT {
		return WriteFile(RandomTemp(name), name, data, sync, wantStat)
	}
	if err != nil {
		return confined.Info{}, &fs.PathError{Op: "open", Path: tmp, Err: err}
	}
	err = writeAll(fd, data)
	if err == nil && sync {
		err = eintr.Retry0(func() error { return unix.Fsync(fd) })
	}
	if err == nil && tmp != name {
		err = eintr.Retry0(func() error { return unix.Rename(tmp, name) })
	}
	var st unix.Stat_t
	if err == nil && wantStat {
		err = eintr.Retry0(func() error { return unix.Fstat(fd, &st) })
	}
	if cerr := unix.Close(fd); err == nil && cerr != unix.EINTR {
		err = cerr // EINTR: the descriptor is closed anyway
	}
	if err != nil {
		return confined.Info{}, &fs.PathError{Op: "write", Path: name, Err: err}
	}
	return confined.InfoOf(&st), nil
}

// createFresh creates the file tmp, removing whatever was at its name.
func createFresh(tmp string) (int, error) {
	flags := unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err := eintr.Retry(func() (int, error) { return unix.Open(tmp, flags, 0o644) })
	if err == unix.EEXIST {
		if err = unix.Unlink(tmp); err == nil || err == unix.ENOENT {
			fd, err = eintr.Retry(func() (int, error) { return unix.Open(tmp, flags, 0o644) })
		}
	}
	return fd, err
}

// openInPlace opens the file name for rewriting in place, creating it
// when missing, and empties it: only a regular file with one link, never
// through a symlink, and never waiting on a FIFO.
func openInPlace(name string) (int, error) {
	flags := unix.O_WRONLY | unix.O_CREAT | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
	fd, err := eintr.Retry(func() (int, error) { return unix.Open(name, flags, 0o644) })
	if err != nil {
		return -1, err
	}
	var st unix.Stat_t
	err = eintr.Retry0(func() error { return unix.Fstat(fd, &st) })
	if err == nil && (st.Mode&unix.S_IFMT != unix.S_IFREG || st.Nlink != 1) {
		err = unix.EINVAL
	}
	if err == nil && st.Size != 0 {
		err = eintr.Retry0(func() error { return unix.Ftruncate(fd, 0) })
	}
	if err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// writeAll writes data to the descriptor fd whole.
func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := eintr.Retry(func() (int, error) { return unix.Write(fd, data) })
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

// SyncDir flushes the directory at the OS path dir, through a raw
// descriptor: an open, an fsync and a close, with no poller registration
// and no change of the descriptor's flags (a save flushes a few of them).
func SyncDir(dir string) error {
	fd, err := eintr.Retry(func() (int, error) {
		return unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	err = eintr.Retry0(func() error { return unix.Fsync(fd) })
	unix.Close(fd)
	if err != nil {
		return &fs.PathError{Op: "sync", Path: dir, Err: err}
	}
	return nil
}
