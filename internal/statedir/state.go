package statedir

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/discgen/discgen/internal/confined"
)

// CreateDirs creates the directory dir (an OS path) and its missing
// parents, calling made for each it creates, parents first. Unlike
// os.MkdirAll it tries dir first, so when only the last levels are
// missing it costs no stat, and it reports an error satisfying
// errors.Is(err, fs.ErrExist) when dir itself already exists: the
// caller learns whether it created dir.
func CreateDirs(dir string, made func(string)) error {
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, fs.ErrNotExist) {
		if p := filepath.Dir(dir); p != dir {
			if perr := CreateDirs(p, made); perr != nil && !errors.Is(perr, fs.ErrExist) {
				return perr
			}
			err = os.Mkdir(dir, 0o755)
		}
	}
	if err == nil && made != nil {
		made(dir)
	}
	return err
}

// The state directory. discgen keeps its records, stat caches and
// journals in a directory the operator names (--state), not in the
// published tree, so it is reached by path: these functions take OS paths.

// Lstat describes the file at the OS path name, not following a symlink.
func Lstat(name string) (confined.Info, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return confined.Info{}, err
	}
	return confined.StatOf(fi), nil
}

// Resolve is the absolute path abs with every symlink on the way
// resolved, as far as it exists: what is missing is joined to the real
// path of what exists. Where a state directory lies is compared with it
// as well as by the path as written, so that one reached through a
// symlink into a directory it must stay out of is seen.
func Resolve(abs string) string {
	rest := ""
	for dir := abs; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		up := filepath.Dir(dir)
		if up == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = up
	}
}

// Exists reports whether something is at the OS path name, following
// symlinks: a state directory named through one is used.
func Exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// Mkdir creates the directory at the OS path name with mode (less the
// umask).
func Mkdir(name string, mode fs.FileMode) error { return os.Mkdir(name, mode) }

// Lchown gives the file at the OS path name to uid and gid, not
// following a symlink.
func Lchown(name string, uid, gid int) error { return os.Lchown(name, uid, gid) }

// Chmod gives the file at the OS path name mode.
func Chmod(name string, mode fs.FileMode) error { return os.Chmod(name, mode) }

// Remove removes the file at the OS path name.
func Remove(name string) error { return os.Remove(name) }

// RemoveAll removes name and everything below it, a state directory of
// its own a tenant may have filled: a symbolic link there is removed,
// never followed (os.RemoveAll opens each directory without following
// one).
func RemoveAll(name string) error { return os.RemoveAll(name) }

// Rename renames the file at the OS path from to to.
func Rename(from, to string) error { return os.Rename(from, to) }

// WriteNew writes data to the OS path name, creating or truncating it.
func WriteNew(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }

// OpenDir opens the directory at the OS path dir, to lock it or list it;
// with create, a missing one is created first, with its parents.
func OpenDir(dir string, create bool) (*os.File, error) {
	f, err := os.Open(dir)
	if create && errors.Is(err, fs.ErrNotExist) {
		if err = CreateDirs(dir, nil); err == nil || errors.Is(err, fs.ErrExist) {
			f, err = os.Open(dir)
		}
	}
	return f, err
}

// Names lists the names in the directory at the OS path dir.
func Names(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	return names, err
}

// CreateLocked creates the new file name (an OS path; O_EXCL, readable by
// this user only) and takes its exclusive lock, which it keeps until
// closed: a file other processes must tell from a dead one's (a journal).
func CreateLocked(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	busy, err := TryLock(f)
	if err == nil && busy {
		err = errors.New("locked by another process")
	}
	if err != nil {
		f.Close()
		os.Remove(name)
		return nil, &LockError{err}
	}
	return f, nil
}

// RandomTemp is a temporary name for the file name, in its directory,
// that no one can foresee: name.<16 random hex digits>.tmp. A file
// replaced in a directory another user may write (a root's own state
// directory, which its owner may fill) is written under such a name, so
// that nothing that user put at a fixed name can stand in the way.
func RandomTemp(name string) string {
	var b [8]byte
	rand.Read(b[:])
	return name + "." + hex.EncodeToString(b[:]) + ".tmp"
}

// LockError is the failure to lock a file just created.
type LockError struct{ Err error }

func (e *LockError) Error() string { return e.Err.Error() }
func (e *LockError) Unwrap() error { return e.Err }

// OpenIfUnlocked opens the regular file name (an OS path), never through
// a symlink nor waiting on a FIFO, and takes its exclusive lock without
// waiting, when no other process holds it, and checks that the file is
// still the one at that name. It returns nil, nil
// when the lock is held, or the file is gone (removed meanwhile, even
// between the open and the lock). The caller closes it, once done.
func OpenIfUnlocked(name string) (*os.File, error) {
	f, err := openJournalFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	busy, err := TryLock(f)
	if err != nil || busy {
		f.Close()
		return nil, err
	}
	// Removed (and closed) by its owner between the open and the lock:
	// gone, not free.
	fi, err := f.Stat()
	if err == nil {
		var ni fs.FileInfo
		if ni, err = os.Lstat(name); err == nil && !os.SameFile(fi, ni) {
			err = fs.ErrNotExist
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	return f, nil
}

// ReadAll reads f to its end, up to limit bytes: a larger file is an
// error naming it, and is not read further.
func ReadAll(f *os.File, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s: larger than %d bytes", f.Name(), limit)
	}
	return data, err
}
