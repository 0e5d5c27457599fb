//go:build !linux

package confined

import (
	"errors"
	"os"
)

// MkdirOwned is Mkdir, giving the new directory to uid and gid: the
// directory is opened once created, and chowned through that descriptor
// only when it is a directory and the one at name (not a symlink to
// one), so that what another user put at name meanwhile (a hard link to
// a file, a symlink) is not given away.
func (w WriteDir) MkdirOwned(name string, uid, gid int) error {
	if err := w.Mkdir(name); err != nil {
		return err
	}
	f, err := w.r.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	li, err := w.r.Lstat(name)
	if err != nil {
		return err
	}
	if !fi.IsDir() || !os.SameFile(fi, li) {
		return errors.New(name + ": replaced once created")
	}
	return f.Chown(uid, gid)
}

// SymlinkOwned is Symlink, giving the new symlink to uid and gid when it
// is still a symlink at name (outside Linux a symlink cannot be opened
// itself: what another user puts there between the check and the chown
// is not seen).
func (w WriteDir) SymlinkOwned(target, name string, uid, gid int) error {
	if err := w.Symlink(target, name); err != nil {
		return err
	}
	li, err := w.r.Lstat(name)
	if err != nil {
		return err
	}
	if li.Mode()&os.ModeSymlink == 0 {
		return errors.New(name + ": replaced once created")
	}
	return w.Lchown(name, uid, gid)
}
