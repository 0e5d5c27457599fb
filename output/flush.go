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
)

// A Writer applies plans (Apply, ApplyAll) and keeps what outlives one
// batch: the journals waiting for a flush, a directory on each filesystem
// written to, for Flush, and the count of written files held open. A
// build makes one, applies every batch with it, calls Flush at its end
// and Close; several goroutines may apply batches with one Writer at once.
//
// Journals wait for a flush. On Linux ApplyAll flushes once per batch,
// before its renames: the renames, removals and complete records that
// follow are not flushed at once. A journal whose roots all have their
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
	file string   // OS path
	f    *os.File // the journal, open and locked until removed
	// needs holds, for each filesystem still to flush, the number of
	// flushes started there when the journal was retired: a later one
	// covers it.
	needs map[uint64]uint64
}

// retire hands a journal whose records are written to the next flushes
// of the filesystems in devs, each with an open directory on it.
func (w *Writer) retire(jl *journalLock, devs map[uint64]*os.File) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := &retiredJournal{file: jl.file, f: jl.jf, needs: map[uint64]uint64{}}
	jl.jf = nil
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
	for _, r := range w.waiting {
		for dev := range r.needs {
			if !slices.Contains(devs, dev) {
				devs = append(devs, dev)
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
		if err := confined.FlushFS([]*os.File{f}, nil); err != nil {
			errs = append(errs, fmt.Errorf("%s: cannot flush to disk: %w", f.Name(), err))
			continue
		}
		w.flushDone(dev, n)
	}
	return errors.Join(errs...)
}

// flushAll flushes, once per filesystem, the roots still going that need
// it and are durable. A failed first flush (before publishing) fails those
// roots with nothing published.
func (w *Writer) flushAll(as []*applying, need func(*applying) bool, first bool) {
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
		for _, a := range g {
			locks = append(locks, a.dir)
		}
		n := w.flushStarting(dev)
		err := confined.FlushFS(locks, nil)
		for _, a := range g {
			if err == nil && confined.SyncDirs {
				err = a.c.syncTouched(a.touched)
			}
		}
		if err == nil && dev != 0 {
			w.flushDone(dev, n)
		}
		if err != nil {
			for _, a := range g {
				err := fmt.Errorf("%s: cannot flush to disk: %w", a.c.Root, err)
				if first {
					a.fail(err)
				} else {
					a.err, a.done = err, true
				}
			}
		}
	}
}

// syncTouched flushes the entries of the directories in touched that
// still exist, one at a time (outside Linux; see flushFS).
func (c *Changes) syncTouched(touched map[string]bool) error {
	for _, d := range slices.Sorted(maps.Keys(touched)) {
		dr, err := c.r.WriteDir(d)
		if err != nil {
			continue
		}
		err = dr.Sync()
		c.r.Done(dr)
		if err != nil {
			return err
		}
	}
	return nil
}
