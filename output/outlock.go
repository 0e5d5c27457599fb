package output

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/discgen/discgen/internal/statedir"
)

// The output root's lock. Two builds of one root never write it at once,
// whatever state directory each uses: Apply holds, from before it checks
// the root against its plan until the root's record is written, the
// lock of the root itself, named by the root's device and inode
// ("<dev>.<ino>", statedir.LockKey: on Linux one byte of one file a
// build keeps, elsewhere a file of its own removed on release) in a
// directory only the build's user can open (statedir.UserLockDir, checked
// to be its own, mode 0700), so that no other account can create or hold
// it. A build waits
// for it up to Options.LockWait, then plans the root again from what the
// other build left (a plan made meanwhile is stale), refusing its files
// as not its own unless Options.Replace.
//
// The lock is its user's: builds run by different users (root's, and a
// tenant owner's save of its own root) do not exclude each other by it,
// but by the root's own state (lockState), which they share.

// lockOutput takes the lock of the root being applied, opened with device
// dev and inode ino: one writer per output root, whatever its state
// directory. It is held, as the root's other locks, until its record is
// written.
func (a *applying) lockOutput(dev, ino uint64) {
	l, err := a.c.w.lockOutputRoot(a.c.Root, a.c.opt.hooks.outputLockDir(), dev, ino, cmp.Or(a.c.opt.LockWait, defaultWait))
	if err != nil {
		a.err, a.done = err, true
		return
	}
	a.locks = append(a.locks, l)
}

// lockOutputRoot takes the lock of the output root root, whose device and
// inode are dev and ino, in the directory dir, waiting up to wait. The
// directory is checked to be this user's alone once per Writer (a build),
// not once per root: a long-running process (a control panel's, a Writer
// for each save) checks it again in each build, and so finds one removed
// meanwhile (a runtime directory removed at logout, /tmp cleaned) and
// made by another account since.
func (w *Writer) lockOutputRoot(root, dir string, dev, ino uint64, wait time.Duration) (io.Closer, error) {
	if _, ok := w.privateDirs.Load(dir); !ok {
		private, err := statedir.PrivateDir(dir)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot lock the output root: %w", root, err)
		}
		if !private {
			return nil, fmt.Errorf("%s: cannot lock the output root: %s, where this user's builds lock their output roots, is not this user's alone (mode 0700): remove it", root, dir)
		}
		w.privateDirs.Store(dir, true)
	}
	l, err := statedir.LockKey(dir, strconv.FormatUint(dev, 10)+"."+strconv.FormatUint(ino, 10), wait)
	var be *statedir.BusyError
	if errors.As(err, &be) {
		return nil, fmt.Errorf("%s: another build is writing this output root (still locked after %v); run the build again when it has finished", root, wait)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot lock the output root: %w", root, err)
	}
	return l, nil
}
