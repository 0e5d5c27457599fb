package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/output/internal/record"
)

// The journal. Before output's Apply changes anything under a root, the state
// directory must say what the change may leave there if the build is
// killed: every path with both its old and its new content, the
// directories about to be created and the temporary files about to be
// written. That is the root's intent record (an incomplete record).
// ApplyAll (output's) writes the intent records of every root of a batch into one
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
// where it is also the root's lock (output's lockState); Recover takes it
// exclusive, without waiting, to merge dead journals into records, and
// to remove the <random>.new files
// a build killed before its rename left (a build creates and locks its
// .new file under the shared lock). When a batch holds it, Recover
// merges nothing and returns the dead journals read instead, for the
// plans to own what they name (output's Options.Journals).

const (
	// Magic is the first line of a journal of this version.
	Magic = journalFormat + "1"
	// PartExt names a journal being written, not yet locked and
	// renamed.
	PartExt = ".new"
	// MaxSize bounds a journal read by Recover.
	MaxSize = 1 << 30
)

// Marshal renders the intent records of a batch:
//
//	discgen output journal 1
//	record 123
//	<123 bytes: an incomplete record>
//	record 456
//	...
func Marshal(intents [][]byte) []byte {
	var b bytes.Buffer
	b.WriteString(Magic + "\n")
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
	return whole && bytes.HasPrefix(line, []byte(journalFormat)) && string(line) != Magic
}

// firstLine is data's first line, cut at 80 bytes, for a message.
func firstLine(data []byte) string {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return string(line[:min(len(line), 80)])
}

// Parse returns the records of a journal, in order. A journal cut
// short (by a power loss before it reached the disk whole) yields the
// records before the cut, with an error naming it.
func Parse(data []byte, name string) ([]*record.Record, error) {
	return parseOf(data, name, nil)
}

// parseOf is Parse returning only the records whose name
// keep accepts (all of them when keep is nil). A record of another name
// is passed over by its name line alone, unparsed: a journal its owner
// filled with intents naming other records costs a scan, not a parse of
// each.
func parseOf(data []byte, name string, keep func(recName string) bool) ([]*record.Record, error) {
	rest, ok := bytes.CutPrefix(data, []byte(Magic+"\n"))
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

// Lock is the journal directory of a state directory, held with a
// shared lock while a batch uses it, and the batch's journal file, held
// with an exclusive lock from its creation to its removal.
type Lock struct {
	StateDir string
	Dir      *os.File // the journal directory
	lock     *os.File // its lock file (LockName), when not f itself
	Name     string   // the batch's journal file (OS path), once written
	Handle   *os.File // the journal file, open and locked, until retired
	Dev      uint64   // the journal directory's filesystem
	Err      error    // the directory could not be opened or locked
}

// LockName is the file in a state directory's journal directory
// whose flock is the directory's lock: a file, not the directory itself,
// so that an account that opened the directory while an earlier version
// left it 0755, and keeps that descriptor, locks nothing a build waits
// on. A root's own state directory (RootStateDir) is the exception: its
// journal directory, which its owner may open, is itself the root's lock
// (output's lockState).
const LockName = ".lock"

// LockStateDir takes the lock of the journal directory dir of a state
// directory that is not a root's own: its lock file, exclusive or shared,
// waiting up to wait only when no other user can open it.
func LockStateDir(dir string, exclusive bool, wait time.Duration) (*os.File, error) {
	return statedir.LockFile(dir, LockName, exclusive, wait)
}

// Open opens (creating when missing, mode 0700) and locks the
// journal directory of stateDir: shared while a batch of roots journals
// there (its lock file, LockStateDir), exclusive when it is the journal
// directory of root's own state directory, whose exclusive lock is the
// root's lock (see output's lockState). It waits up to wait only for a lock no
// other user can take.
func Open(stateDir string, wait time.Duration, exclusive bool, root string) *Lock {
	jl := &Lock{StateDir: stateDir}
	dir := record.JournalDirOf(stateDir)
	var f, lock *os.File
	var err error
	if record.IsRootState(stateDir) {
		f, err = statedir.LockDir(dir, exclusive, true, wait)
	} else if lock, err = LockStateDir(dir, exclusive, wait); err == nil {
		if f, err = statedir.OpenDir(dir, false); err != nil {
			lock.Close()
		}
	}
	if err != nil {
		jl.Err = LockError(root, dir, exclusive, err)
		return jl
	}
	if fi, err := f.Stat(); err == nil {
		jl.Dev = confined.StatOf(fi).Dev
	}
	jl.Dir, jl.lock = f, lock
	return jl
}

// LockError says why the lock of dir, exclusive (a root's) or shared (a
// batch's journal directory), could not be taken for root.
func LockError(root, dir string, exclusive bool, err error) error {
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

// Write writes the batch's journal; with sync it is flushed on its own
// (the state directory is not on the roots' filesystem). The file is
// locked before it is written and renamed to its .jnl name only once
// whole, so Recover never sees a journal of a running build unlocked.
func (jl *Lock) Write(intents [][]byte, sync bool, flushed func(kind, name string)) error {
	if flushed == nil {
		flushed = func(kind, name string) {}
	}
	base := filepath.Join(record.JournalDirOf(jl.StateDir), record.RandomHex())
	part, name := base+PartExt, base+record.JournalExt
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
	_, err = f.Write(Marshal(intents))
	if err == nil && sync {
		flushed("fsync", name)
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
	jl.Name, jl.Handle = name, f
	if sync {
		flushed("fsync", jl.Dir.Name())
		if err := jl.Dir.Sync(); err != nil {
			return fmt.Errorf("state directory: %s: %w", name, err)
		}
	}
	return nil
}

// Close removes the journal file when keep is false, then closes it
// (which drops its lock: a journal kept and not retired is left for
// Recover), and releases the directory's lock.
func (jl *Lock) Close(keep bool) {
	if jl.Name != "" && !keep {
		statedir.Remove(jl.Name)
	}
	if jl.Handle != nil {
		jl.Handle.Close()
		jl.Handle = nil
	}
	if jl.Dir != nil {
		jl.Dir.Close()
	}
	if jl.lock != nil {
		jl.lock.Close()
	}
}

// RootLock takes the lock of the root whose record name has the SHA-256
// hash (hex) among the builds journaling in stateDir, exclusive, waiting
// up to wait when no other user can open it. For a root with a state
// directory of its own (own), one of a shared host's many tenants, it is
// the key hash in a directory of its own that no build lists (locks/,
// mode 0700; statedir.LockKey: on Linux one byte of one kept file, so
// that no file is made, kept or removed a tenant), and the journal
// directory, which Recover lists, holds no file a root. Any other root's
// is the file <hash>.lock in the journal directory, which stays.
func RootLock(stateDir, hash string, own bool, wait time.Duration) (io.Closer, error) {
	if own {
		return statedir.LockKey(RootLockDir(stateDir, own), hash, wait)
	}
	return statedir.LockName(RootLockDir(stateDir, own), hash+".lock", false, wait)
}

// LocksDir is the directory, in a build's state directory, of root's
// locks of the roots with state directories of their own.
const LocksDir = "locks"

// RootLockDir is the directory of RootLock's file in stateDir.
func RootLockDir(stateDir string, own bool) string {
	if own {
		return filepath.Join(stateDir, LocksDir)
	}
	return filepath.Join(stateDir, record.JournalDir)
}
