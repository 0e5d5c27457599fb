//go:build !linux

package confined

import (
	"io/fs"
	"os"
	"runtime"

	"path/filepath"
)

// Outside Linux the write path works through os.Root and os.File.

// wdirs is the write path's state for one root: the identity of each
// directory below it, as first opened since SetWriteRoot. No directory
// below the root stays open beyond the piece of work that opened it (see
// "Descriptors" in docs/output-design.md).
type wdirs struct{ pins *dirPins }

// KeepOpen: files are closed once written (an open file cannot always be
// renamed), and stat'ed by name after their rename.
const KeepOpen = false

type WriteDir struct{ r *os.Root }

type File struct{ f *os.File }

func (t *Root) SetWriteRoot(dir *os.File) { t.wd = wdirs{pins: &dirPins{}} }

// WriteDir opens the existing slash directory d below the root, through
// the root's os.Root. A directory opened before since SetWriteRoot must
// be the same one, or the open fails with errReplaced. The caller gives
// it back with Done.
func (t *Root) WriteDir(d string) (WriteDir, error) {
	if d == "" {
		return WriteDir{t.r}, nil
	}
	r, err := t.r.OpenRoot(filepath.FromSlash(d))
	if err != nil {
		return WriteDir{}, err
	}
	fi, err := r.Stat(".")
	if err == nil {
		err = t.wd.pins.check(d, dirIDOf(fi))
	}
	if err != nil {
		r.Close()
		return WriteDir{}, err
	}
	return WriteDir{r}, nil
}

// Done closes a directory WriteDir opened (not the root).
func (t *Root) Done(w WriteDir) {
	if w.r != nil && w.r != t.r {
		w.r.Close()
	}
}

func (t *Root) closeWAll() {}

// Mkdir creates the directory name, mode 0755 whatever the umask.
func (w WriteDir) Mkdir(name string) error {
	if err := w.r.Mkdir(name, 0o755); err != nil {
		return err
	}
	if runtime.GOOS == "windows" {
		return nil
	}
	return w.r.Chmod(name, 0o755)
}

func (w WriteDir) Lchown(name string, uid, gid int) error {
	return w.r.Lchown(name, uid, gid)
}

func (w WriteDir) Remove(name string) error { return w.r.Remove(name) }

func (w WriteDir) Lstat(name string) (Info, error) {
	fi, err := w.r.Lstat(name)
	if err != nil {
		return Info{}, err
	}
	return StatOf(fi), nil
}

func (w WriteDir) Symlink(target, name string) error { return w.r.Symlink(target, name) }

func (w WriteDir) Rename(from, to string) error { return w.r.Rename(from, to) }

func (w WriteDir) Create(name string, perm fs.FileMode) (File, error) {
	f, err := w.r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	return File{f}, err
}

func (f File) Write(data []byte) error { _, err := f.f.Write(data); return err }

func (f File) Chown(uid, gid int) error {
	return f.f.Chown(uid, gid)
}

// Writeback flushes the file: without a way to start writeback alone,
// each file is synced before it is published.
func (f File) Writeback() error { return f.f.Sync() }

// Stat returns the file's stat, giving it exactly perm first when the
// umask narrowed it at creation.
func (f File) Stat(perm fs.FileMode) (Info, error) {
	fi, err := f.f.Stat()
	if err == nil && fi.Mode().Perm() != perm.Perm() {
		if err = f.f.Chmod(perm); err == nil {
			fi, err = f.f.Stat()
		}
	}
	if err != nil {
		return Info{}, err
	}
	return StatOf(fi), nil
}

func (f File) Close() error { return f.f.Close() }

// Sync flushes the file's data and inode.
func (f File) Sync() error { return f.f.Sync() }

// SyncFile flushes the file name in the directory.
func (w WriteDir) SyncFile(name string) error { return syncClose(w.r.Open(name)) }

// Chmod gives the file exactly perm.
func (f File) Chmod(perm fs.FileMode) error { return f.f.Chmod(perm) }

// TempPerm is the mode a temporary file is created with: none on Unix,
// until it is written and given its mode; on Windows, where a mode only
// makes a file read-only, its own.
func TempPerm(perm fs.FileMode) fs.FileMode {
	if runtime.GOOS == "windows" {
		return perm
	}
	return 0
}
