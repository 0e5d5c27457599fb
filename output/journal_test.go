package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/output/internal/journal"
	"github.com/discgen/discgen/output/internal/record"
)

func journals(t *testing.T, state string) []string {
	t.Helper()
	js, err := filepath.Glob(filepath.Join(state, record.JournalDir, "*"+record.JournalExt))
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// A batch leaves no journal behind, and writes each root's record once.
func TestJournalRemovedAfterBatch(t *testing.T) {
	e := newEnv(t)
	var cs []*Changes
	for i := range 3 {
		c, err := Plan(filepath.Join(e.base, fmt.Sprintf("r%d", i)), files("a.txt", "a\n"), e.opt())
		if err != nil || c.Err() != nil {
			t.Fatal(err, c.Err())
		}
		cs = append(cs, c)
	}
	_, errs := ApplyAll(cs)
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if js := journals(t, e.state); len(js) != 0 {
		t.Errorf("journals left: %v", js)
	}
	if data := mustRead(t, filepath.Join(e.state, ".gitignore")); !strings.Contains(data, "\njournal/\n") {
		t.Errorf(".gitignore does not leave out the journal:\n%s", data)
	}
}

// A journal left by a killed build is merged into the records it names:
// each becomes incomplete, owning both contents and naming the temporary
// files, and the journal goes.
// killedBatch leaves what a build of a.txt from "1\n" to "2\n" (and of a
// new d/b.txt) leaves when it is killed after its journal and its first
// rename: a.txt holds the new bytes, which the complete record does not
// own, and a temporary file is half written. The batch's journal lock is
// returned still held.
func killedBatch(t *testing.T, e env) *journal.Lock {
	t.Helper()
	apply(t, e, files("a.txt", "1\n"), e.opt())
	c, err := Plan(e.root, files("a.txt", "2\n", "d/b.txt", "b\n"), e.opt())
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	in := c.intent([]*pending{{ch: &c.List[0], tmp: ".discgen-0123456789abcdef.tmp"}})
	c.Close()
	jl := journal.Open(e.state, 0, false, e.root)
	if jl.Err != nil {
		t.Fatal(jl.Err)
	}
	if err := jl.Write([][]byte{in.Marshal()}, false, nil); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, e.path("a.txt"), "2\n")
	mustWrite(t, e.path(".discgen-0123456789abcdef.tmp"), "partial")
	return jl
}

func TestRecoverMergesJournal(t *testing.T) {
	e := newEnv(t)
	jl := killedBatch(t, e)
	// While the batch holds its lock, the journal is not dead.
	if n, _, err := Recover(e.state); n != 0 || err != nil || len(journals(t, e.state)) != 1 {
		t.Fatalf("recovered a live journal: %d %v", n, err)
	}
	jl.Close(true) // the process dies: its locks go, its journal stays

	if n, _, err := Recover(e.state); n != 1 || err != nil {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	if js := journals(t, e.state); len(js) != 0 {
		t.Errorf("journal left after recovery: %v", js)
	}
	rec, err := readRecord(e.state, e.root)
	if err != nil || rec.Complete || !rec.Owns("a.txt", record.FileSum([]byte("1\n"))) || !rec.Owns("a.txt", record.FileSum([]byte("2\n"))) ||
		!slices.Equal(rec.Temps, []string{".discgen-0123456789abcdef.tmp"}) || !rec.Dirs["d"] {
		t.Fatalf("record after recovery: %+v %v", rec, err)
	}
	// The next build owns what the killed one left, and completes.
	_, res := apply(t, e, files("a.txt", "3\n"), e.opt())
	if res.TempsRemoved != 1 || mustRead(t, e.path("a.txt")) != "3\n" {
		t.Errorf("build after recovery: %+v", res)
	}
	if rec, err := readRecord(e.state, e.root); err != nil || !rec.Complete || len(rec.Files["a.txt"]) != 1 {
		t.Errorf("record after the next build: %+v %v", rec, err)
	}
}

// A plan made with the journals read, as a check makes it, owns what a
// killed build left without recovering it: it reports what the next
// build will do, and changes nothing.
func TestPlanCountsJournals(t *testing.T) {
	e := newEnv(t)
	killedBatch(t, e).Dir.Close()
	want := files("a.txt", "3\n")
	if c, err := Plan(e.root, want, e.opt()); err != nil || c.Err() == nil {
		t.Fatalf("plan without the journals: %v; want a.txt reported as not discgen's", err)
	}
	// A journal that cannot be read is named, and the others still count.
	bad := filepath.Join(e.state, record.JournalDir, "ffffffffffffffff"+record.JournalExt)
	if err := os.Mkdir(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	j, err := ReadJournals(e.state)
	if err == nil || !strings.Contains(err.Error(), bad) || j.Roots() != 1 {
		t.Fatalf("ReadJournals beside an unreadable journal: %d roots, %v", j.Roots(), err)
	}
	if err := os.Remove(bad); err != nil {
		t.Fatal(err)
	}
	j, err = ReadJournals(e.state)
	if err != nil || j.Roots() != 1 {
		t.Fatalf("ReadJournals: %d roots, %v", j.Roots(), err)
	}
	opt := e.opt()
	opt.Journals = j
	c, err := Plan(e.root, want, opt)
	if err != nil || c.Err() != nil {
		t.Fatalf("plan with the journals: %v %v", err, c.Err())
	}
	if len(c.List) != 1 || c.List[0].Path != "a.txt" || !slices.Equal(c.temps, []string{".discgen-0123456789abcdef.tmp"}) {
		t.Errorf("plan with the journals: %+v, temps %v", c.List, c.temps)
	}
	c.Close()
	if len(journals(t, e.state)) != 1 {
		t.Error("reading the journals removed them")
	}
	if rec, err := readRecord(e.state, e.root); err != nil || !rec.Complete {
		t.Errorf("reading the journals changed the record: %+v %v", rec, err)
	}
	// A root the journals do not name plans as before.
	other := filepath.Join(e.base, "other")
	if c, err := Plan(other, want, opt); err != nil || c.Err() != nil || len(c.temps) != 0 {
		t.Errorf("plan of another root: %v %v", err, c.Err())
	}
	if j, err := ReadJournals(t.TempDir()); j != nil || err != nil {
		t.Errorf("ReadJournals with no journal: %v %v", j, err)
	}
}

// A build killed while it wrote its journal leaves it empty or cut short:
// recovery merges the roots it names in full, and removes it.
func TestRecoverCutShortJournal(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n"), e.opt())
	c, err := Plan(e.root, files("a.txt", "2\n"), e.opt())
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	in := c.intent([]*pending{{ch: &c.List[0], tmp: ".discgen-0123456789abcdef.tmp"}})
	c.Close()
	other := record.New("elsewhere")
	whole := journal.Marshal([][]byte{in.Marshal(), other.Marshal()})
	dir := filepath.Join(e.state, record.JournalDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "0000000000000000"+record.JournalExt), "")
	mustWrite(t, filepath.Join(dir, "1111111111111111"+record.JournalExt), string(whole[:len(whole)-3]))
	if n, _, err := Recover(e.state); n != 1 || err != nil {
		t.Fatalf("Recover = %d, %v; want the one root named in full", n, err)
	}
	if js := journals(t, e.state); len(js) != 0 {
		t.Errorf("journals left after recovery: %v", js)
	}
	if rec, err := readRecord(e.state, e.root); err != nil || rec.Complete || !slices.Equal(rec.Temps, []string{".discgen-0123456789abcdef.tmp"}) {
		t.Errorf("record after recovery: %+v %v", rec, err)
	}
}

// A root that fails after its intent reached the journal is left with its
// intent as its record, so the journal can go.
func TestFailedRootKeepsIntent(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n", "b.txt", "1\n"), e.opt())
	failing := e.opt()
	failing.hooks = &hooks{step: func(step, p string) error {
		if step == "rename" && p == "b.txt" {
			return fs.ErrPermission
		}
		return nil
	}}
	if _, _, err := Write(e.root, files("a.txt", "2\n", "b.txt", "2\n"), failing); err == nil {
		t.Fatal("injected failure not reported")
	}
	if js := journals(t, e.state); len(js) != 0 {
		t.Errorf("journal left: %v", js)
	}
	rec, err := readRecord(e.state, e.root)
	if err != nil || rec.Complete || !rec.Owns("a.txt", record.FileSum([]byte("2\n"))) || !rec.Owns("b.txt", record.FileSum([]byte("1\n"))) {
		t.Errorf("record after a failed root: %+v %v", rec, err)
	}
	if _, err := os.Stat(e.path("b.txt")); err != nil {
		t.Fatal(err)
	}
}

// A durable batch's journal stays until a flush has put its records on
// disk: the next batch's, or Flush at the end of a build.
func TestJournalWaitsForFlush(t *testing.T) {
	e := newEnv(t)
	opt := e.opt()
	syncfsBatches(t, &opt)
	opt.NoSync = false
	apply(t, e, files("a.txt", "1\n"), opt)
	if js := journals(t, e.state); len(js) != 1 {
		t.Fatalf("journals after a durable build: %v", js)
	}
	// The next batch's first flush covers the first one's records.
	apply(t, e, files("a.txt", "2\n"), opt)
	if js := journals(t, e.state); len(js) != 1 {
		t.Fatalf("journals after a second build: %v", js)
	}
	if err := Flush(); err != nil {
		t.Fatal(err)
	}
	if js := journals(t, e.state); len(js) != 0 {
		t.Errorf("journals after Flush: %v", js)
	}
	if rec, err := readRecord(e.state, e.root); err != nil || !rec.Complete {
		t.Errorf("record: %+v %v", rec, err)
	}
}

// A batch waits for a recovery in progress (the journal directory's lock
// file locked exclusively), up to LockWait, and then fails with nothing
// written.
func TestBatchWaitsForRecovery(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(filepath.Join(e.state, record.JournalDir), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(e.state, record.JournalDir, journal.LockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if busy, err := statedir.TryLock(f); busy || err != nil {
		testenv.Missing(t, "cannot lock here: busy=%v %v", busy, err)
	}
	opt := e.opt()
	opt.LockWait = 50 * time.Millisecond
	_, _, err = Write(e.root, files("a.txt", "a\n"), opt)
	if err == nil || !strings.Contains(err.Error(), "being recovered by another build") {
		t.Fatalf("build beside a recovery: %v", err)
	}
	if _, err := os.Lstat(e.path("a.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("written beside a recovery: %v", err)
	}
}

// The handle a waiting journal keeps on a filesystem does not keep a
// root's lock: once ApplyAll closes its lock, another build can lock the
// root, and a handle reopened from a locked directory holds no lock.
func TestKeptHandleHoldsNoLock(t *testing.T) {
	e := newEnv(t)
	opt := e.opt()
	opt.NoSync = false
	apply(t, e, files("a.txt", "1\n"), opt)
	holdLock(t, e.state, e.root)() // fails the test when still held
	f, err := os.Open(e.root)
	if err != nil {
		t.Fatal(err)
	}
	if busy, err := statedir.TryLock(f); busy || err != nil {
		t.Fatalf("root locked after Apply: busy=%v %v", busy, err)
	}
	if confined.SyncDirs {
		return
	}
	h, err := confined.ReopenDir(f)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	f.Close()
	g, err := os.Open(e.root)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if busy, err := statedir.TryLock(g); busy || err != nil {
		t.Errorf("a reopened handle kept the lock: busy=%v %v", busy, err)
	}
}

// A journal whose batch is done but waits for a flush (retired) belongs to
// a running build: a recovery started meanwhile, by another build with the
// same state directory, leaves it and the records alone, and the build's
// Flush removes it.
func TestRecoverLeavesRetiredJournal(t *testing.T) {
	e := newEnv(t)
	opt := e.opt()
	syncfsBatches(t, &opt)
	opt.NoSync = false
	apply(t, e, files("a.txt", "1\n"), opt)
	apply(t, e, files("a.txt", "2\n"), opt)
	if js := journals(t, e.state); len(js) == 0 {
		t.Fatal("no journal waits for a flush")
	}
	n, j, err := Recover(e.state)
	if n != 0 || j.Roots() != 0 || err != nil {
		t.Errorf("Recover beside a running build = %d, %d roots, %v; want nothing recovered", n, j.Roots(), err)
	}
	if rec, err := readRecord(e.state, e.root); err != nil || !rec.Complete || rec.Owns("a.txt", record.FileSum([]byte("1\n"))) {
		t.Errorf("record after a recovery beside the build: %+v %v", rec, err)
	}
	if err := Flush(); err != nil {
		t.Fatal(err)
	}
	if js := journals(t, e.state); len(js) != 0 {
		t.Errorf("journals after Flush: %v", js)
	}
}

// A journal is locked from before it has its name: no recovery can find
// it unlocked while its build runs. Once the build lets it go (its process
// died), it is dead, and a journal another build removed meanwhile is
// not an error.
func TestJournalLockedForItsLife(t *testing.T) {
	e := newEnv(t)
	jl := killedBatch(t, e)
	if f, err := journal.OpenDead(jl.Name); f != nil || err != nil {
		t.Fatalf("a running build's journal opened as dead: %v", err)
	}
	jl.Close(true)
	f, err := journal.OpenDead(jl.Name)
	if f == nil || err != nil {
		t.Fatalf("a dead journal not opened as dead: %v", err)
	}
	f.Close()
	// Removed by another build's recovery between the listing and the
	// open: skipped.
	os.Remove(jl.Name)
	dir := filepath.Join(e.state, record.JournalDir)
	n := 0
	err = journal.Each(dir, []string{filepath.Base(jl.Name)}, journal.MaxSize, true, nil, func(string, []*record.Record) error { n++; return nil })
	if n != 0 || err != nil {
		t.Errorf("a removed journal: read %d, %v", n, err)
	}
}

// While another build applies a batch, Recover merges nothing but returns
// the dead journals: a plan given them owns what the killed build left,
// and a save beside a running build is not refused for it. A recovery
// once the batch is done merges the journal; a leftover .new file (a build
// killed before its journal had its name) goes with it.
func TestRecoverBesideABatchReturnsDeadJournals(t *testing.T) {
	e := newEnv(t)
	jl := killedBatch(t, e)
	jl.Close(true) // the killed build's locks go
	part := filepath.Join(e.state, record.JournalDir, "2222222222222222"+journal.PartExt)
	mustWrite(t, part, "discgen output journal 1\nrec")
	batch := journal.Open(e.state, 0, false, e.root)
	if batch.Err != nil {
		t.Fatal(batch.Err)
	}
	n, j, err := Recover(e.state)
	if n != 0 || j.Roots() != 1 || err != nil || len(journals(t, e.state)) != 1 {
		t.Fatalf("Recover beside a batch = %d, %d roots, %v", n, j.Roots(), err)
	}
	if c, err := Plan(e.root, files("a.txt", "3\n"), e.opt()); err != nil || c.Err() == nil {
		t.Errorf("plan without the journals: %v, want a.txt refused", err)
	}
	opt := e.opt()
	opt.Journals = j
	_, res, err := Write(e.root, files("a.txt", "3\n"), opt)
	if err != nil || res.TempsRemoved != 1 || mustRead(t, e.path("a.txt")) != "3\n" {
		t.Fatalf("build with the dead journals beside a batch: %+v %v", res, err)
	}
	batch.Close(false)
	if n, j, err := Recover(e.state); n != 1 || j != nil || err != nil {
		t.Errorf("Recover after the batch = %d, %v, %v", n, j, err)
	}
	if _, err := os.Lstat(part); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a dead build's .new journal left: %v", err)
	}
	// The build after owns all and leaves a complete record.
	apply(t, e, files("a.txt", "4\n"), e.opt())
	if rec, err := readRecord(e.state, e.root); err != nil || !rec.Complete || len(rec.Files["a.txt"]) != 1 {
		t.Errorf("record: %+v %v", rec, err)
	}
}

// A build killed after this build's Recover leaves files this build's
// plan takes for someone else's (a.txt modified since discgen wrote it).
// Under the lock, the dead journal naming the root is read: the root is
// planned again owning what it names, and nothing is refused.
func TestApplyOwnsWhatABuildKilledSinceRecoverLeft(t *testing.T) {
	e := newEnv(t)
	if _, _, err := Recover(e.state); err != nil {
		t.Fatal(err)
	}
	jl := killedBatch(t, e)
	jl.Close(true) // killed: its locks go
	c, err := Plan(e.root, files("a.txt", "3\n"), e.opt())
	if err != nil {
		t.Fatal(err)
	}
	if got := problems(t, c.Err()); !slices.Equal(got, []string{"modified file a.txt"}) {
		t.Fatalf("plan: %q", got)
	}
	res, err := c.Apply()
	if err != nil || res.TempsRemoved != 1 || mustRead(t, e.path("a.txt")) != "3\n" {
		t.Fatalf("Apply: %+v %v", res, err)
	}
	// A file someone else changed, with no journal naming it, stays
	// refused.
	if n, _, err := Recover(e.state); n != 1 || err != nil {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	mustWrite(t, e.path("a.txt"), "mine\n")
	c, _ = Plan(e.root, files("a.txt", "4\n"), e.opt())
	if _, err := c.Apply(); !slices.Equal(problems(t, err), []string{"modified file a.txt"}) {
		t.Errorf("a file changed by someone else: %v", err)
	}
}

// A journal of another version of discgen (its first line names another
// format) is not this build's to read or remove: Recover reports it and
// leaves it, and recovers the others. One cut before its first line was
// whole is removed, as its batch had published nothing.
func TestRecoverLeavesOtherVersionsJournal(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n"), e.opt())
	dir := filepath.Join(e.state, record.JournalDir)
	newer := filepath.Join(dir, "2222222222222222"+record.JournalExt)
	torn := filepath.Join(dir, "3333333333333333"+record.JournalExt)
	mustWrite(t, newer, "discgen output journal 2\nrecord 3\nabc")
	mustWrite(t, torn, journal.Magic[:7])
	_, _, err := Recover(e.state)
	if err == nil || !strings.Contains(err.Error(), "another version") {
		t.Errorf("Recover = %v; want the other version's journal reported", err)
	}
	if _, err := os.Stat(newer); err != nil {
		t.Errorf("the other version's journal was removed: %v", err)
	}
	if _, err := os.Stat(torn); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the torn journal was left: %v", err)
	}
}
