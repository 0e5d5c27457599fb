package confined

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"
)

// Root is an output root opened confined: an os.Root, at most MaxHandles
// directories below it held open (by slash path, each pinned to the
// directory first opened there, unless it only looks: Look), and the
// write path's state (see WriteDir). Every operation takes a slash path
// relative to the root and stays inside it. Its read path (Dir and what
// uses it) is used from one goroutine at a time; WriteDir from several.
type Root struct {
	r       *os.Root
	own     bool               // Close closes r: OpenRoot opened it (Wrap's stays the caller's)
	handles map[string]*handle // open directories below r, by slash path
	used    uint64             // a clock for handle.used
	pins    *dirPins           // what each directory below r was when first opened; nil: not pinned (Look)
	wd      wdirs              // the write path's state
}

// handle is an open directory below the root, and when it was last used.
type handle struct {
	r    *os.Root
	used uint64
}

// MaxHandles bounds the directories a Root holds open at once: beyond,
// the one used least recently is closed, and opened again (through the
// root, and refused if it is another directory) when needed again.
const MaxHandles = 16

// Mode says what a Root is opened for, once and for its whole life.
type Mode int

const (
	// Pin: each directory below the root is pinned to the directory
	// first opened at its path; one opened again that is another is
	// refused (errReplaced). For a plan and its Apply.
	Pin Mode = iota
	// Look: the Root only looks. Its directories are not pinned, which
	// saves a stat of each directory it opens. For a read that decides
	// nothing it writes, such as the stat cache's freshness check
	// (output's Fresh), whose every answer is checked against what it
	// recorded: a directory replaced meanwhile can only make it answer
	// "not fresh". Every open stays confined to the root as for any
	// Root.
	Look
)

// Wrap returns the Root of r, an os.Root opened by the caller (confined,
// without following symlinks), who keeps it: Close leaves r open.
func Wrap(r *os.Root, m Mode) *Root { return newRoot(r, false, m) }

// newRoot returns the Root of r; with own, Close closes r too.
func newRoot(r *os.Root, own bool, m Mode) *Root {
	t := &Root{r: r, own: own, handles: map[string]*handle{}}
	if m != Look {
		t.pins = &dirPins{}
	}
	return t
}

// Reset starts the read path afresh, for the root planned again (output's
// replan): the handles below the root are closed and what each directory
// was when first opened is forgotten, as in a Root just opened. The
// os.Root, whose it is (Close), and the write path stay as they are.
func (t *Root) Reset() {
	for d := range t.handles {
		t.closeHandle(d)
	}
	if t.pins != nil {
		t.pins = &dirPins{}
	}
}

// RootError is an output root that cannot be used: one that exists but
// is not reachable inside within (a symlink on the way), is not a
// directory or cannot be stat'ed, which the caller reports as a problem
// of the root; or, with Within set, the directory it must lie within,
// which cannot be opened.
type RootError struct {
	Within      bool // within cannot be opened
	Unreachable bool // not reachable inside within
	NotDir      bool // not a directory: Mode says what it is
	Mode        fs.FileMode
	Err         error
}

func (e *RootError) Error() string { return e.Err.Error() }

// OpenRoot opens the directory at the OS path name as a Root. With
// within set (an absolute path), name is relative to it and reached
// through an os.Root opened at within, so that no symlink on the way
// leads outside within. It reports a missing root with a nil Root,
// creating it with its parents first when create is set; a root that
// cannot be used is a *RootError. Other errors are failures to create or
// open it. With owner set, the root it created is given to owner, and
// only the root: a parent created on the way stays this process's (0755),
// since without within it may lie outside anything owner owns. The Root
// is opened for m, and Close closes it.
func OpenRoot(name, within string, create bool, owner *Owner, m Mode) (*Root, error) {
	if within == "" {
		return openFrom(nil, name, create, owner, m)
	}
	wr, err := os.OpenRoot(within)
	if err != nil {
		return nil, &RootError{Within: true, Err: UnwrapPath(err)}
	}
	defer wr.Close()
	return openFrom(wr, name, create, owner, m)
}

// openFrom opens name, through base when base is not nil.
func openFrom(base *os.Root, name string, create bool, owner *Owner, m Mode) (*Root, error) {
	stat, mkdirAll, open := os.Stat, os.MkdirAll, os.OpenRoot
	if base != nil {
		stat, mkdirAll, open = base.Stat, base.MkdirAll, base.OpenRoot
	}
	if create && base == nil {
		// Usually missing (Plan found it so): create it without
		// stat'ing every parent first.
		switch err := createDirs(name); {
		case err == nil:
			if owner != nil {
				if err := os.Lchown(name, owner.UID, owner.GID); err != nil {
					return nil, UnwrapPath(err)
				}
			}
			r, err := open(name)
			return opened(r, err, m)
		case !errors.Is(err, fs.ErrExist) && !errors.Is(err, syscall.ENOTDIR):
			return nil, fmt.Errorf("cannot create the output root: %w", UnwrapPath(err))
		}
		// It exists, or a parent is not a directory: classify below.
	}
	fi, err := stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) && create:
		if err := mkdirAll(name, 0o755); err != nil {
			return nil, fmt.Errorf("cannot create the output root: %w", UnwrapPath(err))
		}
		if owner != nil {
			chown := os.Lchown
			if base != nil {
				chown = base.Lchown
			}
			if err := chown(name, owner.UID, owner.GID); err != nil {
				return nil, UnwrapPath(err)
			}
		}
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil && base != nil && !errors.Is(err, fs.ErrPermission):
		return nil, &RootError{Unreachable: true, Err: err}
	case err != nil:
		return nil, &RootError{Err: UnwrapPath(err)}
	case !fi.IsDir():
		return nil, &RootError{NotDir: true, Mode: fi.Mode(), Err: errors.New("not a directory")}
	}
	r, err := open(name)
	return opened(r, err, m)
}

// opened returns the Root, opened for m, of the os.Root open returned.
func opened(r *os.Root, err error, m Mode) (*Root, error) {
	if err != nil {
		return nil, UnwrapPath(err)
	}
	return newRoot(r, true, m), nil
}

// Owner is a numeric user and group.
type Owner struct{ UID, GID int }

// Reach opens the existing slash directory d below the root ("" is the
// root), or says why it cannot: missing, not a directory, a symlink, or
// another directory than the one first opened there (errReplaced). The
// directory stays open for the Root's next operations in it, among at
// most MaxHandles.
func (t *Root) Reach(d string) error {
	_, err := t.dir(d)
	return err
}

// dir returns a handle on the existing slash directory d below the root.
// It stays valid until the next call of dir: at most MaxHandles are kept
// open, and one opened again must be the directory first opened there (or
// dir fails with errReplaced). The handle stays the Root's.
func (t *Root) dir(d string) (*os.Root, error) {
	if d == "" {
		return t.r, nil
	}
	t.used++
	if h, ok := t.handles[d]; ok {
		h.used = t.used
		return h.r, nil
	}
	r, err := t.r.OpenRoot(filepath.FromSlash(d))
	if err != nil {
		return nil, err
	}
	if t.pins != nil {
		fi, err := r.Stat(".")
		if err == nil {
			err = t.pins.check(d, dirIDOf(fi))
		}
		if err != nil {
			r.Close()
			return nil, err
		}
	}
	if len(t.handles) >= MaxHandles {
		var lru string
		for k, h := range t.handles {
			if lru == "" || h.used < t.handles[lru].used {
				lru = k
			}
		}
		t.closeHandle(lru)
	}
	t.handles[d] = &handle{r: r, used: t.used}
	return r, nil
}

// closeHandle closes the handle on d, if open.
func (t *Root) closeHandle(d string) {
	if h, ok := t.handles[d]; ok {
		h.r.Close()
		delete(t.handles, d)
	}
}

// Lstat describes the slash path p, not following a symlink.
func (t *Root) Lstat(p string) (fs.FileInfo, error) {
	dr, err := t.dir(parent(p))
	if err != nil {
		return nil, err
	}
	return dr.Lstat(path.Base(p))
}

// Readlink returns the target of the symlink p.
func (t *Root) Readlink(p string) (string, error) {
	dr, err := t.dir(parent(p))
	if err != nil {
		return "", err
	}
	return dr.Readlink(path.Base(p))
}

// errNotRegular refuses to read what is not a regular file: a FIFO or a
// device swapped in since the caller looked.
var errNotRegular = errors.New("not a regular file")

// ReadFile reads the file p, which the caller found by Lstat to be
// size bytes long, when it holds at most limit bytes; read is false for
// a larger one, which is not read.
func (t *Root) ReadFile(p string, size, limit int64) (data []byte, read bool, err error) {
	if size > limit {
		return nil, false, nil
	}
	dr, err := t.dir(parent(p))
	if err != nil {
		return nil, false, err
	}
	// Without waiting (a FIFO swapped in since the caller's Lstat opens at
	// once), and only what the open descriptor says is a regular file.
	f, err := dr.OpenFile(path.Base(p), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, false, err
	} else if !fi.Mode().IsRegular() {
		return nil, false, &fs.PathError{Op: "read", Path: p, Err: errNotRegular}
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, false, err
	}
	if int64(b.Len()) > limit {
		return nil, false, nil
	}
	return b.Bytes(), true, nil
}

// Remove removes the file, symlink or empty directory p.
func (t *Root) Remove(p string) error {
	dr, err := t.dir(parent(p))
	if err != nil {
		return err
	}
	return dr.Remove(path.Base(p))
}

// OpenSelf opens the root directory itself, as the base of the write
// path (SetWriteRoot). It is no lock: any account that can open the
// directory could hold that. O_NONBLOCK, which means nothing to a
// directory, spares the four fcntl calls os makes to try a descriptor
// opened blocking on its poller and to put it back.
func (t *Root) OpenSelf() (*os.File, error) {
	return t.r.OpenFile(".", os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// Forget closes the handle on the directory d (about to be removed).
func (t *Root) Forget(d string) { t.closeHandle(d) }

// CloseDirs closes the handles on the directories below the root, and
// ends the write path; the root stays open.
func (t *Root) CloseDirs() {
	t.closeWAll()
	for d := range t.handles {
		t.closeHandle(d)
	}
}

// Close closes every handle, and the root's os.Root when OpenRoot opened
// it (one given to Wrap stays open).
func (t *Root) Close() {
	t.CloseDirs()
	if t.own {
		t.r.Close()
	}
}

// IsNotDir reports whether err, from opening a directory of the write
// path, says it is not one (any more): a file, or a symlink not followed.
func IsNotDir(err error) bool {
	return errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP)
}

// parent returns the slash directory of p, "" for the root.
func parent(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// createDirs creates the directory name and its missing parents, trying
// name first; unlike os.MkdirAll it reports fs.ErrExist when name
// already exists, so that the caller never takes over an existing root as
// one it created.
func createDirs(name string) error {
	err := os.Mkdir(name, 0o755)
	if errors.Is(err, fs.ErrNotExist) {
		if p := filepath.Dir(name); p != name {
			if perr := createDirs(p); perr != nil && !errors.Is(perr, fs.ErrExist) {
				return perr
			}
			err = os.Mkdir(name, 0o755)
		}
	}
	return err
}
