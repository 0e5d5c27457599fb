//go:build linux

package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/internal/testing/otheruser"
	"github.com/discgen/discgen/output/internal/journal"
	"github.com/discgen/discgen/output/internal/record"
)

// A root's own journal directory is its owner's to fill: every walk of
// it reads a bounded number of its entries (record.MaxOwnEntries), and removes,
// opens and reports no more than that, whatever it holds.

// ownJournalDir makes the own state directory of the root name in
// base/state, given to owner (nil: root's), and fills its journal
// directory with n entries named by name(i), made by mk.
func ownJournalDir(t *testing.T, base, name string, owner *Owner, n int, entry func(i int) string, mk func(path string) error) (own, dir string) {
	t.Helper()
	own = RootStateDir(filepath.Join(base, "state"), name)
	if _, err := PrepareRootState(own, name, owner); err != nil {
		t.Fatal(err)
	}
	dir = record.JournalDirOf(own)
	for i := range n {
		if err := mk(filepath.Join(dir, entry(i))); err != nil {
			t.Fatal(err)
		}
	}
	return own, dir
}

// longName is a 200-byte name ending in ext, different for each i.
func longName(i int, ext string) string {
	s := fmt.Sprintf("%08d", i)
	return s + strings.Repeat("x", 200-len(s)-len(ext)) + ext
}

func emptyFile(p string) error { return os.WriteFile(p, nil, 0o600) }
func fifo(p string) error      { return syscall.Mkfifo(p, 0o600) }

func countSuffix(t *testing.T, dir, ext string) int {
	t.Helper()
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range names {
		if strings.HasSuffix(e.Name(), ext) {
			n++
		}
	}
	return n
}

// A killed build's .new files, of which its owner may make any number:
// one recovery removes at most record.MaxOwnEntries of them, and refuses the
// root in one line while more are there.
func TestOwnJournalPartsBounded(t *testing.T) {
	base := livetest.Dir(t)
	const n = 2000
	own, dir := ownJournalDir(t, base, "users/alice/public_html", nil, n, func(i int) string { return longName(i, journal.PartExt) }, emptyFile)

	_, _, err := Recover(own)
	left := countSuffix(t, dir, journal.PartExt)
	if removed := n - left; removed > record.MaxOwnEntries || removed == 0 {
		t.Errorf("one recovery removed %d of %d .new files, want 1 to %d", removed, n, record.MaxOwnEntries)
	}
	var ce *CrowdedError
	if !errors.As(err, &ce) {
		t.Fatalf("Recover of a journal directory of %d entries = %v, want a CrowdedError", n, err)
	}
	if msg := err.Error(); strings.Count(msg, "\n") > 0 || !strings.Contains(msg, dir) {
		t.Errorf("Recover's error is not one line naming %s:\n%s", dir, msg)
	}

	// Emptied to a few, the directory recovers and the root is not
	// refused.
	for i := range n - 3 {
		os.Remove(filepath.Join(dir, longName(i, journal.PartExt)))
	}
	if _, _, err := Recover(own); err != nil {
		t.Errorf("Recover of 3 .new files: %v", err)
	}
	if left := countSuffix(t, dir, journal.PartExt); left != 0 {
		t.Errorf("%d .new files left after a recovery of 3", left)
	}
}

// Journals that cannot be read (FIFOs, as many as the owner likes):
// Recover, ReadJournals (a check, a dry run) and journal.DeadIntents (a plan
// rechecked) open at most record.MaxOwnEntries of them, and report them in a
// few lines.
func TestOwnJournalsReadBounded(t *testing.T) {
	base := livetest.Dir(t)
	const n = 1000
	name := "users/alice/public_html"
	own, _ := ownJournalDir(t, base, name, nil, n, func(i int) string { return longName(i, record.JournalExt) }, fifo)
	opened := 0
	h := &hooks{journalOpen: func(string) { opened++ }}

	check := func(what string, err error, wantErr bool) {
		t.Helper()
		if opened > record.MaxOwnEntries {
			t.Errorf("%s opened %d of %d journals, want at most %d", what, opened, n, record.MaxOwnEntries)
		}
		if wantErr && err == nil {
			t.Errorf("%s of %d FIFOs: no error", what, n)
		}
		if err != nil {
			if lines := strings.Count(err.Error(), "\n") + 1; lines > journal.MaxReported+1 {
				t.Errorf("%s: %d lines of error, want at most %d", what, lines, journal.MaxReported+1)
			}
		}
		opened = 0
	}
	_, _, err := RecoverWithin(own, Options{hooks: h})
	check("Recover", err, true)
	_, err = journal.Read(own, h.opening)
	check("ReadJournals", err, true)
	journal.DeadIntents(own, name, nil, h.opening)
	check("deadIntents", nil, false)
}

// While the owner's build holds its journal directory's lock, root's
// recovery reads nothing there: the root is deferred to the next build,
// in one line, whatever the directory holds.
func TestOwnerLockDefersRootsRecovery(t *testing.T) {
	otheruser.NeedRoot(t)
	base := livetest.Dir(t)
	owner := &Owner{UID: otheruser.Nobody, GID: otheruser.Nobody}
	own, dir := ownJournalDir(t, base, "users/alice/public_html", owner, 500, func(i int) string { return longName(i, record.JournalExt) }, fifo)
	if !otheruser.Hold(t, otheruser.Nobody, dir, false) {
		t.Fatalf("uid %d could not lock its own journal directory %s", otheruser.Nobody, dir)
	}
	opened := 0
	_, _, err := RecoverWithin(own, Options{hooks: &hooks{journalOpen: func(string) { opened++ }}})
	var de *DeferredError
	if !errors.As(err, &de) {
		t.Fatalf("Recover beside the owner's lock = %.300v, want a DeferredError", err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("Recover's error is not one line:\n%s", err)
	}
	if opened > 0 {
		t.Errorf("Recover beside the owner's lock opened %d journals", opened)
	}
}
