package output

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/discgen/discgen/output/internal/record"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
)

// The journal. Before Apply changes anything under a root, the state
// directory must say what the change may leave there if the build is
// killed: every path with both its old and its new content, the
// directories about to be created and the temporary files about to be
// written. That is the root's intent record (an incomplete record).
// ApplyAll writes the intent records of every root of a batch into one
// journal file, journal/<random>.jnl in the state directory, before the
// first change, and removes it once each of those roots has its record
// written: complete when the root was published, its intent when it
// failed. One file per batch instead of an intent record rewritten per
// root keeps a large batch to one create and one unlink in the state
// directory.
//
// A build killed in between leaves its journal. Recover, which a build
// runs before planning, merges each intent into its root's record (the
// merged record is incomplete: it owns both contents of every path and
// names the temporary files to remove) and removes the journal.
//
// Live or dead. A journal is live while the build that wrote it runs, and
// that build holds an exclusive flock on the journal file's own
// descriptor for the journal's whole life: it takes the lock on a new
// file under a name Recover does not read (<random>.new), writes the
// journal, renames it to <random>.jnl, and keeps the descriptor open
// until the journal is removed, through the wait for a flush after its
// batch ("retired", see below). Only then, once the file is gone, is the
// descriptor closed. The kernel drops the lock when the process dies,
// kill -9 included, so a journal file whose lock Recover can take, and
// which is still the file at that name once locked, was left by a build
// that died (or by one that failed to write a record and let it go);
// every other journal is a running build's and is not touched.
//
// The journal directory's lock (the flock of journal/.lock, or of a
// root's own journal directory itself) keeps Recover from changing a
// record under a batch: ApplyAll holds it shared from before it checks the
// records it will replace until those records are written (not through
// the wait for a flush), or exclusive for a root's own state directory,
// where it is also the root's lock (lockState); Recover takes it
// exclusive, without waiting, to merge dead journals into records, and
// to remove the <random>.new files
// a build killed before its rename left (a build creates and locks its
// .new file under the shared lock). When a batch holds it, Recover
// merges nothing and returns the dead journals read instead, for the
// plans to own what they name (Options.Journals).

const (
	journalMagic = journalFormat + "1"
	// journalPartExt names a journal being written, not yet locked and
	// renamed.
	journalPartExt = ".new"
	// maxJournalSize bounds a journal read by Recover.
	maxJournalSize = 1 << 30
)

// marshalJournal renders the intent records of a batch:
//
//	discgen output journal 1
//	record 123
//	<123 bytes: an incomplete record>
//	record 456
//	...
func marshalJournal(intents [][]byte) []byte {
	var b bytes.Buffer
	b.WriteString(journalMagic + "\n")
	for _, in := range intents {
		fmt.Fprintf(&b, "record %d\n", len(in))
		b.Write(in)
	}
	return b.Bytes()
}

// journalFormat is the first line's stem every version of the journal
// format shares; the version follows it.
const journalFormat = "discgen output journal "

// otherVersion reports whether data is a whole first line of a journal of
// another format version than this one's.
func otherVersion(data []byte) bool {
	line, _, whole := bytes.Cut(data, []byte("\n"))
	return whole && bytes.HasPrefix(line, []byte(journalFormat)) && string(line) != journalMagic
}

// firstLine is data's first line, cut at 80 bytes, for a message.
func firstLine(data []byte) string {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return string(line[:min(len(line), 80)])
}

// parseJournal returns the records of a journal, in order. A journal cut
// short (by a power loss before it reached the disk whole) yields the
// records before the cut, with an error naming it.
func parseJournal(data []byte, name string) ([]*record.Record, error) {
	return parseJournalOf(data, name, nil)
}

// parseJournalOf is parseJournal returning only the records whose name
// keep accepts (all of them when keep is nil). A record of another name
// is passed over by its name line alone, unparsed: a journal its owner
// filled with intents naming other records costs a scan, not a parse of
// each.
func parseJournalOf(data []byte, name string, keep func(recName string) bool) ([]*record.Record, error) {
	rest, ok := bytes.CutPrefix(data, []byte(journalMagic+"\n"))
	if !ok {
		return nil, fmt.Errorf("%s: not a discgen journal", name)
	}
	var recs []*record.Record
	for len(rest) > 0 {
		line, after, ok := bytes.Cut(rest, []byte("\n"))
		n, err := strconv.Atoi(strings.TrimPrefix(string(line), "record "))
		if !ok || !bytes.HasPrefix(line, []byte("record ")) || err != nil || n < 0 || n > len(after) {
			return recs, fmt.Errorf("%s: journal cut short after %d records", name, len(recs))
		}
		if keep != nil && !keep(intentName(after[:n])) {
			rest = after[n:]
			continue
		}
		r, _, err := record.Parse(after[:n], name)
		if err != nil {
			return recs, err
		}
		if err := record.CheckName(r.Name); err != nil {
			return recs, fmt.Errorf("%s: %v", name, err)
		}
		recs = append(recs, r)
		rest = after[n:]
	}
	return recs, nil
}

// intentName is the name an intent record gives on its second line, or
// "" when it has none.
func intentName(rec []byte) string {
	_, rest, ok := bytes.Cut(rec, []byte("\n"))
	if !ok {
		return ""
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	name, ok := bytes.CutPrefix(line, []byte("name "))
	if !ok {
		return ""
	}
	return string(name)
}

// journalLock is the journal directory of a state directory, held with a
// shared lock while a batch uses it, and the batch's journal file, held
// with an exclusive lock from its creation to its removal.
type journalLock struct {
	stateDir string
	f        *os.File // the journal directory
	lock     *os.File // its lock file (journalLockName), when not f itself
	file     string   // the batch's journal file (OS path), once written
	jf       *os.File // the journal file, open and locked, until retired
	dev      uint64   // the journal directory's filesystem
	err      error    // the directory could not be opened or locked
	hooks    hookSet  // the hooks of the roots whose intents it holds
}

// journalLockName is the file in a state directory's journal directory
// whose flock is the directory's lock: a file, not the directory itself,
// so that an account that opened the directory while an earlier version
// left it 0755, and keeps that descriptor, locks nothing a build waits
// on. A root's own state directory (RootStateDir) is the exception: its
// journal directory, which its owner may open, is itself the root's lock
// (lockState).
const journalLockName = ".lock"

// lockStateDir takes the lock of the journal directory dir of a state
// directory that is not a root's own: its lock file, exclusive or shared,
// waiting up to wait only when no other user can open it.
func lockStateDir(dir string, exclusive bool, wait time.Duration) (*os.File, error) {
	return statedir.LockFile(dir, journalLockName, exclusive, wait)
}

// lockJournal opens (creating when missing, mode 0700) and locks the
// journal directory of stateDir: shared while a batch of roots journals
// there (its lock file, lockStateDir), exclusive when it is the journal
// directory of root's own state directory, whose exclusive lock is the
// root's lock (see lockState). It waits up to wait only for a lock no
// other user can take.
func lockJournal(stateDir string, wait time.Duration, exclusive bool, root string) *journalLock {
	jl := &journalLock{stateDir: stateDir}
	dir := record.JournalDirOf(stateDir)
	var f, lock *os.File
	var err error
	if record.IsRootState(stateDir) {
		f, err = statedir.LockDir(dir, exclusive, true, wait)
	} else if lock, err = lockStateDir(dir, exclusive, wait); err == nil {
		if f, err = statedir.OpenDir(dir, false); err != nil {
			lock.Close()
		}
	}
	if err != nil {
		jl.err = lockError(root, dir, exclusive, err)
		return jl
	}
	if fi, err := f.Stat(); err == nil {
		jl.dev = confined.StatOf(fi).Dev
	}
	jl.f, jl.lock = f, lock
	return jl
}

// lockError says why the lock of dir, exclusive (a root's) or shared (a
// batch's journal directory), could not be taken for root.
func lockError(root, dir string, exclusive bool, err error) error {
	var be *statedir.BusyError
	switch {
	case errors.As(err, &be) && be.Foreign:
		return &DeferredError{Root: root}
	case errors.As(err, &be) && exclusive:
		return fmt.Errorf("%s: another build is writing this output root (still locked after %v); run the build again when it has finished", root, be.Waited)
	case errors.As(err, &be):
		return fmt.Errorf("state directory: %s is being recovered by another build (still locked after %v); run the build again", dir, be.Waited)
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("state directory: %w", err)
	}
	return fmt.Errorf("state directory: cannot lock %s: %w", dir, confined.UnwrapPath(err))
}

// DeferredError is a root not written because its lock, one another user
// can take (a tenant's own state directory, which its owner's build
// locks), was held: a build run as root tries such a lock once and
// leaves the root to its next build, rather than wait on that user.
type DeferredError struct {
	Root string
}

func (e *DeferredError) Error() string {
	return e.Root + ": its state is locked by another process (its owner's build?); deferred to the next build"
}

// write writes the batch's journal; with sync it is flushed on its own
// (the state directory is not on the roots' filesystem). The file is
// locked before it is written and renamed to its .jnl name only once
// whole, so Recover never sees a journal of a running build unlocked.
func (jl *journalLock) write(intents [][]byte, sync bool) error {
	base := filepath.Join(record.JournalDirOf(jl.stateDir), randomHex())
	part, name := base+journalPartExt, base+record.JournalExt
	// Readable by this user only (statedir.CreateLocked): a batch's
	// journal names what it writes for every root of the batch, whose
	// owners may differ.
	f, err := statedir.CreateLocked(part)
	var le *statedir.LockError
	if errors.As(err, &le) {
		return fmt.Errorf("state directory: %s: %w", name, le.Err)
	}
	if err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	_, err = f.Write(marshalJournal(intents))
	if err == nil && sync {
		jl.hooks.flushed("fsync", name)
		err = f.Sync()
	}
	if err == nil {
		err = statedir.Rename(part, name)
	}
	if err != nil {
		f.Close()
		statedir.Remove(part)
		return fmt.Errorf("state directory: %s: %w", name, err)
	}
	jl.file, jl.jf = name, f
	if sync {
		jl.hooks.flushed("fsync", jl.f.Name())
		if err := jl.f.Sync(); err != nil {
			return fmt.Errorf("state directory: %s: %w", name, err)
		}
	}
	return nil
}

// close removes the journal file when keep is false, then closes it
// (which drops its lock: a journal kept and not retired is left for
// Recover), and releases the directory's lock.
func (jl *journalLock) close(keep bool) {
	if jl.file != "" && !keep {
		statedir.Remove(jl.file)
	}
	if jl.jf != nil {
		jl.jf.Close()
		jl.jf = nil
	}
	if jl.f != nil {
		jl.f.Close()
	}
	if jl.lock != nil {
		jl.lock.Close()
	}
}

// lockJournals takes, before any record is checked, the locks of the
// batch's roots, in the order given: each root's own lock (lockState),
// and the journal directory of each state directory whose records the
// batch writes, shared, so that Recover cannot change a record between
// its check and its replacement. A root whose locks cannot be taken
// fails; one whose lock another user holds is deferred (DeferredError).
func lockJournals(as []*applying) []*journalLock {
	var jls []*journalLock
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
			a.jl = lockJournal(jdir, wait, true, a.c.Root)
			jls = append(jls, a.jl)
			if a.jl.err != nil {
				a.err, a.done = a.jl.err, true
			}
			continue
		}
		for _, jl := range jls {
			if jl.stateDir == jdir {
				a.jl = jl
				break
			}
		}
		if a.jl == nil {
			a.jl = lockJournal(jdir, wait, false, a.c.Root)
			jls = append(jls, a.jl)
		}
		if err := a.jl.err; err != nil {
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
		f, err := lockStateDir(dir, false, wait)
		if err != nil {
			return fail(lockError(c.Root, dir, false, err))
		}
		locks = append(locks, f)
	}
	f, err := rootLock(jdir, record.NameHash(c.name), record.IsRootState(c.opt.StateDir), wait)
	if err != nil {
		return fail(lockError(c.Root, rootLockDir(jdir, record.IsRootState(c.opt.StateDir)), true, err))
	}
	locks = append(locks, f)
	if record.IsRootState(c.opt.StateDir) {
		dir := c.opt.StateDir
		f, err := statedir.LockDirHeld(dir, true, wait)
		if err != nil {
			return fail(lockError(c.Root, dir, true, err))
		}
		locks = append(locks, f)
	}
	return locks, nil
}

// rootLock takes the lock of the root whose record name has the SHA-256
// hash (hex) among the builds journaling in stateDir: the file
// <hash>.lock in rootLockDir, exclusive, waiting up to wait when no other
// user can open it. For a root with a state directory of its own (own),
// one of a shared host's many tenants, the file is made once and kept
// (statedir.LockKept), in a directory of its own that no build lists
// (locks/, mode 0700), so that the journal directory, which Recover
// lists, holds no file a root. Any other root's is in the journal
// directory, and stays too.
func rootLock(stateDir, hash string, own bool, wait time.Duration) (*statedir.NameLock, error) {
	if own {
		return statedir.LockKept(rootLockDir(stateDir, own), hash+".lock", wait)
	}
	return statedir.LockName(rootLockDir(stateDir, own), hash+".lock", false, wait)
}

// locksDir is the directory, in a build's state directory, of root's
// locks of the roots with state directories of their own.
const locksDir = "locks"

// rootLockDir is the directory of rootLock's file in stateDir.
func rootLockDir(stateDir string, own bool) string {
	if own {
		return filepath.Join(stateDir, locksDir)
	}
	return filepath.Join(stateDir, record.JournalDir)
}

// writeJournals writes, for each state directory, the intents of the
// roots about to change into one journal. It is flushed on its own when
// a durable root lies on another filesystem than the state directory;
// otherwise the first flush covers it (syncBefore's fsyncs, for a batch
// made durable file by file). A root whose journal
// cannot be written fails with nothing changed.
func writeJournals(as []*applying, jls []*journalLock) {
	for _, jl := range jls {
		var intents [][]byte
		sync := false
		for _, a := range as {
			if a.jl != jl || a.done || !a.mutate {
				continue
			}
			a.intent = a.c.intent(a.todo).Marshal()
			intents = append(intents, a.intent)
			sync = sync || !a.c.opt.NoSync && !a.c.syncEach && (a.dev == 0 || a.dev != jl.dev)
		}
		if len(intents) == 0 {
			continue
		}
		jl.hooks = journalHooks(as, jl)
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
