//go:build !unix

package statedir

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// TryLock does nothing where advisory locks are not available: concurrent
// builds of one root are then not serialized.
func TryLock(f *os.File) (busy bool, err error) { return false, nil }

// TryLockShared does nothing either: Recover may then run beside a build
// in progress with the same state directory.
func TryLockShared(f *os.File) (busy bool, err error) { return false, nil }

// Writable reports true: where there are no advisory locks, the build
// finds out when it writes.
func Writable(string) bool { return true }

// openJournalFile opens a journal file for reading.
func openJournalFile(file string) (*os.File, error) { return os.Open(file) }

// LockDir opens the directory dir (creating it when create is set) and
// takes no lock: there are none here.
func LockDir(dir string, exclusive, create bool, wait time.Duration) (*os.File, error) {
	f, err := os.Open(dir)
	if create && errors.Is(err, fs.ErrNotExist) {
		if err = CreateDirs(dir, nil); err == nil || errors.Is(err, fs.ErrExist) {
			f, err = os.Open(dir)
		}
	}
	return f, err
}

// LockFile opens the file name in dir, both created when missing, and
// takes no lock.
func LockFile(dir, name string, exclusive bool, wait time.Duration) (*os.File, error) {
	if err := CreateDirs(dir, nil); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	return os.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE, 0o600)
}

// lockID is the file lockFile opened.
type lockID struct{ fi fs.FileInfo }

// lockFile is LockFile, returning also the file it opened.
func lockFile(dir, name string, exclusive bool, wait time.Duration) (*os.File, lockID, error) {
	f, err := LockFile(dir, name, exclusive, wait)
	if err != nil {
		return nil, lockID{}, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, lockID{}, err
	}
	return f, lockID{fi}, nil
}

// sameLocked reports whether the file at the OS path file is the one
// lockFile opened, id.
func sameLocked(id lockID, file string) (bool, error) {
	now, err := os.Lstat(file)
	if err != nil {
		return false, err
	}
	return os.SameFile(id.fi, now), nil
}

// PrivateDir creates dir when missing, and reports true: there are no
// users to tell apart here.
func PrivateDir(dir string) (bool, error) {
	if err := CreateDirs(dir, nil); err != nil && !errors.Is(err, fs.ErrExist) {
		return false, err
	}
	return true, nil
}

// BusyError is a lock found held; it does not occur here.
type BusyError struct {
	Dir     string
	Waited  time.Duration
	Foreign bool
}

func (e *BusyError) Error() string { return e.Dir + " is locked by another process" }

// LockDirHeld is LockDir, creating dir when missing, for a caller that
// only holds the lock and releases it (Close).
func LockDirHeld(dir string, exclusive bool, wait time.Duration) (io.Closer, error) {
	f, err := LockDir(dir, exclusive, true, wait)
	if err != nil {
		return nil, err
	}
	return f, nil
}
