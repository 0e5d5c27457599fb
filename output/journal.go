package output

import (
	"cmp"
	"errors"
	"io"
	"path"
	"path/filepath"
	"slices"
	"time"

	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/output/internal/journal"
	"github.com/discgen/discgen/output/internal/record"
)

// A batch's journal and locks (package journal holds the journal, its
// format, its locks and recovery, and says how they keep a killed
// build's intents): the locks taken for a batch's roots before any
// record is checked (lockJournals, lockState), and the intents written
// before the first change (writeJournals, intent).

// lockJournals takes, before any record is checked, the locks of the
// batch's roots, in the order given: each root's own lock (lockState),
// and the journal directory of each state directory whose records the
// batch writes, shared, so that Recover cannot change a record between
// its check and its replacement. A root whose locks cannot be taken
// fails; one whose lock another user holds is deferred (DeferredError).
func lockJournals(as []*applying) []*journal.Lock {
	var jls []*journal.Lock
	for _, a := range as {
		if a.done {
			continue
		}
		if a.recheck {
			// Without a state directory no build of this state has
			// written the root: the problems stand, and none is
			// created.
			if !statedir.Exists(a.c.opt.StateDir) {
				a.err, a.done = a.c.Err(), true
				continue
			}
		}
		wait := cmp.Or(a.c.opt.LockWait, defaultWait)
		jdir := cmp.Or(a.c.opt.JournalDir, a.c.opt.StateDir)
		if record.IsRootState(a.c.opt.StateDir) && jdir == a.c.opt.StateDir {
			// The owner's build: its journal directory is the
			// root's own, and its exclusive lock the root's.
			a.jl = journal.Open(jdir, wait, true, a.c.Root)
			jls = append(jls, a.jl)
			if a.jl.Err != nil {
				a.err, a.done = a.jl.Err, true
			}
			continue
		}
		for _, jl := range jls {
			if jl.StateDir == jdir {
				a.jl = jl
				break
			}
		}
		if a.jl == nil {
			a.jl = journal.Open(jdir, wait, false, a.c.Root)
			jls = append(jls, a.jl)
		}
		if err := a.jl.Err; err != nil {
			var de *DeferredError
			if errors.As(err, &de) {
				err = &DeferredError{Root: a.c.Root}
			}
			a.err, a.done = err, true
			continue
		}
		locks, err := a.c.lockState(wait)
		if err != nil {
			a.err, a.done = err, true
			continue
		}
		a.locks = locks
	}
	return jls
}

// lockState takes the root's lock, which keeps two builds with the same
// state directory from writing the root at once, for a batch that
// journals elsewhere than the root's own journal directory. The lock is
// in the state directory, where only its users can open it, never on the
// output root itself, which any account may open:
//
//   - any root: the file journal/<SHA-256 of the record name>.lock in
//     its state directory, or, for a root with a state directory of its
//     own, in the batch's (Options.JournalDir): a journal directory of
//     mode 0700 (which the state directory's .gitignore already leaves
//     out), so that the builds journaling there, root's, wait for each
//     other on it, a bounded time;
//   - a root with a state directory of its own (RootStateDir), then also
//     its journal directory, exclusive, which the root's owner and root
//     may open, and which a build run as root therefore tries once: held
//     while root's own lock is, it is held by the owner's build (or by
//     a build of root's that does not take root's lock first, an earlier
//     version's).
//
// Beside a batch of roots with state directories of their own, the
// exclusive lock also keeps their owners' Recover from merging into the
// records the batch writes, as the journal directory's shared lock does
// for the build's own.
func (c *Changes) lockState(wait time.Duration) ([]io.Closer, error) {
	var locks []io.Closer
	fail := func(err error) ([]io.Closer, error) {
		for _, l := range locks {
			l.Close()
		}
		return nil, err
	}
	jdir := c.opt.StateDir
	if record.IsRootState(c.opt.StateDir) {
		jdir = c.opt.JournalDir // not the root's own: see lockJournals
	} else if c.opt.JournalDir != "" && c.opt.JournalDir != c.opt.StateDir {
		// The record's state directory is not the batch's: its
		// journal directory is held shared too, as the batch's is.
		dir := filepath.Join(c.opt.StateDir, record.JournalDir)
		f, err := journal.LockStateDir(dir, false, wait)
		if err != nil {
			return fail(journal.LockError(c.Root, dir, false, err))
		}
		locks = append(locks, f)
	}
	f, err := journal.RootLock(jdir, record.NameHash(c.name), record.IsRootState(c.opt.StateDir), wait)
	if err != nil {
		return fail(journal.LockError(c.Root, journal.RootLockDir(jdir, record.IsRootState(c.opt.StateDir)), true, err))
	}
	locks = append(locks, f)
	if record.IsRootState(c.opt.StateDir) {
		dir := c.opt.StateDir
		f, err := statedir.LockDirHeld(dir, true, wait)
		if err != nil {
			return fail(journal.LockError(c.Root, dir, true, err))
		}
		locks = append(locks, f)
	}
	return locks, nil
}

// writeJournals writes, for each state directory, the intents of the
// roots about to change into one journal. It is flushed on its own when
// a durable root lies on another filesystem than the state directory;
// otherwise the first flush covers it (syncBefore's fsyncs, for a batch
// made durable file by file). A root whose journal
// cannot be written fails with nothing changed.
func writeJournals(as []*applying, jls []*journal.Lock) {
	for _, jl := range jls {
		var intents [][]byte
		sync := false
		for _, a := range as {
			if a.jl != jl || a.done || !a.mutate {
				continue
			}
			a.intent = a.c.intent(a.todo).Marshal()
			intents = append(intents, a.intent)
			sync = sync || !a.c.opt.NoSync && !a.c.syncEach && (a.dev == 0 || a.dev != jl.Dev)
		}
		if len(intents) == 0 {
			continue
		}
		if err := jl.Write(intents, sync, journalHooks(as, jl).flushed); err != nil {
			for _, a := range as {
				if a.jl == jl && a.intent != nil {
					a.intent = nil
					a.fail(err)
				}
			}
		}
	}
}

// intent is the record written before the first change: everything the old
// record owns, every directory about to be created, for each path about to
// be written its current and its new content, and the temporary files.
func (c *Changes) intent(todo []*pending) *record.Record {
	in := record.New(c.name)
	in.Complete = false
	for p, ss := range c.rec.Files {
		in.Files[p] = slices.Clone(ss)
	}
	for d := range c.rec.Dirs {
		in.Dirs[d] = true
	}
	for _, d := range c.mkdirs {
		in.Dirs[d] = true
	}
	for _, ch := range c.List {
		if ch.New != nil {
			in.AddSum(ch.Path, entrySum(*ch.New))
		}
		if s, ok := c.cur[ch.Path]; ok {
			in.AddSum(ch.Path, s)
		}
	}
	// Temporary files an earlier interrupted build left stay listed
	// until this build has removed them.
	in.Temps = slices.Clone(c.temps)
	for _, pd := range todo {
		in.Temps = append(in.Temps, path.Join(parent(pd.ch.Path), pd.tmp))
	}
	return in
}
