//go:build linux

package output

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/internal/testing/otheruser"
)

// What another local account can open, it can lock: nothing a build run
// as root waits on may be such a thing. Each test has the account (the
// user nobody) take what it can, then times root's build beside it.

// writeBeside writes a small tree into root with state, and fails the
// test unless it succeeds within a second: a build that waits on another
// account's lock takes LockWait (2 s here) and fails.
func writeBeside(t *testing.T, root, state string) {
	t.Helper()
	start := time.Now()
	_, _, err := Write(root, files("a.txt", "a "+time.Now().String()+"\n"), Options{StateDir: state, NoSync: true, LockWait: 2 * time.Second})
	if err != nil {
		t.Errorf("root's build beside another account's lock: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("root's build beside another account's lock took %v", d)
	}
}

// Root's journal directory (STATE/journal) is root's alone, mode 0700,
// and one an earlier build made 0755 is narrowed: no other account can
// open it, and so none can lock it.
func TestJournalDirIsRootsAlone(t *testing.T) {
	otheruser.NeedRoot(t)
	base := livetest.Dir(t)
	root, state := filepath.Join(base, "public"), filepath.Join(base, "state")
	jdir := filepath.Join(state, journalDir)
	if err := os.MkdirAll(jdir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(jdir, 0o755)
	writeBeside(t, root, state)
	if fi, err := os.Stat(jdir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s after root's build: %v %v, want mode 0700", jdir, fi.Mode(), err)
	}
	if otheruser.Hold(t, otheruser.Nobody, jdir, false) {
		t.Errorf("uid %d opened and locked root's journal directory", otheruser.Nobody)
	}
	writeBeside(t, root, state)
	// A new state directory gets its journal directory 0700 at once.
	state2 := filepath.Join(base, "state2")
	writeBeside(t, filepath.Join(base, "public2"), state2)
	if fi, err := os.Stat(filepath.Join(state2, journalDir)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("a new journal directory: %v %v, want mode 0700", fi.Mode(), err)
	}
}

// The output root is no lock: any account can open a 0755 directory (a
// userdir's public_html, the site's output directory) and hold its
// flock, and root's build goes on beside it.
func TestOutputRootIsNoLock(t *testing.T) {
	otheruser.NeedRoot(t)
	base := livetest.Dir(t)
	root, state := filepath.Join(base, "public"), filepath.Join(base, "state")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(root, 0o755)
	if !otheruser.Hold(t, otheruser.Nobody, root, false) {
		t.Fatalf("uid %d could not lock %s, which every account can open", otheruser.Nobody, root)
	}
	writeBeside(t, root, state)
	writeBeside(t, root, state)
}
