package output

import (
	"github.com/discgen/discgen/output/internal/journal"
	"github.com/discgen/discgen/output/internal/record"
)

// Recovery: what a build killed mid-batch left in the state directory,
// which package journal reads, merges and removes. These are its names
// that callers use.

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
	return RecoverWithin(stateDir, Options{})
}

// RecoverWithin is Recover reading each record it merges into within the
// bounds a plan reads it with: opt.MaxPaths and opt.Reserve (of its other
// fields, only Record is used, to name a root deferred). A merge that
// would make a record hold more lines than opt.MaxPaths, or a record
// already past them, is refused for that root alone: its intent stays in
// the journal, as for a record that cannot be written (NotRecovered), and
// the record is left as it is.
func RecoverWithin(stateDir string, opt Options) (int, *Journals, error) {
	return journal.Recover(stateDir, journal.Options{
		Record:  opt.Record,
		Bounds:  record.Bounds{MaxPaths: opt.MaxPaths, Reserve: opt.Reserve},
		Wait:    defaultWait,
		Opening: opt.hooks.opening,
	})
}

// ReadJournals reads the journals in stateDir, of builds running or
// killed, and changes nothing. A plan made with them (Options.Journals)
// owns what they name, as it would once a build has recovered them: a
// check or a dry run beside a killed build then reports what the next
// build will do, not the files the killed one left as not discgen's. It
// returns nil when there is no journal. Together the journals are read up
// to 1 GiB (16 MiB in a root's own state directory); those that cannot be
// read are left out and named in the error.
func ReadJournals(stateDir string) (*Journals, error) {
	return journal.Read(stateDir, nil)
}

// Journals is what the journals of a state directory name, read without
// recovering them: each root's intent records.
type Journals = journal.Journals

// NotRecovered is Recover's error when the journals were read but what
// they hold for some roots could not be merged into their records (a
// root whose own state directory its owner holds locked, or whose record
// cannot be written): those intents stay in the journal, Recover returns
// them for the plans to own, and only those roots wait for a later build.
type NotRecovered = journal.NotRecovered

// CrowdedError is a root's own journal directory, which its owner may
// fill, holding more than 64 entries (record.MaxOwnEntries): the root is
// refused until they are removed.
type CrowdedError = journal.CrowdedError

// DeferredError is a root not written because its lock, one another user
// can take (a tenant's own state directory, which its owner's build
// locks), was held: a build run as root tries such a lock once and
// leaves the root to its next build, rather than wait on that user.
type DeferredError = journal.DeferredError
