package output

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
)

// A root's own state directory. A build of many roots owned by different
// users (a shared host's tenants) keeps each root's record and stat
// cache, and the journals of its owner's own builds, in a state directory
// of its own, below the build's (a batch of the build run by root
// journals in the build's own, Options.JournalDir):
//
//	STATEDIR/roots/ab/abcd...ef/records/abcd...ef.rec
//	STATEDIR/roots/ab/abcd...ef/journal/<random>.jnl
//
// named by the SHA-256 of the root's record name. The build run by root
// creates every directory on the way, owned by root and mode 0711, and
// gives only the two directories that hold files, records and journal,
// to the root's owner, mode 0700. A root's first build thus makes three
// directories for its state (and roots/ab for one root in 256 at most):
// the build's state directory keeps its records in records/12/34, but a
// root's own holds one record, and 65,536 directories roots/ab/cd would
// each hold one or two roots up to a few hundred thousand. The owner's own build (the control panel's
// --tenant build, run as that user) can then write its record and its
// journals, and no other user can read, replace or remove them: a user
// can neither rename nor replace a directory in a directory of root's,
// so the only input an owner controls is the files in those two
// directories, which every build of that root opens without following a
// symlink, never waiting on a FIFO, bounded in size, and replaces through
// a random temporary name rather than writes through (see
// statedir.ReadFile, statedir.WriteFile and statedir.RandomTemp). What
// such a file can make a build do is confined to that root: a record or
// journal names paths inside the root, every path is reached through the
// root, opened confined, and a journal there counts only for the root's
// own record (recoverOwn). The journal directory's lock is the root's
// lock, which the owner can hold: the build run by root takes its own
// lock of the root first, in the build's journal directory, and then
// tries this one once (see output's doc, Threat model).

// rootsDir is the directory of the roots' own state directories.
const rootsDir = "roots"

// RootStateDir returns the state directory of its own, below stateDir,
// of the root whose record is named record.
func RootStateDir(stateDir, record string) string {
	h := sha256.Sum256([]byte(record))
	x := hex.EncodeToString(h[:])
	return filepath.Join(stateDir, rootsDir, x[:2], x)
}

// stateRecordBase is recordBase in the state directory stateDir: in a
// root's own (RootStateDir), which holds that root's record alone,
// records/<SHA-256 of name>.
func stateRecordBase(stateDir, name string) string {
	if !isRootState(stateDir) {
		return recordBase(name)
	}
	h := sha256.Sum256([]byte(name))
	return "records/" + hex.EncodeToString(h[:])
}

// PrepareRootState makes dir (from RootStateDir) ready for the record
// named record: it creates every missing directory, and gives the two
// that hold files (the record's and the journal directory) to owner, mode
// 0700, when owner is set. made reports that it created the journal
// directory, which then holds nothing to recover. Run by a user who may
// not create them (the owner, before a build run by root made them), it
// returns an error satisfying errors.Is(err, fs.ErrPermission).
//
// Once made, it costs a build two lstat calls: a build of many roots runs
// it for each.
func PrepareRootState(dir, record string, owner *Owner) (made bool, err error) {
	base := filepath.Dir(filepath.Join(dir, filepath.FromSlash(stateRecordBase(dir, record))))
	leaves := []string{base, filepath.Join(dir, journalDir)}
	mode := os.FileMode(0o755)
	if owner != nil {
		mode = 0o700
	}
	fresh := false // dir was made by this call: it holds only what the call made
	for i, leaf := range leaves {
		mode := mode
		if i == 1 && owner == nil {
			// The journal directory's lock narrows it to 0700: made
			// so, it needs no chmod.
			mode = 0o700
		}
		if fresh {
			if _, err := makeLeaf(dir, leaf, mode, owner, true); err != nil {
				return false, err
			}
			made = made || i == 1
			continue
		}
		st, err := statedir.Lstat(leaf)
		if errors.Is(err, fs.ErrNotExist) {
			if fresh, err = makeLeaf(dir, leaf, mode, owner, false); err != nil {
				return false, err
			}
			made = made || i == 1
			continue
		}
		if err != nil {
			return false, fmt.Errorf("state directory: %w", err)
		}
		if !st.Mode.IsDir() {
			return false, fmt.Errorf("state directory: %s is not a directory", leaf)
		}
		if owner == nil {
			continue
		}
		if o, ok := st.Owner(); !ok || o != *owner || st.Mode.Perm() != mode {
			if err := giveLeaf(dir, leaf, mode, owner); err != nil {
				return false, err
			}
		}
	}
	return made, nil
}

// makeLeaf creates leaf, below dir, and the directories on the way: dir
// first, unless dirMade says this build has just made it (on a first
// build it is new, and so, for the first roots of a host, is roots/ab),
// then down to leaf. made reports that it created dir.
//
// Given an owner, the directories on the way are mode 0711: the owner
// passes through them to its two, and no user but root can list them
// (which tenants the host has, which roots are deferred or refused).
func makeLeaf(dir, leaf string, mode os.FileMode, owner *Owner, dirMade bool) (made bool, err error) {
	through := os.FileMode(0o755)
	if owner != nil {
		through = 0o711
	}
	if !dirMade {
		if made, err = mkdirThrough(dir, through); err != nil {
			return false, stateDenied(dir, err)
		}
	}
	rel, err := filepath.Rel(dir, leaf)
	if err != nil {
		return made, stateDenied(dir, err)
	}
	d := dir
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		d = filepath.Join(d, name)
		m := through
		if d == leaf {
			m = mode
		}
		if err := statedir.Mkdir(d, m); err != nil && !errors.Is(err, fs.ErrExist) {
			return made, stateDenied(dir, err)
		}
	}
	if owner == nil {
		return made, nil
	}
	// Made with its mode: a umask that took the owner's bits is
	// mended by the next build's check.
	if err := statedir.Lchown(leaf, owner.UID, owner.GID); err != nil {
		return made, stateDenied(dir, err)
	}
	return made, nil
}

// mkdirThrough creates the root's own state directory dir, and
// roots/ab on the way, with mode; the build's state directory above
// them is made as any other. It climbs only as far as the nearest
// directory that exists (on a host of many roots, roots/ab), then makes
// what is missing below it. made reports that it
// created dir.
func mkdirThrough(dir string, mode os.FileMode) (made bool, err error) {
	err = statedir.Mkdir(dir, mode)
	if !errors.Is(err, fs.ErrNotExist) || !isRootState(dir) {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return err == nil, err
	}
	state := buildStateDir(dir)
	missing := []string{dir}
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if d == state {
			if err := statedir.CreateDirs(state, nil); err != nil && !errors.Is(err, fs.ErrExist) {
				return false, err
			}
			break
		}
		err := statedir.Mkdir(d, mode)
		if err == nil || errors.Is(err, fs.ErrExist) {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		missing = append(missing, d)
	}
	for _, d := range slices.Backward(missing) {
		err := statedir.Mkdir(d, mode)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return false, err
		}
		made = err == nil // the last is dir
	}
	return made, nil
}

// giveLeaf gives the directory leaf to owner, with mode.
func giveLeaf(dir, leaf string, mode os.FileMode, owner *Owner) error {
	if err := statedir.Lchown(leaf, owner.UID, owner.GID); err != nil {
		return stateDenied(dir, err)
	}
	if err := statedir.Chmod(leaf, mode); err != nil {
		return stateDenied(dir, err)
	}
	return nil
}

// stateDenied names the root's state directory this process may not
// create or give to its owner.
func stateDenied(dir string, err error) error {
	return fmt.Errorf("state directory: %s: %w", dir, confined.UnwrapPath(err))
}

// maxRootState bounds what is read from a root's own state directory, all
// journals together and each record or stat cache: its owner may fill it.
// A tenant's record is a few lines for each of its outputs.
const maxRootState = 16 << 20

// stateLimit is limit, or maxRootState for a root's own state directory
// (a path RootStateDir returns).
func stateLimit(stateDir string, limit int64) int64 {
	if isRootState(stateDir) {
		return min(limit, maxRootState)
	}
	return limit
}

// isRootState reports whether stateDir is a root's own state directory:
// a path RootStateDir returns.
func isRootState(stateDir string) bool {
	h := filepath.Base(stateDir)
	ab := filepath.Dir(stateDir)
	return len(h) == 64 && filepath.Base(filepath.Dir(ab)) == rootsDir && filepath.Base(ab) == h[:2]
}

// buildStateDir is the build's state directory of a root's own state
// directory (a path RootStateDir returns): STATEDIR of
// STATEDIR/roots/ab/<hash>.
func buildStateDir(own string) string {
	return filepath.Dir(filepath.Dir(filepath.Dir(own)))
}

// SharedJournal reports whether a build may keep the journal of roots
// with state directories of their own (RootStateDir) in stateDir's own
// journal directory, one for each batch (Options.JournalDir): whether it
// may write there. A tenant's owner, beside root's state directory, may
// not, and journals in the tenant's own.
func SharedJournal(stateDir string) bool {
	for _, dir := range []string{filepath.Join(stateDir, journalDir), stateDir} {
		if _, err := statedir.Lstat(dir); err == nil {
			return statedir.Writable(dir)
		}
	}
	return true // made by this build
}
