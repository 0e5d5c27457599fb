package output

import "github.com/discgen/discgen/output/internal/record"

// A root's own state directory (package record holds it, rootstate.go
// and rootstate_former.go there): the names a caller building many roots
// uses to make and name it.

// RootStateDir returns the state directory of its own, below stateDir,
// of the root whose record is named name: STATEDIR/own/ab/<SHA-256 of
// name>, which holds its record, stat cache and the journals of its
// owner's builds.
func RootStateDir(stateDir, name string) string { return record.RootStateDir(stateDir, name) }

// PrepareRootState makes dir (from RootStateDir) ready for the record
// named name: it creates it, and the directories on the way when
// missing, and gives it to owner, mode 0700, when owner is set. made
// reports that it created dir, which then holds nothing to recover. Run
// by a user who may not create it (the owner, before a build run by root
// made it), it returns an error satisfying errors.Is(err,
// fs.ErrPermission).
//
// Once made, it costs a build one lstat: a build of many roots runs it
// for each.
func PrepareRootState(dir, name string, owner *Owner) (made bool, err error) {
	return record.PrepareRootState(dir, name, owner)
}

// SharedJournal reports whether a build may keep the journal of roots
// with state directories of their own (RootStateDir) in stateDir's own
// journal directory, one for each batch (Options.JournalDir): whether it
// may write there. A tenant's owner, beside root's state directory, may
// not, and journals in the tenant's own.
func SharedJournal(stateDir string) bool { return record.SharedJournal(stateDir) }

// RemoveFormerRootState removes the former layout's state directory of
// the root whose own is dir (RootStateDir), with what its owner left
// there, never following a symlink: the root is gone (publish's
// Unprovision). It goes with record's rootstate_former.go.
func RemoveFormerRootState(dir string) error { return record.RemoveFormerRootState(dir) }
