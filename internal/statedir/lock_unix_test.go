//go:build unix

package statedir

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// LockFile takes a file's lock shared or exclusive, in a directory and a
// file it narrows to this user: shared holders do not exclude each
// other, an exclusive one excludes both, and a held lock in a private
// directory is waited for, up to wait, then reported busy.
func TestLockFileSharedAndExclusive(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	name := filepath.Join(dir, ".lock")
	if err := os.WriteFile(name, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(name, 0o644)
	a, err := LockFile(dir, ".lock", false, 0)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, name: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want mode %v", p, fi.Mode(), err, want)
		}
	}
	b, err := LockFile(dir, ".lock", false, 0)
	if err != nil {
		t.Fatalf("a second shared lock: %v", err)
	}
	start := time.Now()
	_, err = LockFile(dir, ".lock", true, 50*time.Millisecond)
	var be *BusyError
	if !errors.As(err, &be) || be.Foreign || time.Since(start) < 50*time.Millisecond {
		t.Errorf("exclusive beside shared: %v after %v, want busy after waiting", err, time.Since(start))
	}
	a.Close()
	b.Close()
	c, err := LockFile(dir, ".lock", true, 0)
	if err != nil {
		t.Fatalf("exclusive once released: %v", err)
	}
	if _, err := LockFile(dir, ".lock", false, 0); !errors.As(err, &be) {
		t.Errorf("shared beside exclusive: %v, want busy", err)
	}
	c.Close()
}

// A lock LockName takes with remove is held by one holder at a time,
// though each removes the file on release while others wait on it, and
// leaves no file once released.
func TestLockNameRemovedAndExclusive(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	var in atomic.Int32
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for range 40 {
				l, err := LockName(dir, "r.lock", true, 5*time.Second)
				if err != nil {
					t.Error(err)
					return
				}
				if n := in.Add(1); n != 1 {
					t.Errorf("%d holders at once", n)
				}
				time.Sleep(100 * time.Microsecond)
				in.Add(-1)
				l.Close()
			}
		})
	}
	wg.Wait()
	if names, err := Names(dir); err != nil || len(names) != 0 {
		t.Errorf("left in the directory: %v %v", names, err)
	}
}

// LockDirHeld excludes its holders as LockDir does: a held lock is
// reported busy, and taken once released; it narrows a directory of this
// user's to 0700.
func TestLockDirHeld(t *testing.T) {
	base := t.TempDir()
	own := filepath.Join(base, "own")
	if err := os.Mkdir(own, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(own, 0o755)
	a, err := LockDirHeld(own, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(own); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s: %v %v, want mode 0700", own, fi.Mode(), err)
	}
	if _, err := LockDirHeld(own, true, 20*time.Millisecond); !isBusy(err) {
		t.Errorf("a held directory lock: %v, want busy", err)
	}
	a.Close()
	b, err := LockDirHeld(own, true, 0)
	if err != nil {
		t.Errorf("the released directory lock: %v", err)
	} else {
		b.Close()
	}
}

func isBusy(err error) bool {
	var be *BusyError
	return errors.As(err, &be)
}
