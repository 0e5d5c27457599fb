// Package output writes a rendered tree.Tree into an output root safely
// over a live site: a static site's public/ that other tools also write, or
// a directory its user owns and may tamper with.
//
// # Use
//
// Plan compares the tree with the disk and returns Changes without writing
// anything: the list of adds, updates, removals and adoptions, and every
// problem found. Changes.UnifiedDiff prints what would change (for
// --check), Changes.WriteList lists it (for --dry-run), and Changes.Apply
// carries it out.
//
// # For a pipeline of many roots
//
// A caller building many roots (one per tenant) sets, per root:
//
//   - Options.Dir: the root already opened and confined by the caller
//     (openat2 RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH); root is then only the
//     name used in messages, and nothing re-opens it by path.
//   - Options.Record: the portable name of the root's ownership record,
//     such as "site" or the tenant directory relative to the glob's fixed
//     prefix. Empty means the root relative to the state directory's
//     parent.
//   - Options.Key: the caller's fingerprint of the root's inputs. Before
//     loading and rendering anything, Fresh(root, opt) says whether the
//     root is known up to date: the stat cache was written with the same
//     Key and every output still stats the same. A fresh root costs a
//     read of one small file and a stat per output, and writes nothing.
//   - Options.Owner: the user and group given to every file, symlink and
//     directory Apply creates (--tenant-owner). A caller run by a user
//     other than root sets it only to a group that user is in: no other
//     may be given, and Apply fails on it.
//
// then calls Fresh, and when it says false, Plan and Apply:
//
//	if ok, _ := output.Fresh(name, opt); ok {
//		return // unchanged
//	}
//	w := output.NewWriter()
//	defer w.Close()
//	c, err := output.Plan(name, t, opt)
//	...
//	res, err := w.Apply(c)
//	...
//	err = w.Flush() // at the end of the build
//
// The Writer holds what outlives one Apply (the journals that wait for a
// flush, the files held open): the library keeps no state of its own
// between calls, but for one memo of whether a build's state directory
// holds the former layout of the roots' own (record's rootstate_former.go). Apply is ApplyAll of one root (see Durability in
// docs/output-design.md for its flushes). A pipeline writing many roots
// passes the plans of a batch (say 64, from its workers) to ApplyAll
// instead, which writes one journal and every root's temporary files,
// flushes once per filesystem, then publishes every root and writes its
// record: one flush per batch (when the batch writes more than a few
// dozen files; a smaller one, like Apply, is made durable file by file,
// with a second round of fsyncs after the renames). Results and errors
// come back by index; one root's failure does not stop the others, nor
// does a panic while ApplyAll works on one root, which is that root's
// error ("ROOT: internal error (a bug in discgen; please report it): ...
// (at output/FILE.go:LINE)").
//
// # Where things are
//
// One file a concern, grouped by idea:
//
//   - Plan, apply and diff. plan.go: Options, Changes and Plan; inspect.go
//     and confine.go look at the disk (each output path, the directories
//     on the way); root.go names the root and opens it; diff.go prints a
//     plan; problem.go its problems; apply.go: Apply and ApplyAll, a
//     batch's phases; recheck.go: a plan checked again under the root's
//     lock; stage.go: temporary files; publish.go: the renames that
//     publish them and the removals; prune.go: the directories no longer
//     needed; bug.go: a panic made one root's error; hooks.go: what a
//     test asks a plan to call, which travels with its Options.
//   - The journal and crash recovery, in package output/internal/journal
//     (its doc lists its files): the journal of a batch's intents, its
//     format and locks, and Recover, which merges what a killed build
//     left. Here, what a batch does with it: journal.go takes a batch's
//     locks and writes its intents; recover.go: Recover, RecoverWithin
//     and ReadJournals for callers; flush.go: the Writer, its flushes
//     and the journals that wait for them.
//   - Ownership records and the stat cache, in package
//     output/internal/record (its doc lists its files): the record, its
//     formats and where it lives, the stat and refusal caches' formats,
//     a root's own state directory, and the compatibility with earlier
//     versions (format1.go, rootstate_former.go there). Here, what a
//     plan reads and writes of them: record.go loads a root's record and
//     writes its state files; cache.go reads and writes its stat cache
//     (Fresh) and its refusal cache; record_format1.go takes a format 1
//     record over; rootstate.go names a root's own state directory for
//     callers (RootStateDir, PrepareRootState).
//   - The output root's lock. outlock.go: one writer per output root,
//     whatever its state directory.
//
// None of them touches the filesystem itself: every open, create, rename,
// removal, lock and flush is package confined's, whose doc states what it
// guarantees and which tests show it.
//
// # Design
//
// What holds, in one line each (the design, with the tests that show
// each point, is docs/output-design.md):
//
//   - Confinement: every path is reached below the root without following
//     a symlink; a planted symlink is a problem, never followed.
//   - Ownership: discgen overwrites or removes only bytes its record says
//     it wrote, and adopts a file that already holds the output
//     (Options.Replace takes over the others); the record lives in the
//     state directory, never in the published tree.
//   - Atomicity and durability: each file is renamed into place from a
//     temporary file; a journal names every root's intent before anything
//     changes, and Recover merges what a killed build left into the record.
//   - Concurrency: one writer per output root (the lock of the root's state
//     and of the root itself); a lock another user can take is tried once,
//     never waited on.
//   - Bounds: what a tenant can write (its root, its own state directory,
//     its journals) is read within fixed bounds, and refuses that root alone.
//
// The design document's sections: Threat model, Guarantees, The ownership
// record, A root's own state directory, The stat cache, Directories,
// Descriptors, Limits, and Concurrency, and what is not handled.
package output
