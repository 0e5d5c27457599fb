package statedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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

// NameLock is an exclusive lock LockName took.
type NameLock struct {
	f     *os.File
	name  string       // the file to remove on release, if any
	close func() error // closes a lock LockKept took without an *os.File
}

// Close releases the lock, having removed its file first when LockName
// was asked to.
func (l *NameLock) Close() error {
	if l.close != nil {
		return l.close()
	}
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
