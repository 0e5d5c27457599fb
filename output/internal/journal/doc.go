// Package journal holds the journal of a batch's intents and the
// recovery of what a killed build left: before package output's ApplyAll
// changes anything under a batch's roots, it writes every root's intent
// record (an incomplete ownership record) into one journal file in the
// state directory, and removes it once each root has its record; a
// build killed in between leaves it, and the next build's Recover merges
// each intent into its root's record.
//
// Its files: journal.go, the journal's format (Marshal, Parse), its file
// written locked and renamed whole (Lock), the journal directory's and a
// root's locks (LockStateDir, RootLock) and the errors of a lock held
// (DeferredError); recover.go, Recover, Read (for a check or a dry run),
// DeadIntents (the journals of a build killed since) and Journals, what
// they name, which a plan owns.
//
// It imports package record, whose records the intents are and are
// merged into; record imports nothing of it. What a batch does with a
// journal (which roots it locks, when it is written and flushed, when it
// waits for a Writer's flush) stays in package output. The design, with
// the bounds on what a root's owner can put in its own journal
// directory, is docs/output-design.md.
package journal
