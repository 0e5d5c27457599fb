//go:build !linux

package output

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"syscall"
)

// Outside Linux the write path works through os.Root and os.File.

// wdirs is the write path's state for one root: the identity of each
// directory below it, as first opened by this Apply. No directory below
// the root stays open beyond the piece of work that opened it (see
// "Descriptors" in the package doc).
type wdirs struct{ pins *dirPins }

// keepOpen: files are closed once written (an open file cannot always be
// renamed), and stat'ed by name after their rename.
const keepOpen = false

type wdir struct{ r *os.Root }

type wfile struct{ f *os.File }

func (c *Changes) setWriteRoot(lock *os.File) { c.wd = wdirs{pins: &dirPins{}} }

// wdir opens the existing slash directory d below the root, through the
// root's os.Root. A directory opened before by this Apply must be the
// same one, or the open fails with errReplaced. The caller gives it back
// with doneW.
func (c *Changes) wdir(d string) (wdir, error) {
	if d == "" {
		return wdir{c.r}, nil
	}
	r, err := c.r.OpenRoot(osPath(d))
	if err != nil {
		return wdir{}, err
	}
	fi, err := r.Stat(".")
	if err == nil {
		err = c.wd.pins.check(d, dirIDOf(fi))
	}
	if err != nil {
		r.Close()
		return wdir{}, err
	}
	return wdir{r}, nil
}

// doneW closes a directory wdir opened (not the root).
func (c *Changes) doneW(w wdir) {
	if w.r != nil && w.r != c.r {
		w.r.Close()
	}
}

func (c *Changes) closeWAll() {}

func (w wdir) mkdir(name string) error { return w.r.Mkdir(name, 0o755) }
func (w wdir) lchown(name string, uid, gid int) error {
	return w.r.Lchown(name, uid, gid)
}
func (w wdir) remove(name string) error { return w.r.Remove(name) }
func (w wdir) lstat(name string) (fileStat, error) {
	fi, err := w.r.Lstat(name)
	if err != nil {
		return fileStat{}, err
	}
	return statOf(fi), nil
}
func (w wdir) symlink(target, name string) error { return w.r.Symlink(target, name) }
func (w wdir) rename(from, to string) error      { return w.r.Rename(from, to) }
func (w wdir) create(name string, perm fs.FileMode) (wfile, error) {
	f, err := w.r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	return wfile{f}, err
}

func (f wfile) write(data []byte) error { _, err := f.f.Write(data); return err }
func (f wfile) chown(uid, gid int) error {
	return f.f.Chown(uid, gid)
}

// writeback flushes the file: without a way to start writeback alone,
// each file is synced before it is published.
func (f wfile) writeback() error { return f.f.Sync() }

// stat returns the file's stat, giving it exactly perm first when the
// umask narrowed it at creation.
func (f wfile) stat(perm fs.FileMode) (fileStat, error) {
	fi, err := f.f.Stat()
	if err == nil && fi.Mode().Perm() != perm.Perm() {
		if err = f.f.Chmod(perm); err == nil {
			fi, err = f.f.Stat()
		}
	}
	if err != nil {
		return fileStat{}, err
	}
	return statOf(fi), nil
}

func (f wfile) close() error { return f.f.Close() }

// chmod gives the file exactly perm.
func (f wfile) chmod(perm fs.FileMode) error { return f.f.Chmod(perm) }

// tempPerm is the mode a temporary file is created with: none on Unix,
// until it is written and given its mode (see tempPrefix); on Windows,
// where a mode only makes a file read-only, its own.
func tempPerm(perm fs.FileMode) fs.FileMode {
	if runtime.GOOS == "windows" {
		return perm
	}
	return 0
}

// writeStateFile writes data to the state file tmp (an OS path), flushing
// it with sync, renames it to name when they differ, and with wantStat
// returns the stat of what is left on disk.
func writeStateFile(tmp, name string, data []byte, sync, wantStat bool) (fileStat, error) {
	if tmp != name {
		os.Remove(tmp) // never written through
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fileStat{}, err
	}
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && tmp != name {
		// Not os.Rename, which stats the target first.
		err = syscall.Rename(tmp, name)
	}
	var fi fs.FileInfo
	if err == nil && wantStat {
		// A rename changes the change time: stat what is left.
		fi, err = os.Lstat(name)
	}
	if err != nil || fi == nil {
		return fileStat{}, err
	}
	return statOf(fi), nil
}

// readStateFile reads a regular file of the state directory whole, returning its
// stat taken on the open descriptor. The state directory is the operator's,
// not the published tree's, so it is opened by path.
func readStateFile(name string, limit int64) ([]byte, fileStat, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fileStat{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fileStat{}, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fileStat{}, fmt.Errorf("%s: not a regular file", name)
	}
	if fi.Size() > limit {
		return nil, fileStat{}, fmt.Errorf("%s: larger than %d bytes", name, limit)
	}
	data := make([]byte, fi.Size())
	n, err := io.ReadFull(f, data)
	if err == io.ErrUnexpectedEOF {
		err = nil
	}
	return data[:n], statOf(fi), err
}
