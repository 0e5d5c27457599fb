package record

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
)

// A root's own state directory. A build of many roots owned by different
// users (a shared host's tenants) keeps each root's record and stat
// cache, and the journals of its owner's own builds, in a state directory
// of its own, below the build's (a batch of the build run by root
// journals in the build's own, Options.JournalDir):
//
//	STATEDIR/own/ab/abcd...ef/record.rec
//	STATEDIR/own/ab/abcd...ef/record.stat
//	STATEDIR/own/ab/abcd...ef/<random>.jnl
//
// named by the SHA-256 of the root's record name: one directory a root,
// which is also its journal directory. The build run by root creates
// own/ and own/ab owned by root and mode 0711, and the root's directory
// owned by the root's owner, mode 0700. A root's first build thus makes
// one directory for its state (and own/ab for one root in 256 at most):
// one level of 256 suffices, where a second (65,536 directories
// own/ab/cd) would hold one or two roots each up to a few hundred
// thousand. The owner's own build (the control panel's
// --tenant build, run as that user) can then write its record and its
// journals, and no other user can read, replace or remove them: a user
// can neither rename nor replace a directory in a directory of root's,
// so the only input an owner controls is the entries of its directory,
// which every build of that root opens by fixed names without following
// a symlink, never waiting on a FIFO, bounded in size, lists at most
// MaxOwnEntries of, and replaces through a random temporary name rather
// than writes through (see statedir.ReadFile, statedir.WriteFile and
// statedir.RandomTemp). What such a file can make a build do is confined
// to that root: a record or journal names paths inside the root, every
// path is reached through the root, opened confined, and a journal there
// counts only for the root's own record (package journal's recoverOwn). The directory's
// lock is the root's lock, which the owner can hold: the build run by
// root takes its own lock of the root first, in the build's lock
// directory, and then tries this one once (see docs/output-design.md,
// Threat model).
//
// Earlier builds kept it in three directories (rootstate_former.go),
// which a build run as root moves into the root's directory as it makes
// it.

// RootsDir is the directory of the roots' own state directories.
const RootsDir = "own"

// ownBase is the base name, in a root's own state directory, of
// the files kept for its record: record.rec, record.stat.
const ownBase = "record"

// RootStateDir returns the state directory of its own, below stateDir,
// of the root whose record is named record.
func RootStateDir(stateDir, record string) string {
	x := NameHash(record)
	return filepath.Join(stateDir, RootsDir, x[:2], x)
}

// StateBase is Base in the state directory stateDir: in a
// root's own (RootStateDir), which holds that root's record alone,
// "record".
func StateBase(stateDir, name string) string {
	if !IsRootState(stateDir) {
		return Base(name)
	}
	return ownBase
}

// JournalDirOf is the journal directory of the state directory stateDir:
// its journal/, or a root's own state directory itself.
func JournalDirOf(stateDir string) string {
	if IsRootState(stateDir) {
		return stateDir
	}
	return filepath.Join(stateDir, JournalDir)
}

// PrepareRootState is output.PrepareRootState: it makes dir (from
// RootStateDir) for the record named record, given to owner, mode 0700;
// made reports that it created dir, which then holds nothing to recover.
func PrepareRootState(dir, record string, owner *confined.Owner) (made bool, err error) {
	// Mode 0700 with or without an owner: the directory is also the
	// journal directory, whose lock narrows it to 0700.
	const mode = 0o700
	st, err := statedir.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if made, err = makeOwn(dir, mode, owner); err != nil || !made {
			return made, err
		}
		// What an earlier layout kept for the root is moved in; its
		// journals are then to recover.
		return !migrateFormer(dir, record), nil
	}
	if err != nil {
		return false, fmt.Errorf("state directory: %w", err)
	}
	if !st.Mode.IsDir() {
		return false, fmt.Errorf("state directory: %s is not a directory", dir)
	}
	if owner == nil {
		return false, nil
	}
	if o, ok := st.Owner(); !ok || o != *owner || st.Mode.Perm() != mode {
		if err := giveLeaf(dir, dir, mode, owner); err != nil {
			return false, err
		}
	}
	return false, nil
}

// makeOwn creates the root's own state directory dir with mode, given to
// owner, and the directories on the way. made reports that it created
// dir (false: another build made it meanwhile).
//
// Given an owner, the directories on the way are mode 0711: the owner
// passes through them to its own, and no user but root can list them
// (which tenants the host has, which roots are deferred or refused).
func makeOwn(dir string, mode os.FileMode, owner *confined.Owner) (made bool, err error) {
	through := os.FileMode(0o755)
	if owner != nil {
		through = 0o711
	}
	if made, err = mkdirThrough(dir, mode, through); err != nil {
		return false, stateDenied(dir, err)
	}
	if !made || owner == nil {
		return made, nil
	}
	// Made with its mode: a umask that took the owner's bits is
	// mended by the next build's check.
	if err := statedir.Lchown(dir, owner.UID, owner.GID); err != nil {
		return made, stateDenied(dir, err)
	}
	return made, nil
}

// mkdirThrough creates the root's own state directory dir, with mode,
// and own/ab on the way, with through; the build's state directory above
// them is made as any other. It climbs only as far as the nearest
// directory that exists (on a host of many roots, own/ab), then makes
// what is missing below it. made reports that it created dir.
func mkdirThrough(dir string, mode, through os.FileMode) (made bool, err error) {
	err = statedir.Mkdir(dir, mode)
	if !errors.Is(err, fs.ErrNotExist) || !IsRootState(dir) {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return err == nil, err
	}
	state := BuildStateDir(dir)
	var missing []string
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if d == state {
			if err := statedir.CreateDirs(state, nil); err != nil && !errors.Is(err, fs.ErrExist) {
				return false, err
			}
			break
		}
		err := statedir.Mkdir(d, through)
		if err == nil || errors.Is(err, fs.ErrExist) {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		missing = append(missing, d)
	}
	for _, d := range slices.Backward(missing) {
		if err := statedir.Mkdir(d, through); err != nil && !errors.Is(err, fs.ErrExist) {
			return false, err
		}
	}
	err = statedir.Mkdir(dir, mode)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	return err == nil, err
}

// giveLeaf gives the directory leaf to owner, with mode.
func giveLeaf(dir, leaf string, mode os.FileMode, owner *confined.Owner) error {
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

// StateLimit is limit, or maxRootState for a root's own state directory
// (a path RootStateDir returns).
func StateLimit(stateDir string, limit int64) int64 {
	if IsRootState(stateDir) {
		return min(limit, maxRootState)
	}
	return limit
}

// IsRootState reports whether stateDir is a root's own state directory:
// a path RootStateDir returns.
func IsRootState(stateDir string) bool {
	h := filepath.Base(stateDir)
	ab := filepath.Dir(stateDir)
	return len(h) == 64 && filepath.Base(filepath.Dir(ab)) == RootsDir && filepath.Base(ab) == h[:2]
}

// BuildStateDir is the build's state directory of a root's own state
// directory (a path RootStateDir returns): STATEDIR of
// STATEDIR/own/ab/<hash>.
func BuildStateDir(own string) string {
	return filepath.Dir(filepath.Dir(filepath.Dir(own)))
}

// SharedJournal is output.SharedJournal: whether a build may keep the
// journal of roots with state directories of their own in stateDir's
// own journal directory (it may write there).
func SharedJournal(stateDir string) bool {
	for _, dir := range []string{filepath.Join(stateDir, JournalDir), stateDir} {
		if _, err := statedir.Lstat(dir); err == nil {
			return statedir.Writable(dir)
		}
	}
	return true // made by this build
}

// The names, in a state directory, of its journal directory and of a
// journal in it (a root's own state directory is its own journal
// directory: JournalDirOf).
const (
	JournalDir = "journal"
	JournalExt = ".jnl"
)

// NameHash is the SHA-256 of a record's name, in hex: the name of its
// root's lock, and of its own state directory (RootStateDir).
func NameHash(name string) string {
	h := sha256.Sum256([]byte(name))
	return hex.EncodeToString(h[:])
}

// MaxOwnEntries bounds the entries a walk reads of a root's own state
// directory, which its owner may fill (journals, .new files, its record
// and stat cache among them).
const MaxOwnEntries = 64
