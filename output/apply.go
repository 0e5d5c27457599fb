package output

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/output/internal/journal"
)

// Result counts what Apply did.
type Result struct {
	Added, Updated, Removed, Unchanged, Adopted int
	DirsCreated, DirsRemoved                    int
	TempsRemoved                                int // left by an interrupted build
	// Superseded: nothing was written, as Options.Superseded said the
	// tree is older than its inputs.
	Superseded bool
}

// writers is how many files Apply writes at once in a large tree; a small
// one is written by one goroutine.
const (
	writers     = 8
	fewToWrite  = 64
	defaultWait = 10 * time.Second
)

// Apply carries out the plan. If the plan has any problem it returns a
// *ProblemError and writes nothing; a problem another build's writes may
// have caused (a file it wrote after the plan read the record) is checked
// again under the lock first, and the root planned again when the record
// changed. Otherwise, holding the root's lock (lockState: in its state
// directory, never on the output root itself), and planning again under
// it when the ownership record or a planned path changed since Plan
// (another build wrote the root), it:
//
//  1. writes a journal holding the root's intent record: every path it
//     may write with both its old and its new content, every directory it
//     will create and every temporary file it will write, so that a build
//     killed at any point leaves what Recover needs to own everything on
//     disk;
//  2. removes the temporary files an interrupted build recorded;
//  3. creates missing directories and writes each added or updated file
//     to its temporary name;
//  4. makes the journal, the new directories and the temporary files
//     durable (an fsync of each; see syncEach), then renames every
//     temporary file over its target, each directory's index.txt last;
//  5. removes the files it wrote earlier and no longer produces, and the
//     directories it created that are no longer needed and are empty;
//  6. writes the complete record and the machine-local stat cache (each
//     only when its bytes change).
//
// Then every directory whose entries changed is fsynced, the record is
// fsynced as written, and the journal removed. (A batch of ApplyAll that
// writes more than syncEachMax files flushes each filesystem once
// (syncfs) instead, before the renames, and does not flush the renames,
// removals and records: its journal stays until a later flush of every
// filesystem they are on, the next batch's or Flush, and is removed
// then.) If writing any temporary file
// fails (a full disk), nothing is published and the temporary files are
// removed; the root's record is then its intent. Apply is meant to be
// called once, soon after Plan; it closes the plan's directory handles.
// Every operation stays inside the root. ApplyAll does the same for
// several roots with one journal and one flush shared.
func (w *Writer) Apply(c *Changes) (Result, error) {
	rs, errs := w.ApplyAll([]*Changes{c})
	return rs[0], errs[0]
}

// ApplyAll applies the plans of several roots (each with its own lock and
// record) in phases: one journal per state directory holds every root's
// intent, every root's files are written to temporary names, one flush
// per filesystem makes them durable (one fsync each for a batch of
// syncEachMax files or fewer), every root's files are published and
// every root's record completed. A pipeline that applies its roots in
// batches of, say, 64 pays one flush and one journal per batch instead of
// per root. The result and error of cs[i] are at index i; one root's
// failure does not stop the others. Up to rootWorkers roots are worked on
// at once. Locks are taken one after the other in the order of cs and
// held until the end, so a batch must not hold two plans of one root, and
// callers that may run two batches of the same roots at once give them in
// one order (publish sorts them by device and inode): neither then waits
// on the other in a circle.
func (w *Writer) ApplyAll(cs []*Changes) ([]Result, []error) {
	as := make([]*applying, len(cs))
	for i, c := range cs {
		c.w = w
		as[i] = c.begin()
	}
	// The roots are locked one after the other in the order given, so
	// that two batches given the same roots in the same order never wait
	// on each other in a circle; the checks run on several at once.
	jls := lockJournals(as)
	for _, a := range as {
		if !a.done {
			a.openRoot()
		}
	}
	eachApplying(as, func(a *applying) {
		if !a.done {
			a.prepare()
		}
	})
	each := syncEach(as)
	for _, a := range as {
		a.c.syncEach = each
	}
	writeJournals(as, jls)
	eachApplying(as, func(a *applying) {
		if !a.done && a.mutate {
			a.stage()
		}
	})
	if each {
		syncBefore(as, jls)
	} else {
		w.flushAll(as, func(a *applying) bool { return len(a.todo) > 0 || len(a.c.mkdirs) > 0 })
	}
	eachApplying(as, func(a *applying) {
		if !a.done {
			if err := a.publishAll(); err != nil {
				a.fail(err)
			}
		}
	})
	if each {
		// Made durable file by file: the records are fsynced as
		// written, and then the directories of the renames and of
		// the records, so the journal can be removed at once. After
		// a syncfs the journal instead waits for the next one.
		eachRoot(len(as), func(i int) { as[i].record() })
		syncAfter(as)
	}
	rs, errs := make([]Result, len(as)), make([]error, len(as))
	eachRoot(len(as), func(i int) {
		a := as[i]
		if !each {
			a.record()
		}
		a.release()
		for _, l := range a.locks {
			l.Close() // the record is written
		}
		a.c.Close()
		rs[i], errs[i] = a.res, a.err
	})
	for _, jl := range jls {
		keep, durable := false, false
		for _, a := range as {
			if a.jl == jl && a.intent != nil {
				keep = keep || !a.recorded
				durable = durable || !a.c.opt.NoSync
			}
		}
		if durable && !keep && !each && jl.Name != "" {
			// Renames and records are not flushed yet: the journal
			// stays until a flush of every filesystem they are on.
			devs := map[uint64]*os.File{jl.Dev: jl.Dir}
			for _, a := range as {
				if _, ok := devs[a.dev]; !ok && a.jl == jl && a.intent != nil && a.dir != nil {
					devs[a.dev] = a.dir
				}
			}
			w.retire(jl, devs, journalHooks(as, jl))
			keep = true
		}
		jl.Close(keep)
	}
	// The roots go last: a retired journal keeps a handle on their
	// filesystems.
	for _, a := range as {
		if a.dir != nil {
			a.dir.Close()
		}
	}
	return rs, errs
}

// rootWorkers is how many roots of a batch ApplyAll works on at once:
// most of a small root's cost is in the kernel (creating, renaming and
// stat'ing files), which runs on every core.
const rootWorkers = 4

// eachRoot runs do(0) to do(n-1), on up to rootWorkers goroutines when
// there are several roots.
func eachRoot(n int, do func(i int)) {
	if n <= 1 {
		for i := range n {
			do(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, rootWorkers) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				do(i)
			}
		})
	}
	wg.Wait()
}

// eachApplying runs do for every root of as, on up to rootWorkers
// goroutines (eachRoot): a panic in do fails that root alone
// (recoverBug).
func eachApplying(as []*applying, do func(a *applying)) {
	eachRoot(len(as), func(i int) {
		a := as[i]
		defer a.recoverBug()
		do(a)
	})
}

// record writes the root's record once its batch is done: complete when
// it was published, its intent when it failed after its journal was
// written. A panic here fails the root, whose journal then stays for
// Recover.
func (a *applying) record() {
	defer a.recoverBug()
	switch {
	case a.recorded:
	case !a.done:
		a.err = a.c.finish(a.mutate, a.todo)
		a.recorded = a.err == nil
	case a.intent != nil:
		// Failed after its journal was written: its record
		// becomes its intent, which owns whatever it left.
		_, err := a.c.writeState(a.c.recordFile(".rec"), a.intent, a.c.syncEach && !a.c.opt.NoSync, false, false)
		a.recorded = err == nil
	}
}

// applying is one root's Apply between its phases.
//
// The phases are ApplyAll's steps, which every root of a batch goes
// through together, in one order: begin, lockJournals, openRoot, prepare
// (and replan), writeJournals, stage, flush, publishAll, record. A root
// holds no phase of its own: it either takes part in the next step, or it
// is settled (done) and only its record and release remain. Its booleans
// are what a step needs to know of it, not where it is:
//
//   - done: the root is settled, its result and error final; every later
//     step but record skips it. Set, never cleared, when it finished
//     early (nothing to change: count; Options.Superseded: prepare) or
//     failed (any step, fail, recoverBug). Whether it failed is err.
//   - mutate: a property of the plan at hand: Apply changes something on
//     disk (a file, a directory to create, a temporary file to remove, a
//     missing root). Set by count in begin, and again for the plan a
//     replan makes. Steps with nothing to write skip a root without it:
//     the disk check in prepare, writeJournals, stage, the second flush;
//     record passes it to finish.
//   - recheck: a property of the plan at hand: its problems may be
//     another build's writes, to be checked again under the lock.
//     Set in begin; a root with problems and without it is done there.
//     While it is set the root may be settled by lockJournals (no state
//     directory) or prepare (no build wrote the root since); replan
//     clears it, as the plan it makes replaces the one whose problems
//     these were (and a new plan with problems is done).
//   - recorded: the root's record is as it should stay (written
//     complete, or as its intent after a failure; or, for a root settled
//     early, already up to date), so its journal need not hold its
//     intent: ApplyAll keeps a journal while a root that wrote an intent
//     there is not recorded. Set by count or prepare when they settle
//     the root, and by record once it wrote the record.
//
// intent is set by writeJournals (for a root that is not done and
// mutates) once the journal holds it; record writes it as the record of
// a root that failed after.
type applying struct {
	c       *Changes
	res     Result
	err     error
	done    bool     // settled: finished early, or failed (see above)
	dir     *os.File // the root, opened for writing
	dev     uint64   // the root's filesystem, 0 if unknown
	todo    []*pending
	touched map[string]bool // directories whose entries change
	mutate  bool            // the plan changes something on disk (see above)
	recheck bool            // the plan's problems are checked again under the lock (see above)
	jl      *journal.Lock   // the state directory's journal, locked by lockJournals
	// locks are the root's own lock (lockState), when its journal is
	// not in the root's own journal directory, and any other state
	// directory's lock it holds until its record is written.
	locks  []io.Closer
	intent []byte // the intent record, once in the journal
	// recorded: the record (complete, or the intent after a failure) is
	// written, so the journal no longer needs to hold the intent.
	recorded bool
}

// release closes the files still held open.
func (a *applying) release() {
	for _, pd := range a.todo {
		pd.release()
	}
}

func (a *applying) fail(err error) {
	a.c.dropTemps(a.todo)
	a.err, a.done = err, true
}

// begin counts the plan's changes and settles a root with nothing to
// change, which needs no lock and at most its stat cache refreshed. A plan
// with problems another build's writes can cause (a file or symlink it
// wrote since the plan read the record) is checked again under the lock.
func (c *Changes) begin() *applying {
	a := &applying{c: c, touched: map[string]bool{}}
	if err := c.Err(); err != nil {
		if c.r == nil || !c.mayBeStale() {
			a.err, a.done = err, true
			return a
		}
		a.recheck = true
		return a
	}
	a.count()
	return a
}

// count counts the plan's changes, and settles a root with nothing to
// change.
func (a *applying) count() {
	c := a.c
	a.res, a.mutate = Result{}, false
	for _, ch := range c.List {
		switch ch.Kind {
		case Unchanged:
			a.res.Unchanged++
		case Adopt:
			a.res.Adopted++
		default:
			a.mutate = true
		}
	}
	a.mutate = a.mutate || len(c.mkdirs) > 0 || len(c.temps) > 0 || c.rootMissing
	if !a.mutate && len(c.pruneCandidates()) == 0 && c.recExists && c.v1 == "" && bytes.Equal(c.next.Marshal(), c.rec.Marshal()) {
		a.err, a.done, a.recorded = c.finish(false, nil), true, true
	}
}

// openRoot opens the root when Plan found it missing, and opens the root
// itself as the base of every write.
func (a *applying) openRoot() {
	c := a.c
	if c.r == nil {
		r, _, err := c.openRoot(true, confined.Pin)
		if err == nil && r == nil {
			err = c.Err() // the root changed since Plan
		}
		if err != nil {
			a.err, a.done = err, true
			return
		}
		c.r = r
	}
	var err error
	if a.dir, err = c.r.OpenSelf(); err != nil {
		a.err, a.done = fmt.Errorf("%s: %w", c.Root, confined.UnwrapPath(err)), true
		return
	}
	c.r.SetWriteRoot(a.dir)
	fi, err := a.dir.Stat()
	if err != nil {
		a.err, a.done = fmt.Errorf("%s: %w", c.Root, confined.UnwrapPath(err)), true
		return
	}
	st := confined.StatOf(fi)
	a.dev = st.Dev
	a.lockOutput(st.Dev, st.Ino)
}

// prepare, holding the root's lock, checks that neither its record nor a
// planned path changed since Plan; when one did, it plans again.
func (a *applying) prepare() {
	c := a.c
	if c.opt.Superseded != nil && c.opt.Superseded() {
		a.res, a.err, a.done, a.recorded = Result{Superseded: true}, nil, true, true
		return
	}
	// Another build of this root (with this state directory, or
	// another one) may have written it since the plan: the plan is made
	// again under the lock, from what that build left.
	stale := c.checkRecord() != nil || a.mutate && c.checkDisk() != nil
	if a.recheck && !stale {
		// No build wrote the root since the plan. A build killed since
		// this one's Recover may have: what its journal names is owned
		// as Recover would make it owned.
		j := journal.DeadIntents(c.opt.StateDir, c.name, c.opt.Journals, c.opt.hooks.opening)
		if j == nil {
			a.err, a.done = c.Err(), true // the problems stand
			return
		}
		c.opt.Journals, stale = j, true
	}
	if stale {
		if err := a.replan(); err != nil {
			a.fail(err)
			return
		}
		if a.done {
			return
		}
	}
	for i := range c.List {
		if ch := &c.List[i]; ch.Kind == Add || ch.Kind == Update {
			a.todo = append(a.todo, &pending{ch: ch, tmp: tempName()})
			if ch.Kind == Add {
				a.res.Added++
			} else {
				a.res.Updated++
			}
		}
	}
}

// finish writes the complete record, when it changed, and the stat cache.
func (c *Changes) finish(mutate bool, todo []*pending) error {
	recStat := c.recStat
	if next := c.next.Marshal(); mutate || !c.recExists || !bytes.Equal(next, c.rec.Marshal()) {
		st, err := c.writeState(c.recordFile(".rec"), next, c.syncEach && mutate && !c.opt.NoSync, false, true)
		if err != nil {
			return err
		}
		recStat = st
	}
	if c.v1 != "" {
		if err := statedir.Remove(c.v1); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state directory: %w", err)
		}
	}
	stats := map[string]confined.Info{}
	for _, pd := range todo {
		if pd.statOK {
			stats[pd.ch.Path] = pd.stat
		}
	}
	for p := range c.next.Files {
		if _, ok := stats[p]; !ok {
			st, ok := c.stats[p]
			if !ok {
				return nil // not every output was seen: no cache
			}
			stats[p] = st
		}
	}
	return c.saveCache(recStat, stats)
}
