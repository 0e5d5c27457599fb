package output

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/hostlimits"
	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/output/internal/journal"
)

// A Writer applies plans (Apply, ApplyAll) and keeps what outlives one
// batch: the journals waiting for a flush, a directory on each filesystem
// written to, for Flush, and the count of written files held open. A
// build makes one, applies every batch with it, calls Flush at its end
// and Close; several goroutines may apply batches with one Writer at once.
//
// Journals wait for a flush. On Linux ApplyAll flushes a batch of more
// than syncEachMax files once (syncfs), before its renames: the renames,
// removals and complete records that follow are not flushed at once. A journal whose roots all have their
// records therefore waits in the Writer until, on every filesystem the
// batch changed (the roots' and the state directory's), a flush that
// started after those changes has returned: the next batch's, or Flush at
// the end of a build. A power loss before then leaves the journal, and
// Recover makes every root own both its old and its new bytes again,
// whichever of the renames and records reached the disk.
type Writer struct {
	mu      sync.Mutex
	started map[uint64]uint64   // flushes started, per filesystem
	handles map[uint64]*os.File // a directory on each filesystem, for Flush
	waiting []*retiredJournal

	// held counts the written files kept open until their rename, up
	// to heldMax (maxHeld, or a quarter of the open-file limit when that
	// is less); beyond, a file is closed once written and stat'ed by
	// name after its rename.
	held    atomic.Int64
	heldMax int64

	// privateDirs holds the directories of output-root locks found this
	// user's alone in this Writer's life (lockOutputRoot).
	privateDirs sync.Map
}

// NewWriter returns a Writer; the caller closes it.
func NewWriter() *Writer {
	w := &Writer{started: map[uint64]uint64{}, handles: map[uint64]*os.File{}, heldMax: maxHeld}
	if l := hostlimits.OpenFiles(); l > 0 {
		w.heldMax = min(w.heldMax, int64(l/4))
	}
	return w
}

// Close closes the Writer's directory handles. A journal still waiting
// for a flush (Flush was not called, or failed) is closed, which drops its
// lock, and left on disk for Recover.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range w.waiting {
		if r.f != nil {
			r.f.Close()
		}
	}
	w.waiting = nil
	for dev, h := range w.handles {
		h.Close()
		delete(w.handles, dev)
	}
	return nil
}

type retiredJournal struct {
	file  string   // OS path
	f     *os.File // the journal, open and locked until removed
	hooks hookSet  // its roots' hooks, told of the flushes it waits for
	// needs holds, for each filesystem still to flush, the number of
	// flushes started there when the journal was retired: a later one
	// covers it.
	needs map[uint64]uint64
}

// retire hands a journal whose records are written to the next flushes
// of the filesystems in devs, each with an open directory on it; hs are
// the hooks of the roots whose intents it holds (journalHooks).
func (w *Writer) retire(jl *journal.Lock, devs map[uint64]*os.File, hs hookSet) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := &retiredJournal{file: jl.Name, f: jl.Handle, hooks: hs, needs: map[uint64]uint64{}}
	jl.Handle = nil
	for dev, f := range devs {
		r.needs[dev] = w.started[dev]
		if w.handles[dev] == nil {
			if h, err := confined.ReopenDir(f); err == nil {
				w.handles[dev] = h
			}
		}
	}
	w.waiting = append(w.waiting, r)
}

// flushStarting numbers a flush of the filesystem dev about to start.
func (w *Writer) flushStarting(dev uint64) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.started[dev]++
	return w.started[dev]
}

// flushDone notes that flush n of dev returned, and removes the journals
// that no longer wait for any flush.
func (w *Writer) flushDone(dev, n uint64) {
	w.mu.Lock()
	var done []*retiredJournal
	w.waiting = slices.DeleteFunc(w.waiting, func(r *retiredJournal) bool {
		if after, ok := r.needs[dev]; ok && after < n {
			delete(r.needs, dev)
		}
		if len(r.needs) == 0 {
			done = append(done, r)
			return true
		}
		return false
	})
	w.mu.Unlock()
	// Removed, then unlocked: never dead while at its name.
	for _, r := range done {
		statedir.Remove(r.file)
		if r.f != nil {
			r.f.Close()
		}
	}
}

// Flush makes durable what earlier Apply and ApplyAll calls published and
// recorded, one flush per filesystem they changed, and removes the
// journals that waited for it. A build calls it once, at its end; until
// then, a power loss leaves those journals for Recover.
func (w *Writer) Flush() error {
	w.mu.Lock()
	var devs []uint64
	hs := map[uint64]hookSet{}
	for _, r := range w.waiting {
		for dev := range r.needs {
			if !slices.Contains(devs, dev) {
				devs = append(devs, dev)
			}
			for _, h := range r.hooks {
				hs[dev] = hs[dev].add(h)
			}
		}
	}
	handles := maps.Clone(w.handles)
	w.mu.Unlock()
	slices.Sort(devs)
	var errs []error
	for _, dev := range devs {
		f := handles[dev]
		if f == nil {
			errs = append(errs, errors.New("state directory: cannot flush to disk: no directory open on a filesystem written to"))
			continue
		}
		n := w.flushStarting(dev)
		if err := flushFS(hs[dev], []*os.File{f}); err != nil {
			errs = append(errs, fmt.Errorf("%s: cannot flush to disk: %w", f.Name(), err))
			continue
		}
		w.flushDone(dev, n)
	}
	return errors.Join(errs...)
}

// flushAll flushes, once per filesystem (syncfs), the roots still going
// that need it, before the renames of a batch not made durable file by
// file (syncEach): their journal, temporary files and new directories,
// and the journals that wait for a flush. A failed flush fails those
// roots with nothing published.
func (w *Writer) flushAll(as []*applying, need func(*applying) bool) {
	groups := map[uint64][]*applying{}
	var devs []uint64
	for _, a := range as {
		if a.done || a.c.opt.NoSync || !need(a) {
			continue
		}
		dev := a.dev
		if groups[dev] == nil {
			devs = append(devs, dev)
		}
		groups[dev] = append(groups[dev], a)
	}
	for _, dev := range devs {
		g := groups[dev]
		var locks []*os.File
		var hs hookSet
		for _, a := range g {
			locks = append(locks, a.dir)
			hs = hs.add(a.c.opt.hooks)
		}
		n := w.flushStarting(dev)
		err := flushFS(hs, locks)
		if err == nil && dev != 0 {
			w.flushDone(dev, n)
		}
		if err != nil {
			for _, a := range g {
				a.fail(fmt.Errorf("%s: cannot flush to disk: %w", a.c.Root, err))
			}
		}
	}
}

// syncEachMax is the most files and directories a batch may write and
// still be made durable file by file (syncEach), unless a test's hooks
// ask for a syncfs. An fsync costs about as
// much as writing the file it flushes, whatever else the filesystem
// holds; a syncfs costs a few milliseconds on a quiet filesystem, and on
// a busy one as much as every other process's unwritten data (a second
// for a GiB). A control panel's save of one tenant (a dozen files) is
// thus made durable in a few milliseconds however busy the disk, and a
// full build's batches of tens of tenants, hundreds of files, share one
// syncfs each, which costs less than their fsyncs (see BENCHMARKS.md).
const syncEachMax = 64

// syncEach reports whether the batch as, planned, is made durable file
// by file: an fsync of each file written, before its rename, and of each
// directory whose entries changed and each record, after, the journal
// removed once they are done; or, when it writes more than syncEachMax
// files and directories, by one syncfs per filesystem before the renames,
// the journal waiting for the next one (see Writer). Outside Linux there
// is no syncfs: every batch is made durable file by file.
func syncEach(as []*applying) bool {
	if confined.SyncDirs {
		return true
	}
	n := 0
	for _, a := range as {
		if !a.done && a.mutate && !a.c.opt.NoSync {
			if h := a.c.opt.hooks; h != nil && h.syncfs {
				return false
			}
			n += len(a.todo) + len(a.c.mkdirs)
		}
	}
	return n <= syncEachMax
}

// A batch made durable file by file (syncEach) fsyncs in two rounds,
// each running its fsyncs several at once (the disk takes them
// together): before the renames (syncBefore), the journal, its directory
// and each regular file written to its temporary name; after them and
// the records (syncAfter), each root and each directory whose entries
// changed, and the state directories the records were renamed into.
// A record itself is fsynced as written.

// syncJob is one fsync, for the root a, or for every root whose intent
// is in the journal jl.
type syncJob struct {
	a  *applying
	jl *journal.Lock
	do func() error
}

// runSyncJobs runs jobs, up to writers at once, and returns the error of
// each root that has one.
func runSyncJobs(as []*applying, jobs []syncJob) map[*applying]error {
	var (
		mu   sync.Mutex
		errs = map[*applying]error{}
	)
	run := func(j syncJob) {
		err := j.do()
		if err == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, a := range as {
			if a == j.a || j.jl != nil && a.jl == j.jl && a.intent != nil {
				if errs[a] == nil {
					errs[a] = err
				}
			}
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(jobs), writers) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(jobs); i = int(next.Add(1)) - 1 {
				run(jobs[i])
			}
		})
	}
	wg.Wait()
	return errs
}

// syncBefore makes durable, before the renames, the journals jls of a
// batch made durable file by file and what its roots still going wrote:
// each regular file written (outside Linux, each was fsynced as written;
// a symlink is its inode, which its directory's fsync covers). A root
// whose fsync fails fails with nothing published.
func syncBefore(as []*applying, jls []*journal.Lock) {
	var jobs []syncJob
	for _, jl := range jls {
		if jl.Handle == nil || !slices.ContainsFunc(as, func(a *applying) bool { return a.jl == jl && a.intent != nil && !a.c.opt.NoSync }) {
			continue
		}
		hs := journalHooks(as, jl)
		jobs = append(jobs, syncJob{jl: jl, do: func() error {
			hs.flushed("fsync", jl.Name)
			return jl.Handle.Sync()
		}}, syncJob{jl: jl, do: func() error {
			hs.flushed("fsync", jl.Dir.Name())
			return jl.Dir.Sync()
		}})
	}
	for _, a := range as {
		if a.done || a.c.opt.NoSync || confined.SyncDirs {
			continue
		}
		for _, pd := range a.todo {
			if pd.ch.New.Link == "" {
				jobs = append(jobs, syncJob{a: a, do: func() error {
					a.c.opt.hooks.flushed("fsync", a.c.file(pd.ch.Path))
					return a.c.syncTemp(pd)
				}})
			}
		}
	}
	for a, err := range runSyncJobs(as, jobs) {
		if !a.done {
			a.fail(fmt.Errorf("%s: cannot flush to disk: %w", a.c.Root, err))
		}
	}
}

// syncAfter makes durable, once the roots of a batch made durable file by
// file are published and their records written, each root and each
// directory whose entries changed (files renamed or removed there,
// directories created or pruned, an interrupted build's temporary files
// removed), and the state directories the records went into. A root whose
// fsync fails has that error, and its journal stays for Recover.
func syncAfter(as []*applying) {
	var jobs []syncJob
	for _, a := range as {
		c := a.c
		if c.opt.NoSync {
			continue
		}
		for _, d := range c.stateDirs {
			jobs = append(jobs, syncJob{a: a, do: func() error {
				c.opt.hooks.flushed("fsync", d)
				return statedir.SyncDir(d)
			}})
		}
		if a.done || !a.mutate {
			continue
		}
		dirs := map[string]bool{"": true}
		for d := range a.touched {
			dirs[d] = true
		}
		for _, d := range c.mkdirs {
			dirs[parent(d)], dirs[d] = true, true
		}
		for _, p := range c.temps {
			dirs[parent(p)] = true // an interrupted build's, removed
		}
		for _, d := range slices.Sorted(maps.Keys(dirs)) {
			jobs = append(jobs, syncJob{a: a, do: func() error { return c.syncDir(d) }})
		}
	}
	for a, err := range runSyncJobs(as, jobs) {
		a.err = fmt.Errorf("%s: cannot flush to disk: %w", a.c.Root, err)
		a.done, a.recorded = true, false
	}
}

// syncTemp fsyncs the temporary file of pd: through its descriptor while
// it is held open, or opened again in its directory.
func (c *Changes) syncTemp(pd *pending) error {
	if pd.held {
		return pd.f.Sync()
	}
	dr, err := c.r.WriteDir(parent(pd.ch.Path))
	if err != nil {
		return err
	}
	defer c.r.Done(dr)
	return dr.SyncFile(pd.tmp)
}

// syncDir fsyncs the directory d, the root itself when "": its entries.
// One that is gone (pruned) has none to flush.
func (c *Changes) syncDir(d string) error {
	dr, err := c.r.WriteDir(d)
	if err != nil {
		return nil
	}
	c.opt.hooks.flushed("fsync", c.file(d))
	err = dr.Sync()
	c.r.Done(dr)
	return err
}

// journalHooks is the hooks of the roots of as whose intents the
// journal jl holds.
func journalHooks(as []*applying, jl *journal.Lock) hookSet {
	var hs hookSet
	for _, a := range as {
		if a.jl == jl && a.intent != nil {
			hs = hs.add(a.c.opt.hooks)
		}
	}
	return hs
}

// flushFS is confined.FlushFS, told to hs: one syncfs of the
// filesystem of locks on Linux, an fsync of each of them elsewhere.
func flushFS(hs hookSet, locks []*os.File) error {
	for _, l := range locks {
		if !confined.SyncDirs {
			hs.flushed("syncfs", l.Name())
			break
		}
		hs.flushed("fsync", l.Name())
	}
	return confined.FlushFS(locks, nil)
}
