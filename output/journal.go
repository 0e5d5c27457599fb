package output

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/discgen/discgen/confined"
	"io"
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
// The journal directory's lock keeps Recover from changing a record
// under a batch: ApplyAll holds it shared from before it checks the
// records it will replace until those records are written (not through
// the wait for a flush); Recover takes it exclusive, without waiting, to
// merge dead journals into records, and to remove the <random>.new files
// a build killed before its rename left (a build creates and locks its
// .new file under the shared lock). When a batch holds it, Recover
// merges nothing and returns the dead journals read instead, for the
// plans to own what they name (Options.Journals).

const (
	journalMagic = "discgen output journal 1"
	journalDir   = "journal"
	journalExt   = ".jnl"
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

// parseJournal returns the records of a journal, in order. A journal cut
// short (by a power loss before it reached the disk whole) yields the
// records before the cut, with an error naming it.
func parseJournal(data []byte, name string) ([]*record, error) {
	rest, ok := bytes.CutPrefix(data, []byte(journalMagic+"\n"))
	if !ok {
		return nil, fmt.Errorf("%s: not a discgen journal", name)
	}
	var recs []*record
	for len(rest) > 0 {
		line, after, ok := bytes.Cut(rest, []byte("\n"))
		n, err := strconv.Atoi(strings.TrimPrefix(string(line), "record "))
		if !ok || !bytes.HasPrefix(line, []byte("record ")) || err != nil || n < 0 || n > len(after) {
			return recs, fmt.Errorf("%s: journal cut short after %d records", name, len(recs))
		}
		r, _, err := parseRecord(after[:n], name)
		if err != nil {
			return recs, err
		}
		if err := checkRecordName(r.name); err != nil {
			return recs, fmt.Errorf("%s: %v", name, err)
		}
		recs = append(recs, r)
		rest = after[n:]
	}
	return recs, nil
}

// journalLock is the journal directory of a state directory, held with a
// shared lock while a batch uses it, and the batch's journal file, held
// with an exclusive lock from its creation to its removal.
type journalLock struct {
	stateDir string
	f        *os.File
	file     string   // the batch's journal file (OS path), once written
	jf       *os.File // the journal file, open and locked, until retired
	dev      uint64   // the journal directory's filesystem
	err      error    // the directory could not be opened or locked
}

// lockJournal opens (creating when missing) and locks shared the journal
// directory of stateDir, waiting up to wait for a recovery in progress.
func lockJournal(stateDir string, wait time.Duration) *journalLock {
	jl := &journalLock{stateDir: stateDir}
	dir := filepath.Join(stateDir, journalDir)
	f, err := confined.OpenDir(dir, true)
	if err != nil {
		jl.err = fmt.Errorf("state directory: %w", err)
		return jl
	}
	if fi, err := f.Stat(); err == nil {
		jl.dev = confined.StatOf(fi).Dev
	}
	switch busy, err := confined.WaitLock(f, confined.TryLockShared, wait); {
	case err != nil:
		f.Close()
		jl.err = fmt.Errorf("state directory: cannot lock %s: %w", dir, err)
	case busy:
		f.Close()
		jl.err = fmt.Errorf("state directory: %s is being recovered by another build (still locked after %v); run the build again", dir, wait)
	default:
		jl.f = f
	}
	return jl
}

// write writes the batch's journal; with sync it is flushed on its own
// (the state directory is not on the roots' filesystem). The file is
// locked before it is written and renamed to its .jnl name only once
// whole, so Recover never sees a journal of a running build unlocked.
func (jl *journalLock) write(intents [][]byte, sync bool) error {
	base := filepath.Join(jl.stateDir, journalDir, randomHex())
	part, name := base+journalPartExt, base+journalExt
	// Readable by this user only (confined.CreateLocked): a batch's
	// journal names what it writes for every root of the batch, whose
	// owners may differ.
	f, err := confined.CreateLocked(part)
	var le *confined.LockError
	if errors.As(err, &le) {
		return fmt.Errorf("state directory: %s: %w", name, le.Err)
	}
	if err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	_, err = f.Write(marshalJournal(intents))
	if err == nil && sync {
		err = f.Sync()
	}
	if err == nil {
		err = confined.Rename(part, name)
	}
	if err != nil {
		f.Close()
		confined.Remove(part)
		return fmt.Errorf("state directory: %s: %w", name, err)
	}
	jl.file, jl.jf = name, f
	if sync {
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
		confined.Remove(jl.file)
	}
	if jl.jf != nil {
		jl.jf.Close()
		jl.jf = nil
	}
	if jl.f != nil {
		jl.f.Close()
	}
}

// Recover merges the journals that killed builds left in stateDir into
// the records of their roots, and removes them. It returns how many roots
// it recovered. A journal whose build is still running (writing its
// batch, or waiting for a flush after it) is locked and left alone. When
// another build is applying a batch with the same state directory,
// Recover changes no record: it returns the dead journals read instead
// (nil when there are none), which plans given them in Options.Journals
// own as they would once recovered, and a later build recovers them. A
// build runs it once before planning; a root planned without it (or
// without ReadJournals) after a killed build may be refused, with the
// files the killed build left reported as not discgen's. A journal
// removed by another build meanwhile is not an error.
func Recover(stateDir string) (int, *Journals, error) {
	dir := filepath.Join(stateDir, journalDir)
	f, err := confined.OpenDir(dir, false)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("state directory: %w", err)
	}
	defer f.Close()
	// An empty directory has nothing to recover, and needs no lock: a
	// journal created meanwhile is a running build's. A build of many
	// roots, each with a state directory of its own, recovers each of
	// them this way.
	names, err := f.Readdirnames(-1)
	if err != nil {
		return 0, nil, fmt.Errorf("state directory: %s: %w", dir, err)
	}
	if len(names) == 0 {
		return 0, nil, nil
	}
	busy, err := confined.TryLock(f)
	if err != nil {
		return 0, nil, fmt.Errorf("state directory: cannot lock %s: %w", dir, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, nil, fmt.Errorf("state directory: %s: %w", dir, err)
	}
	if names, err = f.Readdirnames(-1); err != nil {
		return 0, nil, fmt.Errorf("state directory: %s: %w", dir, err)
	}
	// A build that may not write the records (a tenant's owner beside
	// the build's own state directory, which is root's) merges nothing
	// either: it owns what the dead journals name, and the next build
	// that may write recovers them.
	if busy || !confined.Writable(dir) {
		j, err := readJournals(dir, names, true)
		return 0, j, err
	}
	n := 0
	errs := eachJournal(dir, names, stateLimit(filepath.Dir(dir), maxJournalSize), true, func(file string, intents []*record) error {
		var errs []error
		for _, in := range intents {
			if err := mergeIntent(stateDir, in); err != nil {
				errs = append(errs, err)
				continue
			}
			n++
		}
		if len(errs) == 0 {
			if err := confined.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("state directory: %w", err))
			}
		}
		return errors.Join(errs...)
	})
	removeParts(dir, names)
	return n, nil, errs
}

// removeParts removes the journals a build killed before it renamed them
// left (nothing had changed yet), holding the directory's exclusive lock:
// a running build creates and locks its own under the shared lock.
func removeParts(dir string, names []string) {
	for _, name := range names {
		if !strings.HasSuffix(name, journalPartExt) {
			continue
		}
		file := filepath.Join(dir, name)
		if f, err := openDead(file); err == nil && f != nil {
			confined.Remove(file)
			f.Close()
		}
	}
}

// openDead opens the journal file, when it is dead: it takes the file's
// lock without waiting and checks that the file is still the one at that
// name. It returns nil, nil for a live journal or one removed meanwhile.
// The caller closes it, once done with the file.
func openDead(file string) (*os.File, error) {
	// A journal removed (and closed) by its build between the open and
	// the lock is gone, not dead.
	return confined.OpenIfUnlocked(file)
}

// eachJournal reads the journal files among names in dir, in name order
// and up to limit bytes together, and calls fn with each file and the
// intent records it holds in full: a journal cut short still names its
// first roots, and the rest of its batch had not started. With dead, only
// the journals of builds no longer running are read, and each stays
// locked while fn runs. A journal removed meanwhile is skipped; one that
// cannot be read is reported and skipped, as are fn's errors.
func eachJournal(dir string, names []string, limit int64, dead bool, fn func(file string, intents []*record) error) error {
	slices.Sort(names)
	var errs []error
	for _, name := range names {
		if !strings.HasSuffix(name, journalExt) {
			continue
		}
		file := filepath.Join(dir, name)
		var data []byte
		var err error
		var lock *os.File // a dead journal, locked while fn runs
		if dead {
			lock, data, err = readDead(file, limit)
		} else {
			data, _, err = confined.ReadFile(file, limit)
		}
		if errors.Is(err, fs.ErrNotExist) || err == nil && data == nil {
			continue
		}
		if errors.Is(err, fs.ErrPermission) && !confined.Writable(dir) {
			// Another user's batch (root's, beside a tenant's owner):
			// unreadable, as it names other users' roots. What it
			// may have left in this user's roots is not owned, so it
			// is refused as not discgen's until that user's next
			// build recovers the journal: nothing is lost.
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("state directory: %w", err))
			continue
		}
		limit -= int64(len(data))
		recs, _ := parseJournal(data, file)
		err = fn(file, recs)
		if lock != nil {
			lock.Close()
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// readDead reads the journal file, up to limit bytes, when it is dead,
// and returns it open and locked. It returns nil data when the journal is
// live or gone.
func readDead(file string, limit int64) (*os.File, []byte, error) {
	f, err := openDead(file)
	if f == nil || err != nil {
		return nil, nil, err
	}
	data, err := confined.ReadAll(f, limit)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if data == nil {
		data = []byte{} // empty, not live: parseJournal says so
	}
	return f, data, nil
}

// mergeIntent adds what the intent record in owns to the record of its
// root, which becomes incomplete, and flushes it: the journal that held
// the intent is removed next.
//
// An intent for a root that has a state directory of its own
// (RootStateDir) goes to the record there: the journal was left by a
// build from before the root had one.
func mergeIntent(stateDir string, in *record) error {
	if own := RootStateDir(stateDir, in.name); own != stateDir {
		if st, err := confined.Lstat(own); err == nil && st.Mode.IsDir() {
			// The record there is written by batches that journal
			// elsewhere (its owner's own, or this one holding only
			// the shared lock of own's journal directory): hold it
			// exclusive while the record changes.
			unlock, err := lockOwn(own)
			if err != nil {
				return err
			}
			defer unlock()
			stateDir = own
		}
	}
	c := &Changes{name: in.name, opt: Options{StateDir: stateDir}}
	if err := c.loadRecord(); err != nil || c.v1 != "" {
		// Unreadable: the intent, made from the record the killed
		// build read, owns all of it and more.
		c.rec = newRecord(in.name)
	}
	c.rec.absorb(in)
	_, err := c.writeState(c.recordFile(".rec"), c.rec.marshal(), true, false, false)
	return err
}

// lockOwn takes the exclusive lock of the journal directory of the root's
// own state directory own, waiting for a batch writing its record.
func lockOwn(own string) (func(), error) {
	dir := filepath.Join(own, journalDir)
	f, err := confined.OpenDir(dir, false)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil // no batch can hold it
	}
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	busy, err := confined.WaitLock(f, confined.TryLock, defaultWait)
	if err == nil && busy {
		err = fmt.Errorf("%s is locked by a build (still after %v); run the build again", dir, defaultWait)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("state directory: %w", err)
	}
	return func() { f.Close() }, nil
}

// absorb adds what the intent record in owns to m, which becomes
// incomplete.
func (m *record) absorb(in *record) {
	m.complete = false
	for p, ss := range in.files {
		for _, s := range ss {
			m.addSum(p, s)
		}
	}
	for d := range in.dirs {
		m.dirs[d] = true
	}
	for _, t := range in.temps {
		if !slices.Contains(m.temps, t) {
			m.temps = append(m.temps, t)
		}
	}
}

// Journals is what the journals of a state directory name, read without
// recovering them: each root's intent records.
type Journals struct {
	intents map[string][]*record
}

// ReadJournals reads the journals in stateDir, of builds running or
// killed, and changes nothing. A plan made with them (Options.Journals)
// owns what they name, as it would once a build has recovered them: a
// check or a dry run beside a killed build then reports what the next
// build will do, not the files the killed one left as not discgen's. It
// returns nil when there is no journal. Together the journals are read up
// to maxJournalSize bytes; those that cannot be read are left out and
// named in the error.
func ReadJournals(stateDir string) (*Journals, error) {
	dir := filepath.Join(stateDir, journalDir)
	names, err := confined.Names(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state directory: %s: %w", dir, err)
	}
	return readJournals(dir, names, false)
}

// readJournals reads the journals among names in dir, or only the dead
// ones.
func readJournals(dir string, names []string, dead bool) (*Journals, error) {
	var j *Journals
	err := eachJournal(dir, names, stateLimit(filepath.Dir(dir), maxJournalSize), dead, func(_ string, intents []*record) error {
		if j == nil {
			j = &Journals{intents: map[string][]*record{}}
		}
		for _, in := range intents {
			j.intents[in.name] = append(j.intents[in.name], in)
		}
		return nil
	})
	return j, err
}

// Roots returns how many roots the journals name.
func (j *Journals) Roots() int {
	if j == nil {
		return 0
	}
	return len(j.intents)
}

// apply adds what the journals name for the root of m to m.
func (j *Journals) apply(m *record) {
	if j == nil {
		return
	}
	for _, in := range j.intents[m.name] {
		m.absorb(in)
	}
}

// deadIntents returns the journals given plus the dead journals of
// stateDir that name the root name and are not among them, or nil when
// there is none more: a build killed after this one's Recover left them.
func deadIntents(stateDir, name string, given *Journals) *Journals {
	dir := filepath.Join(stateDir, journalDir)
	names, err := confined.Names(dir)
	if err != nil {
		return nil
	}
	var more []*record
	eachJournal(dir, names, stateLimit(filepath.Dir(dir), maxJournalSize), true, func(_ string, intents []*record) error {
		for _, in := range intents {
			if in.name == name && (given == nil || !slices.ContainsFunc(given.intents[name], func(g *record) bool { return bytes.Equal(g.marshal(), in.marshal()) })) {
				more = append(more, in)
			}
		}
		return nil
	})
	if len(more) == 0 {
		return nil
	}
	j := &Journals{intents: map[string][]*record{}}
	if given != nil {
		maps.Copy(j.intents, given.intents)
	}
	j.intents[name] = append(slices.Clone(j.intents[name]), more...)
	return j
}

// Journals wait for a flush. On Linux ApplyAll flushes once per batch,
// before its renames: the renames, removals and complete records that
// follow are not flushed at once. A journal whose roots all have their
// records therefore waits in flushes.waiting until, on every filesystem
// the batch changed (the roots' and the state directory's), a flush that
// started after those changes has returned: the next batch's, or Flush at
// the end of a build. A power loss before then leaves the journal, and
// Recover makes every root own both its old and its new bytes again,
// whichever of the renames and records reached the disk. A handle on each
// such filesystem is kept for Flush, one per filesystem for the life of
// the process.
var flushes struct {
	sync.Mutex
	started map[uint64]uint64   // flushes started, per filesystem
	handles map[uint64]*os.File // a directory on each filesystem, for Flush
	waiting []*retiredJournal
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
func retire(jl *journalLock, devs map[uint64]*os.File) {
	flushes.Lock()
	defer flushes.Unlock()
	if flushes.handles == nil {
		flushes.handles = map[uint64]*os.File{}
	}
	r := &retiredJournal{file: jl.file, f: jl.jf, needs: map[uint64]uint64{}}
	jl.jf = nil
	for dev, f := range devs {
		r.needs[dev] = flushes.started[dev]
		if flushes.handles[dev] == nil {
			if h, err := confined.ReopenDir(f); err == nil {
				flushes.handles[dev] = h
			}
		}
	}
	flushes.waiting = append(flushes.waiting, r)
}

// flushStarting numbers a flush of the filesystem dev about to start.
func flushStarting(dev uint64) uint64 {
	flushes.Lock()
	defer flushes.Unlock()
	if flushes.started == nil {
		flushes.started = map[uint64]uint64{}
	}
	flushes.started[dev]++
	return flushes.started[dev]
}

// flushDone notes that flush n of dev returned, and removes the journals
// that no longer wait for any flush.
func flushDone(dev, n uint64) {
	flushes.Lock()
	var done []*retiredJournal
	flushes.waiting = slices.DeleteFunc(flushes.waiting, func(r *retiredJournal) bool {
		if after, ok := r.needs[dev]; ok && after < n {
			delete(r.needs, dev)
		}
		if len(r.needs) == 0 {
			done = append(done, r)
			return true
		}
		return false
	})
	flushes.Unlock()
	// Removed, then unlocked: never dead while at its name.
	for _, r := range done {
		confined.Remove(r.file)
		if r.f != nil {
			r.f.Close()
		}
	}
}

// Flush makes durable what earlier Apply and ApplyAll calls published and
// recorded, one flush per filesystem they changed, and removes the
// journals that waited for it. A build calls it once, at its end; until
// then, a power loss leaves those journals for Recover.
func Flush() error {
	flushes.Lock()
	var devs []uint64
	for _, r := range flushes.waiting {
		for dev := range r.needs {
			if !slices.Contains(devs, dev) {
				devs = append(devs, dev)
			}
		}
	}
	handles := maps.Clone(flushes.handles)
	flushes.Unlock()
	slices.Sort(devs)
	var errs []error
	for _, dev := range devs {
		f := handles[dev]
		if f == nil {
			errs = append(errs, errors.New("state directory: cannot flush to disk: no directory open on a filesystem written to"))
			continue
		}
		n := flushStarting(dev)
		if err := confined.FlushFS([]*os.File{f}, nil); err != nil {
			errs = append(errs, fmt.Errorf("%s: cannot flush to disk: %w", f.Name(), err))
			continue
		}
		flushDone(dev, n)
	}
	return errors.Join(errs...)
}

// Add returns what the journals j and o name together; either may be nil.
func (j *Journals) Add(o *Journals) *Journals {
	switch {
	case j == nil:
		return o
	case o == nil:
		return j
	}
	all := &Journals{intents: maps.Clone(j.intents)}
	for name, ins := range o.intents {
		all.intents[name] = append(slices.Clone(all.intents[name]), ins...)
	}
	return all
}
