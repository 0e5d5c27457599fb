package output

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/discgen/discgen/confined"
	"github.com/discgen/discgen/internal/hostlimits"
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

// Temporary files are named ".htdiscgen-" + 16 hex digits + ".tmp" and
// live in the directory of the file they replace (a rename publishes
// them, so they must be on its filesystem, and inside the root). A build
// killed before its renames leaves them in a directory a web server
// publishes until the next build removes them, so they are kept from
// being served two ways:
//
//   - Mode 0000 from creation (on Unix): no process but root can open
//     them, so a server whose workers are not root (nginx's and Apache's
//     never are; Caddy as a system service is not either) answers 403
//     whatever its configuration. On Linux the file gets its mode on its
//     open descriptor right before its rename, so only a kill in that
//     instant leaves a readable one; a file closed once written (beyond
//     heldMax open at once, and everywhere outside Linux) gets it then.
//   - A name beginning ".ht", which Apache's stock configuration refuses
//     (httpd.conf: <Files ".ht*"> Require all denied; Debian's
//     apache2.conf: <FilesMatch "^\.ht">), even to a reader that could
//     open the file. nginx and Caddy refuse no name by default (not even
//     dotfiles): for them the mode is what counts.
//
// Before this scheme they were named ".discgen-" + 16 hex digits + ".tmp";
// records of earlier builds may still list such names, which are removed
// the same way.
const (
	tempPrefix    = ".htdiscgen-"
	oldTempPrefix = ".discgen-"
	tempSuffix    = ".tmp"
)

func tempName() string { return tempPrefix + randomHex() + tempSuffix }

// randomHex is 16 random hex digits.
func randomHex() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// isTempName reports whether name has the form of discgen's temporary
// files. Only those listed in an interrupted build's record are removed.
func isTempName(name string) bool {
	x, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		if x, ok = strings.CutPrefix(name, oldTempPrefix); !ok {
			return false
		}
	}
	x, ok = strings.CutSuffix(x, tempSuffix)
	if !ok || len(x) != 16 {
		return false
	}
	_, err := hex.DecodeString(x)
	return err == nil
}

// testHook, when set by a test, is called before each step of Apply on a
// file ("write" once its temporary file holds the bytes, "rename" before
// publishing it); an error it returns fails that step.
var testHook func(step, p string) error

func hook(step, p string) error {
	if testHook == nil {
		return nil
	}
	return testHook(step, p)
}

// pending is one file written to its temporary name and not yet published.
type pending struct {
	ch       *Change
	tmp      string        // base name of the temporary file
	created  bool          // the temporary file exists
	f        confined.File // the temporary file, kept open until its rename
	held     bool          // f is open
	perm     fs.FileMode
	renamed  bool
	stat     confined.Info
	statOK   bool
	writeErr error
}

// Apply carries out the plan. If the plan has any problem it returns a
// *ProblemError and writes nothing; a problem another build's writes may
// have caused (a file it wrote after the plan read the record) is checked
// again under the lock first, and the root planned again when the record
// changed. Otherwise, holding the output root's lock (and planning again
// under it when the ownership record or a planned path changed since
// Plan: another build wrote the root), it:
//
//  1. writes a journal holding the root's intent record: every path it
//     may write with both its old and its new content, every directory it
//     will create and every temporary file it will write, so that a build
//     killed at any point leaves what Recover needs to own everything on
//     disk;
//  2. removes the temporary files an interrupted build recorded;
//  3. creates missing directories and writes each added or updated file
//     to its temporary name;
//  4. flushes the filesystem once (syncfs), then renames every temporary
//     file over its target, each directory's index.txt last;
//  5. removes the files it wrote earlier and no longer produces, and the
//     directories it created that are no longer needed and are empty;
//  6. writes the complete record and the machine-local stat cache (each
//     only when its bytes change).
//
// On Linux the renames, removals and records are not flushed by Apply:
// the journal stays until a later flush of every filesystem they are on
// (the next Apply's, or Flush) has put them on disk, and is removed then.
// Elsewhere a second flush follows the renames, the record is fsynced as
// written and the journal removed at once. If writing any temporary file
// fails (a full disk), nothing is published and the temporary files are
// removed; the root's record is then its intent. Apply is meant to be
// called once, soon after Plan; it closes the plan's directory handles.
// Every operation stays inside the root. ApplyAll does the same for
// several roots with one journal and one flush shared.
func (c *Changes) Apply() (Result, error) {
	rs, errs := ApplyAll([]*Changes{c})
	return rs[0], errs[0]
}

// ApplyAll applies the plans of several roots (each with its own lock and
// record) in phases: one journal per state directory holds every root's
// intent, every root's files are written to temporary names, one flush
// per filesystem makes them durable, every root's files are published and
// every root's record completed. A pipeline that applies its roots in
// batches of, say, 64 pays one flush and one journal per batch instead of
// per root. The result and error of cs[i] are at index i; one root's
// failure does not stop the others. Up to rootWorkers roots are worked on
// at once. Locks are taken one after the other in the order of cs and
// held until the end, so a batch must not hold two plans of one root, and
// callers that may run two batches of the same roots at once give them in
// one order (publish sorts them by device and inode): neither then waits
// on the other in a circle.
func ApplyAll(cs []*Changes) ([]Result, []error) {
	setHeldMax()
	as := make([]*applying, len(cs))
	for i, c := range cs {
		as[i] = c.begin()
	}
	jls := lockJournals(as)
	// The roots are locked one after the other in the order given, so
	// that two batches given the same roots in the same order never wait
	// on each other in a circle; the checks run on several at once.
	for _, a := range as {
		if !a.done {
			a.lockRoot()
		}
	}
	eachRoot(len(as), func(i int) {
		if a := as[i]; !a.done {
			a.prepare()
		}
	})
	writeJournals(as, jls)
	eachRoot(len(as), func(i int) {
		if a := as[i]; !a.done && a.mutate {
			a.stage()
		}
	})
	flushAll(as, func(a *applying) bool { return len(a.todo) > 0 || len(a.c.mkdirs) > 0 }, true)
	eachRoot(len(as), func(i int) {
		if a := as[i]; !a.done {
			if err := a.publishAll(); err != nil {
				a.fail(err)
			}
		}
	})
	if confined.SyncDirs {
		// Outside Linux the records are fsynced as written and the
		// journal removed at once: the renames must be durable first.
		// On Linux the journal instead waits for the next flush.
		flushAll(as, func(a *applying) bool { return a.mutate }, false)
	}
	rs, errs := make([]Result, len(as)), make([]error, len(as))
	eachRoot(len(as), func(i int) {
		a := as[i]
		switch {
		case a.recorded:
		case !a.done:
			a.err = a.c.finish(a.mutate, a.todo)
			a.recorded = a.err == nil
		case a.intent != nil:
			// Failed after its journal was written: its record
			// becomes its intent, which owns whatever it left.
			_, err := a.c.writeState(a.c.recordFile(".rec"), a.intent, confined.SyncDirs && !a.c.opt.NoSync, false, false)
			a.recorded = err == nil
		}
		a.release()
		if a.own != nil {
			a.own() // the record is written
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
		if durable && !keep && !confined.SyncDirs && jl.file != "" {
			// Renames and records are not flushed yet: the journal
			// stays until a flush of every filesystem they are on.
			devs := map[uint64]*os.File{jl.dev: jl.f}
			for _, a := range as {
				if _, ok := devs[a.dev]; !ok && a.jl == jl && a.intent != nil && a.lock != nil {
					devs[a.dev] = a.lock
				}
			}
			retire(jl, devs)
			keep = true
		}
		jl.close(keep)
	}
	// The roots' locks go last: a retired journal keeps a handle on
	// their filesystems.
	for _, a := range as {
		if a.lock != nil {
			a.lock.Close()
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

// applying is one root's Apply between its phases.
type applying struct {
	c       *Changes
	res     Result
	err     error
	done    bool     // finished early, or failed
	lock    *os.File // the root, locked
	dev     uint64   // the root's filesystem, 0 if unknown
	todo    []*pending
	touched map[string]bool // directories whose entries change
	mutate  bool
	writes  bool         // the record is written: the journal is locked
	recheck bool         // problems to check again under the lock
	jl      *journalLock // the state directory's journal, when writes
	// own is StateDir's journal directory, locked shared, when the
	// journal is another state directory's (Options.JournalDir).
	own    func()
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

// heldFiles counts the written files kept open until their rename, up to
// heldMax in the whole process; beyond, a file is closed once written and
// stat'ed by name after its rename.
var heldFiles atomic.Int64

// heldMax is maxHeld, or a quarter of the open-file limit when that is
// less, read again when a batch begins.
var heldMax atomic.Int64

const maxHeld = 512

func setHeldMax() {
	n := int64(maxHeld)
	if l := hostlimits.OpenFiles(); l > 0 {
		n = min(n, int64(l/4))
	}
	heldMax.Store(n)
}

func (pd *pending) release() {
	if pd.held {
		pd.f.Close()
		pd.held = false
		heldFiles.Add(-1)
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
		a.recheck, a.writes = true, true
		return a
	}
	if a.count(); !a.done {
		a.writes = true
	}
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
	if !a.mutate && len(c.pruneCandidates()) == 0 && c.recExists && c.v1 == "" && bytes.Equal(c.next.marshal(), c.rec.marshal()) {
		a.err, a.done, a.recorded = c.finish(false, nil), true, true
	}
}

// mayBeStale reports whether a problem of the plan can come from another
// build writing the root between the plan's read of the record and its
// look at the disk: what that build wrote looks like someone else's.
func (c *Changes) mayBeStale() bool {
	for _, p := range c.Problems {
		switch p.Kind {
		case Symlink, Foreign, Modified, NotDirectory, NotRegular:
			return true
		}
	}
	return false
}

// replan plans the root again, holding its lock, from what another build
// left since the first plan: the root handle is kept, the rest of the old
// plan closed. A new plan with problems fails the root; they are not
// another build's.
func (a *applying) replan() error {
	c := a.c
	opt := c.opt
	opt.Dir = c.r.OS()
	n, err := Plan(c.Root, c.t, opt)
	if err != nil {
		return err
	}
	n.opt.Dir = c.opt.Dir
	c.r.CloseDirs()
	n.r.SetOwn(c.opt.Dir == nil)
	*c = *n
	c.r.SetWriteRoot(a.lock)
	a.recheck = false
	if err := c.Err(); err != nil {
		a.err, a.done = err, true
		return nil
	}
	a.count()
	return nil
}

// lockJournals locks, shared, the journal directory of each state
// directory whose records the batch writes, before any record is checked,
// so that Recover cannot change a record between its check and its
// replacement. A root whose journal directory cannot be locked fails.
func lockJournals(as []*applying) []*journalLock {
	var jls []*journalLock
	for _, a := range as {
		if a.done || !a.writes {
			continue
		}
		if a.recheck {
			// Without a state directory no build of this state has
			// written the root: the problems stand, and none is
			// created.
			if !confined.Exists(a.c.opt.StateDir) {
				a.err, a.done = a.c.Err(), true
				continue
			}
		}
		wait := cmp.Or(a.c.opt.LockWait, defaultWait)
		jdir := cmp.Or(a.c.opt.JournalDir, a.c.opt.StateDir)
		for _, jl := range jls {
			if jl.stateDir == jdir {
				a.jl = jl
				break
			}
		}
		if a.jl == nil {
			a.jl = lockJournal(jdir, wait)
			jls = append(jls, a.jl)
		}
		if a.jl.err != nil {
			a.err, a.done = a.jl.err, true
			continue
		}
		if jdir != a.c.opt.StateDir {
			own, err := confined.LockShared(filepath.Join(a.c.opt.StateDir, journalDir), wait)
			if err != nil {
				a.err, a.done = err, true
				continue
			}
			a.own = own
		}
	}
	return jls
}

// writeJournals writes, for each state directory, the intents of the
// roots about to change into one journal. It is flushed on its own only
// when a durable root lies on another filesystem than the state
// directory; otherwise the first flush covers it. A root whose journal
// cannot be written fails with nothing changed.
func writeJournals(as []*applying, jls []*journalLock) {
	for _, jl := range jls {
		var intents [][]byte
		sync := false
		for _, a := range as {
			if a.jl != jl || a.done || !a.mutate {
				continue
			}
			a.intent = a.c.intent(a.todo).marshal()
			intents = append(intents, a.intent)
			sync = sync || !a.c.opt.NoSync && (a.dev == 0 || a.dev != jl.dev)
		}
		if len(intents) == 0 {
			continue
		}
		if err := jl.write(intents, sync); err != nil {
			for _, a := range as {
				if a.jl == jl && a.intent != nil {
					a.intent = nil
					a.fail(err)
				}
			}
		}
	}
}

// lockRoot opens the root when Plan found it missing, and takes its lock.
func (a *applying) lockRoot() {
	c := a.c
	if c.r == nil {
		r, _, err := c.openRoot(true)
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
	if a.lock, err = c.lock(); err != nil {
		a.err, a.done = err, true
		return
	}
	c.r.SetWriteRoot(a.lock)
	if fi, err := a.lock.Stat(); err == nil {
		a.dev = confined.StatOf(fi).Dev
	}
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
		j := deadIntents(c.opt.StateDir, c.name, c.opt.Journals)
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

// stage does everything between the journal and the first flush:
// temporary files of an interrupted build, directories and temporary
// files.
func (a *applying) stage() {
	c := a.c
	for _, p := range c.temps {
		if dr, err := c.r.WriteDir(parent(p)); err == nil {
			if dr.Remove(path.Base(p)) == nil {
				a.res.TempsRemoved++
			}
			c.r.Done(dr)
		}
	}
	for _, d := range c.mkdirs {
		if err := c.mkdir(d); err != nil {
			a.fail(err)
			return
		}
		a.res.DirsCreated++
	}
	for _, pd := range a.todo {
		a.touched[parent(pd.ch.Path)] = true
	}
	if err := c.writeTemps(a.todo); err != nil {
		a.fail(err)
	}
}

// publishAll renames the temporary files into place, each directory's
// index.txt after every file it lists, then removes stale files and
// directories.
func (a *applying) publishAll() error {
	c := a.c
	// By directory (several at once in a large tree), index.txt last.
	groups := byDir(a.todo, 0)
	err := c.parallel(len(a.todo), len(groups), func(i int) error {
		g := groups[i]
		slices.SortStableFunc(g, func(x, y *pending) int {
			return cmp.Compare(isIndex(x.ch.Path), isIndex(y.ch.Path))
		})
		d := parent(g[0].ch.Path)
		dr, err := c.r.WriteDir(d)
		if err != nil {
			return fmt.Errorf("%s: cannot publish: %w", c.file(d), confined.UnwrapPath(err))
		}
		defer c.r.Done(dr)
		for _, pd := range g {
			if err := c.publish(dr, pd); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var removes []string
	for _, ch := range c.List {
		if ch.Kind == Remove {
			removes = append(removes, ch.Path)
		}
	}
	for _, g := range groupByDir(removes) {
		if err := c.removeFiles(g); err != nil {
			return err
		}
		a.touched[parent(g[0])] = true
		a.res.Removed += len(g)
	}
	a.res.DirsRemoved = c.pruneDirs(a.touched)
	return nil
}

// removeFiles removes the files g of one directory, which Plan found to
// be discgen's. A file or directory already gone is not an error.
func (c *Changes) removeFiles(g []string) error {
	d := parent(g[0])
	dr, err := c.r.WriteDir(d)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: cannot remove: %w", c.file(g[0]), confined.UnwrapPath(err))
	}
	defer c.r.Done(dr)
	for _, p := range g {
		if err := dr.Remove(path.Base(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: cannot remove: %w", c.file(p), confined.UnwrapPath(err))
		}
	}
	return nil
}

// byDir groups the pending files by directory, in order of directory,
// at most size in a group (0: no bound).
func byDir(todo []*pending, size int) [][]*pending {
	m := map[string][]*pending{}
	for _, pd := range todo {
		d := parent(pd.ch.Path)
		m[d] = append(m[d], pd)
	}
	var gs [][]*pending
	for _, d := range slices.Sorted(maps.Keys(m)) {
		g := m[d]
		for size > 0 && len(g) > size {
			gs = append(gs, g[:size:size])
			g = g[size:]
		}
		gs = append(gs, g)
	}
	return gs
}

// flushAll flushes, once per filesystem, the roots still going that need
// it and are durable. A failed first flush (before publishing) fails those
// roots with nothing published.
func flushAll(as []*applying, need func(*applying) bool, first bool) {
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
			locks = append(locks, a.lock)
		}
		n := flushStarting(dev)
		err := confined.FlushFS(locks, nil)
		for _, a := range g {
			if err == nil && confined.SyncDirs {
				err = a.c.syncTouched(a.touched)
			}
		}
		if err == nil && dev != 0 {
			flushDone(dev, n)
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

// finish writes the complete record, when it changed, and the stat cache.
func (c *Changes) finish(mutate bool, todo []*pending) error {
	recStat := c.recStat
	if next := c.next.marshal(); mutate || !c.recExists || !bytes.Equal(next, c.rec.marshal()) {
		st, err := c.writeState(c.recordFile(".rec"), next, confined.SyncDirs && mutate && !c.opt.NoSync, false, true)
		if err != nil {
			return err
		}
		recStat = st
	}
	if c.v1 != "" {
		if err := confined.Remove(c.v1); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state directory: %w", err)
		}
	}
	stats := map[string]confined.Info{}
	for _, pd := range todo {
		if pd.statOK {
			stats[pd.ch.Path] = pd.stat
		}
	}
	for p := range c.next.files {
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

// lock opens the output root itself and takes its lock, so that builds of
// one root never interleave whatever state directory each uses. It waits
// up to Options.LockWait for another build to finish.
func (c *Changes) lock() (*os.File, error) {
	f, err := c.r.OpenSelf()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Root, confined.UnwrapPath(err))
	}
	wait := cmp.Or(c.opt.LockWait, defaultWait)
	switch busy, err := confined.WaitLock(f, confined.TryLock, wait); {
	case err != nil:
		f.Close()
		return nil, fmt.Errorf("%s: cannot lock the output root: %w", c.Root, err)
	case busy:
		f.Close()
		return nil, fmt.Errorf("%s: another build is writing this output root (still locked after %v); run the build again when it has finished", c.Root, wait)
	}
	return f, nil
}

// checkRecord refuses a plan whose record another build changed since.
func (c *Changes) checkRecord() error {
	st, err := confined.Lstat(c.recordFile(".rec"))
	switch {
	case errors.Is(err, fs.ErrNotExist) && !c.recExists:
		return nil
	case err == nil && c.recExists && st.Same(c.recStat):
		return nil
	}
	return fmt.Errorf("%s: another build wrote this output since it was planned; run the build again", c.Root)
}

// checkDisk refuses a plan when a path it inspected changed since, so
// that a build planned before another one (with another state
// directory) finished cannot mix its files into the other's.
func (c *Changes) checkDisk() error {
	var paths []string
	for _, ch := range c.List {
		paths = append(paths, ch.Path)
	}
	for _, g := range groupByDir(paths) {
		if err := c.checkDiskGroup(g); err != nil {
			return err
		}
	}
	return nil
}

// checkDiskGroup is checkDisk for the paths g of one directory.
func (c *Changes) checkDiskGroup(g []string) error {
	dr, err := c.r.WriteDir(parent(g[0]))
	if errors.Is(err, fs.ErrNotExist) {
		return nil // a missing directory holds nothing yet
	}
	if confined.IsNotDir(err) {
		// Planned as a directory or as missing, now a symlink or a
		// file: not followed.
		return fmt.Errorf("%s: changed on disk since this build planned it (now not a directory); run the build again", c.file(parent(g[0])))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", c.file(parent(g[0])), confined.UnwrapPath(err))
	}
	defer c.r.Done(dr)
	for _, p := range g {
		fst, err := dr.Lstat(path.Base(p))
		st, seen := c.stats[p]
		switch {
		case errors.Is(err, fs.ErrNotExist) && !seen:
			continue
		case err == nil && seen && fst.Same(st):
			continue
		}
		return fmt.Errorf("%s: changed on disk since this build planned it (another build may be writing the output root); run the build again", c.file(p))
	}
	return nil
}

// mkdir creates the slash directory d, whose parent exists, and gives it
// to Options.Owner.
func (c *Changes) mkdir(d string) error {
	pr, err := c.r.WriteDir(parent(d))
	if err == nil {
		err = pr.Mkdir(path.Base(d))
		if err == nil && c.opt.Owner != nil {
			err = pr.Lchown(path.Base(d), c.opt.Owner.UID, c.opt.Owner.GID)
		}
		c.r.Done(pr)
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("%s: cannot create directory: %w", c.file(d), confined.UnwrapPath(err))
	}
	return nil
}

// intent is the record written before the first change: everything the old
// record owns, every directory about to be created, for each path about to
// be written its current and its new content, and the temporary files.
func (c *Changes) intent(todo []*pending) *record {
	in := newRecord(c.name)
	in.complete = false
	for p, ss := range c.rec.files {
		in.files[p] = slices.Clone(ss)
	}
	for d := range c.rec.dirs {
		in.dirs[d] = true
	}
	for _, d := range c.mkdirs {
		in.dirs[d] = true
	}
	for _, ch := range c.List {
		if ch.New != nil {
			in.addSum(ch.Path, entrySum(*ch.New))
		}
		if s, ok := c.cur[ch.Path]; ok {
			in.addSum(ch.Path, s)
		}
	}
	// Temporary files an earlier interrupted build left stay listed
	// until this build has removed them.
	in.temps = slices.Clone(c.temps)
	for _, pd := range todo {
		in.temps = append(in.temps, path.Join(parent(pd.ch.Path), pd.tmp))
	}
	return in
}

// writeTemps writes every pending file to its temporary name, a
// directory's files (up to writeGroup of them) through one open of it.
func (c *Changes) writeTemps(todo []*pending) error {
	groups := byDir(todo, writeGroup)
	return c.parallel(len(todo), len(groups), func(i int) error {
		g := groups[i]
		d := parent(g[0].ch.Path)
		dr, err := c.r.WriteDir(d)
		if err != nil {
			return fmt.Errorf("%s: %w", c.file(d), confined.UnwrapPath(err))
		}
		defer c.r.Done(dr)
		for _, pd := range g {
			if err := c.writeTemp(dr, pd); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeGroup bounds the files of one directory written by one writer, so
// that a large directory is still written by several at once.
const writeGroup = 64

// parallel runs do(0) to do(n-1) with a few concurrent workers when the
// files involved are many (size), in order on one goroutine otherwise. It
// stops handing out work after the first error and returns every error.
func (c *Changes) parallel(size, n int, do func(i int) error) error {
	if size <= fewToWrite {
		for i := range n {
			if err := do(i); err != nil {
				return err
			}
		}
		return nil
	}
	work := make(chan int)
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	for range writers {
		wg.Go(func() {
			for i := range work {
				if err := do(i); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		mu.Lock()
		failed := len(errs) > 0
		mu.Unlock()
		if failed {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	return errors.Join(errs...)
}

// writeTemp writes one file (or symlink) to its temporary name. A
// regular file stays open until its rename when confined.KeepOpen allows, for the
// stat the cache keeps.
func (c *Changes) writeTemp(dr confined.WriteDir, pd *pending) error {
	ch := pd.ch
	fail := func(err error) error {
		return fmt.Errorf("%s: cannot write: %w", c.file(ch.Path), confined.UnwrapPath(err))
	}
	if ch.New.Link != "" {
		if err := dr.Symlink(ch.New.Link, pd.tmp); err != nil {
			return fail(err)
		}
		pd.created = true
		if o := c.opt.Owner; o != nil {
			if err := dr.Lchown(pd.tmp, o.UID, o.GID); err != nil {
				return fail(err)
			}
		}
		return fail2(hook("write", ch.Path), fail)
	}
	pd.perm = fs.FileMode(0o644)
	if ch.Old != nil && ch.Old.Link == "" && ch.oldPerm != 0 {
		pd.perm = ch.oldPerm
	}
	f, err := dr.Create(pd.tmp, confined.TempPerm(pd.perm))
	if err != nil {
		return fail(err)
	}
	pd.created = true
	err = f.Write(ch.New.Data)
	if err == nil {
		err = hook("write", ch.Path)
	}
	if o := c.opt.Owner; err == nil && o != nil {
		err = f.Chown(o.UID, o.GID)
	}
	if err == nil && !c.opt.NoSync {
		err = f.Writeback()
	}
	if err == nil && confined.KeepOpen && heldFiles.Add(1) <= heldMax.Load() {
		pd.f, pd.held = f, true
		return nil
	}
	if confined.KeepOpen && err == nil {
		heldFiles.Add(-1)
	}
	if err == nil {
		// Closed now: give it its mode before publishing.
		_, err = f.Stat(pd.perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// isIndex is 1 for an autodisc index.txt, which lists the files beside it,
// and 0 for any other path.
func isIndex(p string) int {
	if path.Base(p) == "index.txt" {
		return 1
	}
	return 0
}

func fail2(err error, fail func(error) error) error {
	if err != nil {
		return fail(err)
	}
	return nil
}

// publish renames a temporary file over its target, then takes the stat
// the cache keeps (the rename changes the change time): on the file still
// open, or by name. The umask may have narrowed the mode at creation; the
// file gets exactly its mode.
func (c *Changes) publish(dr confined.WriteDir, pd *pending) error {
	ch, name := pd.ch, path.Base(pd.ch.Path)
	err := hook("rename", ch.Path)
	if err == nil && pd.held {
		// Readable from now: its mode, on its descriptor, then the
		// rename. (A file closed early got its mode before closing.)
		err = pd.f.Chmod(pd.perm)
	}
	if err == nil {
		err = dr.Rename(pd.tmp, name)
	}
	if err != nil {
		return fmt.Errorf("%s: cannot publish: %w", c.file(ch.Path), confined.UnwrapPath(err))
	}
	pd.renamed = true
	var st confined.Info
	if pd.held {
		st, err = pd.f.Stat(pd.perm)
		pd.release()
	} else {
		st, err = dr.Lstat(name)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", c.file(ch.Path), confined.UnwrapPath(err))
	}
	pd.stat, pd.statOK = st, true
	return nil
}

// dropTemps removes the temporary files not yet published, after a
// failure.
func (c *Changes) dropTemps(todo []*pending) {
	for _, g := range byDir(todo, 0) {
		dr, err := c.r.WriteDir(parent(g[0].ch.Path))
		for _, pd := range g {
			pd.release()
			if err == nil && pd.created && !pd.renamed {
				dr.Remove(pd.tmp)
			}
		}
		if err == nil {
			c.r.Done(dr)
		}
	}
}

// pruneDirs removes the directories discgen created that no tree path
// needs any more, deepest first, when they are empty. A directory that
// still holds someone else's file stays, and stays discgen's, so a later
// build removes it once it is empty.
func (c *Changes) pruneDirs(touched map[string]bool) int {
	cands := c.pruneCandidates()
	n := 0
	for _, d := range cands {
		if _, err := c.r.Dir(parent(d)); err != nil {
			continue
		}
		fi, err := c.r.Lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist), err == nil && !fi.IsDir():
			delete(c.next.dirs, d)
			continue
		case err != nil:
			continue
		}
		c.r.Forget(d)
		if c.r.Remove(d) == nil {
			delete(c.next.dirs, d)
			touched[parent(d)] = true
			n++
		}
	}
	return n
}

// pruneCandidates lists the directories discgen created that no tree path
// needs any more, deepest first.
func (c *Changes) pruneCandidates() []string {
	needed := map[string]bool{}
	for p := range c.t {
		for d := parent(p); d != ""; d = parent(d) {
			needed[d] = true
		}
	}
	var cands []string
	for d := range c.next.dirs {
		if !needed[d] {
			cands = append(cands, d)
		}
	}
	// Reverse lexical order puts every directory before its parent.
	slices.SortFunc(cands, func(a, b string) int { return strings.Compare(b, a) })
	return cands
}
