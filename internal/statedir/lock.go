package statedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// WaitLock calls try (TryLock or TryLockShared) on f until it takes the
// lock, fails, or wait has passed (busy), sleeping a little longer each
// time, up to 100 ms.
func WaitLock(f *os.File, try func(*os.File) (bool, error), wait time.Duration) (busy bool, err error) {
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		busy, err := try(f)
		if err != nil || !busy || time.Now().After(deadline) {
			return busy, err
		}
		time.Sleep(delay)
	}
}

// KeysFile is the file of a lock directory that holds, on Linux, the
// locks LockKey takes, one byte a key.
const KeysFile = "keys.lock"

// privateDirs are the directories of locks LockFile found private (this
// user's, mode 0700, narrowed to it when wider) in this process: no other
// user can widen them again, so the locks of a build's many roots in one
// directory check it once, not once a root.
var privateDirs dirSet

type dirSet struct{ m sync.Map }

func (s *dirSet) has(dir string) bool { _, ok := s.m.Load(dir); return ok }
func (s *dirSet) add(dir string)      { s.m.Store(dir, true) }

// privateKeyDir makes dir (mode 0700) when missing and checks that it is
// this user's alone (PrivateDir) the first time this process locks a key
// there: no other user can widen it again once it is.
func privateKeyDir(dir string) error {
	if privateDirs.has(dir) {
		return nil
	}
	ok, err := PrivateDir(dir)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s is not this user's alone (mode 0700): remove it", dir)
	}
	privateDirs.add(dir)
	return nil
}

// NameLock is an exclusive lock LockName took.
type NameLock struct {
	f    *os.File
	name string // the file to remove on release, if any
}

// Close releases the lock, having removed its file first when LockName
// was asked to.
func (l *NameLock) Close() error {
	if l.name != "" {
		os.Remove(l.name)
	}
	return l.f.Close()
}

// LockName locks, exclusive, the file name in dir as LockFile does, but
// holds it only once the file it locked is still the one at name: with
// remove, its holder removes it on release (NameLock.Close), so that a
// directory holding the locks of many names (one for each root a build
// writes) holds only those in use, and a waiter that gets the lock of a
// file removed meanwhile opens the one at name again, within the same
// wait.
func LockName(dir, name string, remove bool, wait time.Duration) (*NameLock, error) {
	file := filepath.Join(dir, name)
	deadline := time.Now().Add(wait)
	for {
		f, id, err := lockFile(dir, name, true, max(time.Until(deadline), 0))
		var be *BusyError
		if errors.As(err, &be) && !be.Foreign {
			be.Waited = wait
		}
		if err != nil {
			return nil, err
		}
		same, nerr := sameLocked(id, file)
		if nerr == nil && same {
			l := &NameLock{f: f}
			if remove {
				l.name = file
			}
			return l, nil
		}
		f.Close()
		if nerr != nil && !errors.Is(nerr, fs.ErrNotExist) {
			return nil, nerr
		}
		if time.Now().After(deadline) {
			// Held by others all along, each removing it.
			return nil, &BusyError{Dir: file, Waited: wait}
		}
	}
}
