package journal

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/output/internal/record"
)

// Recovery: what a build killed mid-batch left in the state directory.
// Recover merges each dead journal's intent records into the records of
// their roots and removes it; Read reads them without changing anything,
// for a check or a dry run; DeadIntents finds those of a build killed
// after this one's Recover. A journal is dead when its lock can be taken
// (see journal.go).

// Options are what Recover is given besides the state directory.
type Options struct {
	// Record names the root whose own state directory is recovered, in
	// the error of a root deferred (DeferredError).
	Record string
	// Bounds are those each record merged into is read within, and the
	// merged record must keep to (MaxPaths).
	Bounds record.Bounds
	// Wait bounds the wait for a lock of a root that no other user can
	// take.
	Wait time.Duration
	// Opening, when set, is told of each journal file a walk opens.
	Opening func(file string)
}

// Recover merges the journals that killed builds left in stateDir into
// the records of their roots, and removes them (output.Recover says
// how). It returns how many roots it recovered, and, when another build
// is applying a batch with the same state directory or a root's intents
// cannot be merged yet, the dead journals read (NotRecovered). Each
// record it merges into is read within opt.Bounds: a merge that would
// make a record hold more lines than opt.Bounds.MaxPaths, or a record
// already past them, is refused for that root alone: its intent stays in
// the journal, as for a record that cannot be written (NotRecovered),
// and the record is left as it is.
func Recover(stateDir string, opt Options) (int, *Journals, error) {
	dir := record.JournalDirOf(stateDir)
	f, err := statedir.OpenDir(dir, false)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		// Missing, or another user's that this one may not even list
		// (root's, mode 0700, beside a tenant's owner): nothing this
		// build may recover or read. What a batch there left in this
		// user's roots is refused as not discgen's until that user's
		// next build recovers it.
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("state directory: %w", err)
	}
	defer f.Close()
	// An empty directory has nothing to recover, and needs no lock: a
	// journal created meanwhile is a running build's. A build of many
	// roots, each with a state directory of its own, recovers each of
	// them this way. A root's own, which its owner may fill, is read
	// up to record.MaxOwnEntries.
	own := record.IsRootState(stateDir)
	names, _, err := journalNames(f, own)
	if err != nil {
		return 0, nil, fmt.Errorf("state directory: %s: %w", dir, err)
	}
	if len(names) == 0 {
		return 0, nil, nil
	}
	busy := false
	if record.IsRootState(stateDir) {
		// A build that journals in the build's own state directory
		// (root's) takes the root's lock there first, as its batches
		// do, trying it once: the root's own journal directory is
		// then held only by its owner's build, never by root's.
		if state := record.BuildStateDir(stateDir); record.SharedJournal(state) {
			l, err := RootLock(state, filepath.Base(stateDir), true, 0)
			var be *statedir.BusyError
			if busy = errors.As(err, &be); err != nil && !busy {
				return 0, nil, fmt.Errorf("state directory: cannot lock %s: %w", RootLockDir(state, true), confined.UnwrapPath(err))
			}
			if l != nil {
				defer l.Close()
			}
		}
	}
	switch {
	case busy:
	case own:
		if busy, err = statedir.TryLock(f); err != nil {
			return 0, nil, fmt.Errorf("state directory: cannot lock %s: %w", dir, err)
		}
		if busy && ownedByOther(f) {
			// Held by the root's owner (root's own builds of the
			// root hold root's lock of it first, taken above): the
			// owner's build is writing the root, or the owner holds
			// the lock for ever. Nothing there is read; the root is
			// deferred to the next build, as it would be once
			// planned (output's lockState).
			return 0, nil, &DeferredError{Root: cmp.Or(opt.Record, dir)}
		}
	case statedir.Writable(dir):
		l, err := LockStateDir(dir, true, 0)
		var be *statedir.BusyError
		if busy = errors.As(err, &be); err != nil && !busy {
			return 0, nil, fmt.Errorf("state directory: cannot lock %s: %w", dir, confined.UnwrapPath(err))
		}
		if l != nil {
			defer l.Close()
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, nil, fmt.Errorf("state directory: %s: %w", dir, err)
	}
	names, more, err := journalNames(f, own)
	if err != nil {
		return 0, nil, fmt.Errorf("state directory: %s: %w", dir, err)
	}
	// A build that may not write the records (a tenant's owner beside
	// the build's own state directory, which is root's) merges nothing
	// either: it owns what the dead journals name, and the next build
	// that may write recovers them.
	if busy || !statedir.Writable(dir) {
		j, err := readJournals(stateDir, dir, names, true, opt.Opening)
		if more {
			return 0, j, &CrowdedError{Dir: dir}
		}
		return 0, j, err
	}
	if own {
		// What was read is recovered (and up to record.MaxOwnEntries .new
		// files removed) even when there is more: an owner's
		// directory crowded by killed builds empties in a few.
		n, err := recoverOwn(stateDir, dir, names, opt)
		removeParts(dir, names)
		if more {
			return n, nil, &CrowdedError{Dir: dir}
		}
		return n, nil, err
	}
	n := 0
	var left *Journals
	var roots []error
	errs := Each(dir, names, MaxSize, true, opt.Opening, func(file string, intents []*record.Record) error {
		var keep []*record.Record
		for _, in := range intents {
			if err := mergeIntent(stateDir, in, opt); err != nil {
				roots = append(roots, err)
				keep = append(keep, in)
				continue
			}
			n++
		}
		if len(keep) > 0 {
			// What cannot be merged yet (a root whose own state is
			// locked by its owner, or unusable) stays in the journal,
			// and the plans own it; the rest is merged.
			left = left.Add(&Journals{intents: byName(keep)})
			if len(keep) < len(intents) {
				return keepOnly(f, file, keep)
			}
			return nil
		}
		if err := statedir.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state directory: %w", err)
		}
		return nil
	})
	removeParts(dir, names)
	if errs != nil {
		return n, left, errors.Join(append([]error{errs}, roots...)...)
	}
	if len(roots) > 0 {
		return n, left, &NotRecovered{Errs: roots}
	}
	return n, left, nil
}

// NotRecovered is Recover's error when the journals were read but what
// they hold for some roots could not be merged into their records (a
// root whose own state directory its owner holds locked, or whose record
// cannot be written): those intents stay in the journal, Recover returns
// them for the plans to own, and only those roots wait for a later build.
type NotRecovered struct {
	Errs []error // one for each intent not merged, naming its root
}

func (e *NotRecovered) Error() string { return errors.Join(e.Errs...).Error() }

// byName groups intents by the root they name.
func byName(ins []*record.Record) map[string][]*record.Record {
	m := map[string][]*record.Record{}
	for _, in := range ins {
		m[in.Name] = append(m[in.Name], in)
	}
	return m
}

// keepOnly replaces the dead journal file, which the caller holds locked,
// by one holding only the intents keep: a new journal, written whole
// and renamed before the old one is removed (a build killed in between
// leaves both, and merging an intent twice owns no more than once).
func keepOnly(dir *os.File, file string, keep []*record.Record) error {
	var ins [][]byte
	for _, in := range keep {
		ins = append(ins, in.Marshal())
	}
	jl := &Lock{StateDir: filepath.Dir(filepath.Dir(file)), Dir: dir}
	if err := jl.Write(ins, true, nil); err != nil {
		return err
	}
	jl.Handle.Close() // dead: the next build's Recover takes it
	if err := statedir.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("state directory: %w", err)
	}
	return nil
}

// Bounds of what Recover reads in a root's own state directory, whose
// owner may write its journal directory: the journals looked at in one
// Recover (the rest wait for the next build), and the intents merged
// from them. A build leaves at most one journal, of one intent, each
// time it is killed.
const (
	maxOwnJournals = 64
	maxOwnIntents  = 64
)

// MaxReported bounds the journals a walk names in its error:
// the others it could not read are counted in one more line.
const MaxReported = 2

// CrowdedError is a root's own journal directory, which its owner may
// fill, holding more than record.MaxOwnEntries entries: a build leaves at most
// one each time it is killed. Each recovery reads that many of them,
// recovers and removes what it can among those, and refuses the root
// with this error until the directory holds no more.
type CrowdedError struct {
	Dir string
}

func (e *CrowdedError) Error() string {
	return fmt.Sprintf("state directory: %s holds more than %d entries, where a build leaves at most a few: refused until they are removed", e.Dir, record.MaxOwnEntries)
}

// journalNames lists the names in the journal directory f: all of them
// when own is false (a state directory no other user may write), up to
// record.MaxOwnEntries, in the order the directory lists them, when it is a
// root's own (RootStateDir), which its owner may fill; more then reports
// that it holds others. One read of record.MaxOwnEntries+1 names, never the
// whole directory.
func journalNames(f *os.File, own bool) (names []string, more bool, err error) {
	if !own {
		names, err = f.Readdirnames(-1)
		return names, false, err
	}
	names, err = f.Readdirnames(record.MaxOwnEntries + 1)
	if err == io.EOF {
		err = nil
	}
	if len(names) > record.MaxOwnEntries {
		names, more = names[:record.MaxOwnEntries], true
	}
	// A root's own state directory is also where its record, stat cache
	// and their temporary files are: only journals are a walk's.
	names = slices.DeleteFunc(names, func(n string) bool {
		return !strings.HasSuffix(n, record.JournalExt) && !strings.HasSuffix(n, PartExt)
	})
	return names, more, err
}

// listJournals lists the journal directory dir of the state directory
// stateDir, as journalNames does.
func listJournals(stateDir, dir string) (names []string, more bool, err error) {
	f, err := statedir.OpenDir(dir, false)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	return journalNames(f, record.IsRootState(stateDir))
}

// ownedByOther reports whether the directory f belongs to another user
// than this process's: a root's own journal directory, which a build
// run as root gives the root's owner.
func ownedByOther(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && confined.StatOf(fi).UID != os.Geteuid()
}

// recoverOwn is Recover in a root's own state directory (RootStateDir),
// whose journals its owner may have written: they are only a hint for
// that root's own record. An intent naming any other record is passed
// over, at most maxOwnIntents are merged, all into the one record in a
// single write, and nothing else is created: no other record, no
// directory, no file the owner cannot remove. Every journal read is
// removed once its intents are merged.
func recoverOwn(stateDir, dir string, names []string, opt Options) (int, error) {
	slices.Sort(names)
	var jnls []string
	for _, name := range names {
		if strings.HasSuffix(name, record.JournalExt) && len(jnls) < maxOwnJournals {
			jnls = append(jnls, name)
		}
	}
	self := filepath.Base(stateDir) // the SHA-256 of the record's name
	var name string
	var ins []*record.Record
	var files []string
	mine := func(recName string) bool {
		h := sha256.Sum256([]byte(recName))
		return hex.EncodeToString(h[:]) == self
	}
	errs := eachJournalOf(dir, jnls, record.StateLimit(stateDir, MaxSize), true, mine, opt.Opening, func(file string, intents []*record.Record) error {
		for _, in := range intents {
			if len(ins) < maxOwnIntents {
				name = in.Name
				ins = append(ins, in)
			}
		}
		files = append(files, file)
		return nil
	})
	if len(ins) > 0 {
		if err := mergeInto(stateDir, name, ins, opt); err != nil {
			return 0, errors.Join(errs, err)
		}
	}
	for _, file := range files {
		if err := statedir.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = errors.Join(errs, fmt.Errorf("state directory: %w", err))
		}
	}
	return len(ins), errs
}

// removeParts removes the journals a build killed before it renamed them
// left (nothing had changed yet), holding the directory's exclusive lock:
// a running build creates and locks its own under the shared lock.
func removeParts(dir string, names []string) {
	for _, name := range names {
		if !strings.HasSuffix(name, PartExt) {
			continue
		}
		file := filepath.Join(dir, name)
		// Errors are passed over, by intent: a part nobody removed
		// names nothing anyone relies on, and the next recovery tries
		// again.
		if f, err := OpenDead(file); err == nil && f != nil {
			statedir.Remove(file)
			f.Close()
		}
	}
}

// OpenDead opens the journal file, when it is dead: it takes the file's
// lock without waiting and checks that the file is still the one at that
// name. It returns nil, nil for a live journal or one removed meanwhile.
// The caller closes it, once done with the file.
func OpenDead(file string) (*os.File, error) {
	// A journal removed (and closed) by its build between the open and
	// the lock is gone, not dead.
	return statedir.OpenIfUnlocked(file)
}

// Each reads the journal files among names in dir, in name order
// and up to limit bytes together, and calls fn with each file and the
// intent records it holds in full: a journal cut short still names its
// first roots, and the rest of its batch had not started. With dead, only
// the journals of builds no longer running are read, and each stays
// locked while fn runs. A journal removed meanwhile is skipped; one that
// cannot be read is reported and skipped, as are fn's errors.
func Each(dir string, names []string, limit int64, dead bool, opening func(file string), fn func(file string, intents []*record.Record) error) error {
	return eachJournalOf(dir, names, limit, dead, nil, opening, fn)
}

// eachJournalOf is Each passing fn only the intents whose record
// name keep accepts (see parseOf).
func eachJournalOf(dir string, names []string, limit int64, dead bool, keep func(recName string) bool, opening func(file string), fn func(file string, intents []*record.Record) error) error {
	slices.Sort(names)
	var errs []error
	for _, name := range names {
		if !strings.HasSuffix(name, record.JournalExt) {
			continue
		}
		file := filepath.Join(dir, name)
		if opening != nil {
			opening(file)
		}
		var data []byte
		var err error
		var lock *os.File // a dead journal, locked while fn runs
		if dead {
			lock, data, err = readDead(file, limit)
		} else {
			data, _, err = statedir.ReadFile(file, limit)
		}
		if errors.Is(err, fs.ErrNotExist) || err == nil && data == nil {
			continue
		}
		if errors.Is(err, fs.ErrPermission) && !statedir.Writable(dir) {
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
		if otherVersion(data) {
			// A newer (or older) discgen's: its intents are not ours
			// to read, nor its file to remove. Reported every time,
			// until that version recovers it.
			errs = append(errs, fmt.Errorf("state directory: %s: a journal of another version of discgen (%q): left for it to recover", file, firstLine(data)))
			if lock != nil {
				lock.Close()
			}
			continue
		}
		// A parse error is not reported, by intent: a journal cut short
		// names in full the roots whose intents come before the cut (the
		// rest of its batch had not started), and one cut before its
		// first line, or empty, names none; fn handles and removes it.
		recs, _ := parseOf(data, file, keep)
		err = fn(file, recs)
		if lock != nil {
			lock.Close()
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > MaxReported {
		more := len(errs) - MaxReported
		errs = append(errs[:MaxReported], fmt.Errorf("state directory: %s: %d more journals not read", dir, more))
	}
	return errors.Join(errs...)
}

// readDead reads the journal file, up to limit bytes, when it is dead,
// and returns it open and locked. It returns nil data when the journal is
// live or gone.
func readDead(file string, limit int64) (*os.File, []byte, error) {
	f, err := OpenDead(file)
	if f == nil || err != nil {
		return nil, nil, err
	}
	data, err := statedir.ReadAll(f, limit)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if data == nil {
		data = []byte{} // empty, not live: Parse says so
	}
	return f, data, nil
}

// mergeIntent adds what the intent record in owns to the record of its
// root, which becomes incomplete, and flushes it: the journal that held
// the intent is removed next.
//
// An intent for a root that has a state directory of its own
// (RootStateDir) goes to the record there: the journal was left by a
// build from before the root had one, or by a batch of a build run as
// root, which journals in its own state directory.
func mergeIntent(stateDir string, in *record.Record, opt Options) error {
	if own := record.RootStateDir(stateDir, in.Name); own != stateDir {
		st, err := statedir.Lstat(own)
		if errors.Is(err, fs.ErrNotExist) && record.PrepareFromFormer(own, in.Name) {
			st, err = statedir.Lstat(own)
		}
		if err == nil && st.Mode.IsDir() {
			// The record there is written by batches that hold its
			// journal directory's lock (its owner's own build, or one
			// of this state directory's): hold it while the record
			// changes, trying once when its owner can take it.
			unlock, err := lockOwn(own, in.Name, opt.Wait)
			if err != nil {
				return err
			}
			defer unlock()
			stateDir = own
		}
	}
	return mergeInto(stateDir, in.Name, []*record.Record{in}, opt)
}

// mergeInto adds what the intent records ins, of the root whose record is
// named name, own to that record in stateDir, and writes it once. The
// record is read within opt.MaxPaths and opt.Reserve, and the merged
// record must hold no more lines than opt.MaxPaths: past them, nothing is
// written, and the intents stay where they are.
func mergeInto(stateDir, name string, ins []*record.Record, opt Options) error {
	file := record.File(stateDir, name, ".rec")
	m, _, err := record.Load(stateDir, file, name, opt.Bounds)
	if _, ok := errors.AsType[record.BoundError](err); ok {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err != nil || m == nil {
		// Missing, or unreadable: the intent, made from the record the
		// killed build read, owns all of it and more.
		m = record.New(name)
	}
	for _, in := range ins {
		m.Absorb(in)
	}
	data := m.Marshal()
	if n, maxPaths := bytes.Count(data, []byte("\n")), opt.Bounds.MaxPaths; maxPaths > 0 && n > 3+maxPaths {
		// The same bound as record.ParseMax's, refused at the same line
		// (and by a plan given the intent, Journals.Within).
		return fmt.Errorf("%s: merged with the journal's intent: %w; the intent stays in the journal", name, record.PastPaths(file, 4+maxPaths, maxPaths))
	}
	if _, err := record.WriteState(stateDir, file, data, true, false, false, func(string) {}); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// lockOwn takes the exclusive lock of the journal directory of the root's
// own state directory own, which its owner may hold: it is then tried
// once (see statedir.LockDir), and the root, named name, is deferred.
//
// The root's lock among root's builds (RootLock, in the state directory
// whose journal is being recovered) is taken first, waiting for it, as
// root's batches take it before the root's own.
func lockOwn(own, name string, wait time.Duration) (func(), error) {
	dir := own
	state := record.BuildStateDir(own)
	l, err := RootLock(state, filepath.Base(own), true, wait)
	if err != nil {
		return nil, LockError(name, RootLockDir(state, true), true, err)
	}
	f, err := statedir.LockDir(dir, true, false, wait)
	if errors.Is(err, fs.ErrNotExist) {
		l.Close()
		return func() {}, nil // no batch can hold it
	}
	if err != nil {
		l.Close()
		return nil, LockError(name, dir, true, err)
	}
	return func() { f.Close(); l.Close() }, nil
}

// Journals is what the journals of a state directory name, read without
// recovering them: each root's intent records.
type Journals struct {
	intents map[string][]*record.Record
}

// Read reads the journals in stateDir, of builds running or killed, and
// changes nothing (output.ReadJournals), telling opening, when set, of
// each journal file it opens.
func Read(stateDir string, opening func(file string)) (*Journals, error) {
	dir := record.JournalDirOf(stateDir)
	names, more, err := listJournals(stateDir, dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) && !statedir.Writable(dir) {
		return nil, nil // as for Recover: another user's
	}
	if err != nil {
		return nil, fmt.Errorf("state directory: %s: %w", dir, err)
	}
	j, err := readJournals(stateDir, dir, names, false, opening)
	if more {
		return j, &CrowdedError{Dir: dir}
	}
	return j, err
}

// readJournals reads the journals among names in dir, the journal
// directory of stateDir, or only the dead ones.
func readJournals(stateDir, dir string, names []string, dead bool, opening func(file string)) (*Journals, error) {
	var j *Journals
	err := Each(dir, names, record.StateLimit(stateDir, MaxSize), dead, opening, func(_ string, intents []*record.Record) error {
		if j == nil {
			j = &Journals{intents: map[string][]*record.Record{}}
		}
		for _, in := range intents {
			j.intents[in.Name] = append(j.intents[in.Name], in)
		}
		return nil
	})
	return j, err
}

// Intents returns the intent records the journals name for the root
// whose record is named name.
func (j *Journals) Intents(name string) []*record.Record {
	if j == nil {
		return nil
	}
	return j.intents[name]
}

// Roots returns how many roots the journals name.
func (j *Journals) Roots() int {
	if j == nil {
		return 0
	}
	return len(j.intents)
}

// Apply adds what the journals name for the root of m to m.
func (j *Journals) Apply(m *record.Record) {
	if j == nil {
		return
	}
	for _, in := range j.intents[m.Name] {
		m.Absorb(in)
	}
}

// Within returns an error when the journals name the root of m, which
// they were applied to, and m, whose record file is file, now holds more
// lines than maxPaths (when positive): the error Recover gives for such
// a merge.
func (j *Journals) Within(m *record.Record, file string, maxPaths int) error {
	if j == nil || maxPaths <= 0 || len(j.intents[m.Name]) == 0 {
		return nil
	}
	if n := bytes.Count(m.Marshal(), []byte("\n")); n > 3+maxPaths {
		return fmt.Errorf("merged with the journal's intent: %w", record.PastPaths(file, 4+maxPaths, maxPaths))
	}
	return nil
}

// DeadIntents returns the journals given plus the dead journals of
// stateDir that name the root name and are not among them, or nil when
// there is none more: a build killed after this one's Recover left them.
func DeadIntents(stateDir, name string, given *Journals, opening func(file string)) *Journals {
	dir := record.JournalDirOf(stateDir)
	names, _, err := listJournals(stateDir, dir)
	if err != nil {
		// By intent: these are journals beyond those Recover read, a
		// hint for this plan; without them it plans as Recover left it.
		return nil
	}
	var more []*record.Record
	eachJournalOf(dir, names, record.StateLimit(stateDir, MaxSize), true, func(n string) bool { return n == name }, opening, func(_ string, intents []*record.Record) error {
		for _, in := range intents {
			if in.Name == name && (given == nil || !slices.ContainsFunc(given.intents[name], func(g *record.Record) bool { return bytes.Equal(g.Marshal(), in.Marshal()) })) {
				more = append(more, in)
			}
		}
		return nil
	})
	if len(more) == 0 {
		return nil
	}
	j := &Journals{intents: map[string][]*record.Record{}}
	if given != nil {
		maps.Copy(j.intents, given.intents)
	}
	j.intents[name] = append(slices.Clone(j.intents[name]), more...)
	return j
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
