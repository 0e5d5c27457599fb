package record

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
)

// The former layout of a root's own state directory, in three
// directories: a directory of root's (mode 0711) holding the owner's two,
// the record's and the journal directory (mode 0700):
//
//	STATEDIR/roots/ab/abcd...ef/records/abcd...ef.rec
//	STATEDIR/roots/ab/abcd...ef/records/abcd...ef.stat
//	STATEDIR/roots/ab/abcd...ef/journal/<random>.jnl
//
// A build run as root that makes a root's own state directory
// (PrepareRootState) moves into it what the former one holds for the
// root: the record and its stat cache, and the journals of the owner's
// killed builds, which the build then recovers; it removes the former
// directories when they hold nothing else. What the owner put there is
// treated as it is in the root's own: renamed, never opened or followed
// (a symlink moved in is refused there as it would be), and at most
// MaxOwnEntries names of each directory are looked at. What is left
// there (more names, a directory where a file was) is never read again.
//
// This file is all there is of the former layout, and can go once no
// host holds it. Deleting it takes: this file; PrepareRootState's call
// of migrateFormer (rootstate.go, which then returns true for a
// directory it made: nothing to recover); package journal's call of
// PrepareFromFormer (mergeIntent, its recover.go); in package output,
// rootstate_former_test.go and RemoveFormerRootState (rootstate.go), an
// exported name, with publish's Unprovision's call of it
// (publish/provision.go).

// formerRootsDir is the former layout's directory of the roots' own
// state directories.
const formerRootsDir = "roots"

// formerRoots memoizes, per build state directory, whether it holds the
// former layout (STATEDIR/roots): a host that never had it looks once a
// process, not once a root. It is package output's one process-wide memo,
// and safe as one: no version since the layout changed makes
// STATEDIR/roots, so one found missing stays missing (but for an earlier
// version run beside this process, whose roots are then moved by the
// next process), and one found present is looked into again for each
// root (migrateFormer, PrepareFromFormer); it goes with this file.
var formerRoots sync.Map // string -> bool

// hasFormerRoots reports whether the build state directory state holds
// roots' own state directories of the former layout.
func hasFormerRoots(state string) bool {
	if v, ok := formerRoots.Load(state); ok {
		return v.(bool)
	}
	st, err := statedir.Lstat(filepath.Join(state, formerRootsDir))
	has := err == nil && st.Mode.IsDir()
	formerRoots.Store(state, has)
	return has
}

// formerRootStateDir is the former layout's state directory of the root
// whose own state directory (RootStateDir) is dir.
func formerRootStateDir(dir string) string {
	x := filepath.Base(dir)
	return filepath.Join(BuildStateDir(dir), formerRootsDir, x[:2], x)
}

// migrateFormer moves what the former layout holds for the root whose
// own state directory dir was just made, and whose record is named
// record, into dir: the record, its stat cache, and the journals. It
// reports whether it moved a journal, which the build then recovers.
// Errors are passed over, by intent: a record not moved is an empty
// one, whose root's files are refused as not discgen's until the
// operator looks, as they would be had the record been lost.
func migrateFormer(dir, record string) (journals bool) {
	if !hasFormerRoots(BuildStateDir(dir)) {
		return false
	}
	old := formerRootStateDir(dir)
	if st, err := statedir.Lstat(old); err != nil || !st.Mode.IsDir() {
		return false
	}
	x := NameHash(record)
	recs := filepath.Join(old, "records")
	for _, ext := range []string{".rec", ".stat"} {
		statedir.Rename(filepath.Join(recs, x+ext), filepath.Join(dir, ownBase+ext))
	}
	jdir := filepath.Join(old, JournalDir)
	for _, name := range formerNames(jdir) {
		if strings.HasSuffix(name, JournalExt) {
			if statedir.Rename(filepath.Join(jdir, name), filepath.Join(dir, name)) == nil {
				journals = true
			}
		}
	}
	// What is left: killed builds' temporary files and .new journals,
	// the verdict of the owner's build, removed with their directories
	// when that is all.
	for _, d := range []string{recs, jdir} {
		for _, name := range formerNames(d) {
			statedir.Remove(filepath.Join(d, name))
		}
		statedir.Remove(d)
	}
	statedir.Remove(old)
	return journals
}

// PrepareFromFormer makes the root's own state directory own, for the
// record named name, when it is missing and the former layout holds
// state for the root: a journal of root's batches naming the root (left
// by a build from before the layout changed) is then merged into the
// record moved there, not into the build's own state directory, which
// the root no longer reads once it has its own. The directory is given
// to the owner of the former record's directory, which the build that
// made it gave the root's owner. It reports whether it made it.
func PrepareFromFormer(own, name string) bool {
	if !hasFormerRoots(BuildStateDir(own)) {
		return false
	}
	st, err := statedir.Lstat(filepath.Join(formerRootStateDir(own), "records"))
	if err != nil || !st.Mode.IsDir() {
		return false
	}
	var owner *confined.Owner
	if o, ok := st.Owner(); ok && o.UID != os.Geteuid() {
		owner = &confined.Owner{UID: o.UID, GID: o.GID}
	}
	_, err = PrepareRootState(own, name, owner)
	return err == nil
}

// formerNames lists up to MaxOwnEntries names of the directory dir,
// which its owner may fill (it is root's own directory's entry, which
// the owner cannot replace by a symlink).
func formerNames(dir string) []string {
	f, err := statedir.OpenDir(dir, false)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, err := f.Readdirnames(MaxOwnEntries)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil
	}
	return names
}

// RemoveFormerRootState removes the former layout's state directory of
// the root whose own is dir (RootStateDir), with what its owner left
// there, never following a symlink: the root is gone (publish's
// Unprovision).
func RemoveFormerRootState(dir string) error {
	old := formerRootStateDir(dir)
	st, err := statedir.Lstat(old)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil || !st.Mode.IsDir() {
		return err
	}
	return statedir.RemoveAll(old)
}
