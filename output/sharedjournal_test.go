//go:build unix

package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/output/internal/journal"
	"github.com/discgen/discgen/output/internal/record"
)

// ownRoots plans n roots, each keeping its record in a state directory of
// its own (RootStateDir) and journaling in e.state (Options.JournalDir).
func ownRoots(t *testing.T, e env, n int) (cs []*Changes, own []string) {
	t.Helper()
	for i := range n {
		opt := e.opt()
		opt.Record = fmt.Sprintf("r%d", i)
		opt.StateDir, opt.JournalDir = RootStateDir(e.state, opt.Record), e.state
		if _, err := PrepareRootState(opt.StateDir, opt.Record, nil); err != nil {
			t.Fatal(err)
		}
		c, err := Plan(filepath.Join(e.base, opt.Record), files("a.txt", "a\n"), opt)
		if err != nil || c.Err() != nil {
			t.Fatal(err, c.Err())
		}
		cs, own = append(cs, c), append(own, opt.StateDir)
	}
	return cs, own
}

// lockedByOther reports whether another holder has the directory dir
// locked: an exclusive lock on it cannot be taken.
func lockedByOther(t *testing.T, dir string) bool {
	t.Helper()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	busy, err := statedir.TryLock(f)
	if err != nil {
		t.Fatal(err)
	}
	return busy
}

// A batch of roots with state directories of their own writes one
// journal, in the build's state directory, readable by its user only,
// not one in each root's; it holds each root's own journal directory
// locked while it writes the root's record there.
func TestOwnStateDirsShareOneJournal(t *testing.T) {
	e := newEnv(t)
	cs, own := ownRoots(t, e, 3)
	// The hook runs on several roots at once: the first file written
	// looks.
	var once sync.Once
	seen := false
	h := &hooks{step: func(step, p string) error {
		if step == "write" {
			once.Do(func() { seen = true; lookMidBatch(t, e, own) })
		}
		return nil
	}}
	for _, c := range cs {
		c.opt.hooks = h
	}
	_, errs := ApplyAll(cs)
	if err := errors.Join(errs...); err != nil || !seen {
		t.Fatal(err, seen)
	}
	for i, d := range own {
		if _, err := readRecordNamed(d, fmt.Sprintf("r%d", i)); err != nil {
			t.Errorf("r%d's record in its own state directory: %v", i, err)
		}
		if lockedByOther(t, record.JournalDirOf(d)) {
			t.Errorf("%s still locked after the batch", d)
		}
	}
	if js := journals(t, e.state); len(js) != 0 {
		t.Errorf("journals left: %v", js)
	}
}

// lookMidBatch checks, once the batch's journal is written, that it is
// the only one, in e.state, mode 0600, and that each root's own journal
// directory is locked.
func lookMidBatch(t *testing.T, e env, own []string) {
	js := journals(t, e.state)
	if len(js) != 1 {
		t.Errorf("journals in the build's state directory: %v, want one", js)
	} else if fi, err := os.Stat(js[0]); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o600 {
		t.Errorf("the batch's journal: mode %v, want 0600", fi.Mode())
	}
	for _, d := range own {
		if js := journals(t, d); len(js) != 0 {
			t.Errorf("journals in a root's own state directory: %v", js)
		}
		if !lockedByOther(t, record.JournalDirOf(d)) {
			t.Errorf("%s is not locked while the batch writes its record", d)
		}
	}
}

// Recover merges a killed batch's intent for a root with a state
// directory of its own into the record there only once it holds that
// directory's journal lock: a batch of the root's owner writing the
// record (holding the lock shared) is not raced.
func TestRecoverWaitsForOwnStateLock(t *testing.T) {
	e := newEnv(t)
	cs, own := ownRoots(t, e, 1)
	c := cs[0]
	in := c.intent(nil)
	in.AddSum("b.txt", record.FileSum([]byte("b\n")))
	c.Close()
	leaveJournal(t, e, [][]byte{in.Marshal()})

	f, err := os.Open(record.JournalDirOf(own[0]))
	if err != nil {
		t.Fatal(err)
	}
	if busy, err := statedir.TryLockShared(f); busy || err != nil {
		t.Fatal(busy, err)
	}
	done := make(chan error, 1)
	go func() {
		n, _, err := Recover(e.state)
		if err == nil && n != 1 {
			err = fmt.Errorf("recovered %d roots, want 1", n)
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("Recover returned while the root's own journal directory was locked: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	f.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rec, err := readRecordNamed(own[0], "r0")
	if err != nil || rec.Complete || !rec.Owns("b.txt", record.FileSum([]byte("b\n"))) {
		t.Errorf("the root's own record after recovery: %+v %v", rec, err)
	}
	if js := journals(t, e.state); len(js) != 0 {
		t.Errorf("journal left: %v", js)
	}
}

// A root's own state directory is made on its first build, and costs a
// later build nothing but one lstat: made says whether its journal
// directory is new (and so holds nothing to recover).
func TestPrepareRootStateMadeOnce(t *testing.T) {
	state := t.TempDir()
	dir := RootStateDir(state, "r")
	made, err := PrepareRootState(dir, "r", nil)
	if err != nil || !made {
		t.Fatalf("first: made %v, %v", made, err)
	}
	var names []string
	filepath.Walk(state, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.IsDir() {
			rel, _ := filepath.Rel(state, p)
			names = append(names, rel)
		}
		return nil
	})
	rel, _ := filepath.Rel(state, dir)
	if want := []string{".", record.RootsDir, filepath.Dir(rel), rel}; !slices.Equal(names, want) {
		t.Errorf("made %v, want %v", names, want)
	}
	made, err = PrepareRootState(dir, "r", nil)
	if err != nil || made {
		t.Errorf("second: made %v, %v", made, err)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil || st.Mode&0o777 != 0o700 {
		t.Errorf("the root's state directory's mode %o, %v", st.Mode&0o777, err)
	}
}

// Recover merges what it can of a killed batch's journal: a root whose
// record cannot be written (a directory stands where it goes) keeps its
// intent in the journal, which keeps nothing else, the plans own it, and
// the error names that root alone (NotRecovered), not the build's.
func TestRecoverKeepsOnlyWhatItCannotMerge(t *testing.T) {
	e := newEnv(t)
	cs, own := ownRoots(t, e, 3)
	var ins [][]byte
	for _, c := range cs {
		in := c.intent(nil)
		in.AddSum("b.txt", record.FileSum([]byte("b\n")))
		ins = append(ins, in.Marshal())
		c.Close()
	}
	leaveJournal(t, e, ins)
	bad := filepath.Join(own[1], filepath.FromSlash(record.StateBase(own[1], "r1")+".rec"))
	mustWrite(t, filepath.Join(bad, "x"), "x\n")

	n, j, err := Recover(e.state)
	var nr *NotRecovered
	if n != 2 || !errors.As(err, &nr) || len(nr.Errs) != 1 || !strings.HasPrefix(nr.Errs[0].Error(), "r1: ") {
		t.Fatalf("Recover = %d, %v; want r0 and r2 recovered, r1 not", n, err)
	}
	if j.Roots() != 1 || len(j.Intents("r1")) != 1 {
		t.Errorf("the intents left to own: %+v", j)
	}
	for _, i := range []int{0, 2} {
		name := fmt.Sprintf("r%d", i)
		if rec, err := readRecordNamed(own[i], name); err != nil || !rec.Owns("b.txt", record.FileSum([]byte("b\n"))) {
			t.Errorf("%s's record: %+v %v", name, rec, err)
		}
	}
	js := journals(t, e.state)
	if len(js) != 1 {
		t.Fatalf("journals: %v", js)
	}
	data, err := os.ReadFile(js[0])
	if err != nil {
		t.Fatal(err)
	}
	recs, err := journal.Parse(data, js[0])
	if err != nil || len(recs) != 1 || recs[0].Name != "r1" {
		t.Errorf("the journal kept %d intents (%v), want r1's alone", len(recs), err)
	}
	// Once the record can be written, the next recovery merges it.
	os.RemoveAll(bad)
	if n, _, err := Recover(e.state); n != 1 || err != nil || len(journals(t, e.state)) != 0 {
		t.Errorf("Recover once r1's record can be written = %d, %v", n, err)
	}
}

// Root's lock of each root a build writes is a file in the build's
// journal directory only while it is held: a build of many roots leaves
// none there, and Recover, which lists the directory, stays as cheap as
// ever.
func TestRootLocksLeaveNoFiles(t *testing.T) {
	e := newEnv(t)
	cs, _ := ownRoots(t, e, 5)
	if _, errs := ApplyAll(cs); errors.Join(errs...) != nil {
		t.Fatal(errors.Join(errs...))
	}
	names, err := statedir.Names(filepath.Join(e.state, record.JournalDir))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Sort(names); !slices.Equal(names, []string{journal.LockName}) {
		t.Errorf("the journal directory after the batch: %v, want only %s", names, journal.LockName)
	}
}

// Recovery merges a journal's intent into a root's record within the
// bounds a plan reads it with (Options.MaxPaths, Options.Reserve given
// to RecoverWithin): a merge that would make the record name more paths
// than the root may hold is refused for that root alone, its intent kept
// in the journal, and every other root recovered; a record past 64 KiB
// is read only once reserved for.
func TestRecoverWithinBounds(t *testing.T) {
	e := newEnv(t)
	cs, own := ownRoots(t, e, 3)
	var ins [][]byte
	for i, c := range cs {
		in := c.intent(nil)
		in.AddSum("b.txt", record.FileSum([]byte("b\n")))
		if i == 1 {
			for k := range 10 {
				in.AddSum(fmt.Sprintf("p%d.txt", k), record.FileSum([]byte("p\n")))
			}
		}
		ins = append(ins, in.Marshal())
		c.Close()
	}
	// r2's record is large, within its bound: read once reserved for.
	big := record.New("r2")
	for k := range 1000 {
		big.AddSum(fmt.Sprintf("%s%04d.txt", strings.Repeat("n", 100), k), record.FileSum([]byte("n\n")))
	}
	bigFile := filepath.Join(own[2], filepath.FromSlash(record.StateBase(own[2], "r2")+".rec"))
	if err := os.WriteFile(bigFile, big.Marshal(), 0o600); err != nil {
		t.Fatal(err)
	}
	leaveJournal(t, e, ins)

	var reserved []int64
	held := 0
	opt := Options{MaxPaths: 8, Reserve: func(n int64) func() {
		reserved = append(reserved, n)
		held++
		return func() { held-- }
	}}
	// r1 would hold a.txt, b.txt and 10 more; r2's record holds 1,000.
	n, j, err := RecoverWithin(e.state, opt)
	var nr *NotRecovered
	if n != 1 || !errors.As(err, &nr) || len(nr.Errs) != 2 {
		t.Fatalf("Recover = %d, %v; want r0 recovered, r1 and r2 not", n, err)
	}
	for i, want := range []string{"r1: ", "r2: "} {
		if e := nr.Errs[i].Error(); !strings.HasPrefix(e, want) || !strings.Contains(e, "more than") {
			t.Errorf("error %d: %v, want %q refused past its bound", i, e, want)
		}
	}
	if j.Roots() != 2 || len(j.Intents("r1")) != 1 || len(j.Intents("r2")) != 1 {
		t.Errorf("the intents left to own: %+v", j)
	}
	if rec, err := readRecordNamed(own[0], "r0"); err != nil || !rec.Owns("b.txt", record.FileSum([]byte("b\n"))) {
		t.Errorf("r0's record: %+v %v", rec, err)
	}
	if rec, err := readRecordNamed(own[1], "r1"); err != nil || rec.Owns("b.txt", record.FileSum([]byte("b\n"))) {
		t.Errorf("r1's record, merged past its bound: %+v %v", rec, err)
	}
	if rec, err := readRecordNamed(own[2], "r2"); err != nil || len(rec.Files) != 1000 {
		t.Errorf("r2's record, past its bound, was changed: %v", err)
	}
	if len(reserved) != 0 {
		t.Errorf("reserved %v for records past their bound", reserved)
	}
	// A plan owning what the journal left for r1 is refused, as the
	// merge was: it would write the record past its bound.
	popt := e.opt()
	popt.Record, popt.StateDir, popt.JournalDir, popt.MaxPaths, popt.Journals = "r1", own[1], e.state, 8, j
	c, err := Plan(filepath.Join(e.base, "r1"), files("a.txt", "a\n"), popt)
	if err == nil {
		err = c.Err()
		c.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "more than 8 paths") {
		t.Errorf("r1 planned with the journal's intent past its bound: %v", err)
	}
	// Within larger bounds, both are merged, r2's record once reserved
	// for.
	opt.MaxPaths = 1200
	if n, _, err := RecoverWithin(e.state, opt); n != 2 || err != nil || len(journals(t, e.state)) != 0 {
		t.Fatalf("Recover within larger bounds = %d, %v", n, err)
	}
	if fi, err := os.Stat(bigFile); err != nil || len(reserved) != 1 || reserved[0] < fi.Size() || held != 0 {
		t.Errorf("reserved %v (%d held), want r2's record reserved for and given back", reserved, held)
	}
}

// leaveJournal writes a batch's journal of the intents ins into e's state
// directory and lets it go, as a build killed after writing it would:
// the journal stays, unlocked.
func leaveJournal(t *testing.T, e env, ins [][]byte) {
	t.Helper()
	jl := journal.Open(e.state, 0, false, e.root)
	if jl.Err != nil {
		t.Fatal(jl.Err)
	}
	if err := jl.Write(ins, false, nil); err != nil {
		t.Fatal(err)
	}
	jl.Close(true)
}
