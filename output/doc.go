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
// between calls. Apply is ApplyAll of one root (see Durability for its
// flushes). A pipeline writing many roots passes the plans of a batch (say
// 64, from its workers) to ApplyAll instead, which writes one journal and
// every root's temporary files, flushes once per filesystem, then
// publishes every root and writes its record: one flush per batch (when
// the batch writes more than a few dozen files; a smaller one, like
// Apply, is made durable file by file, with a
// second round of fsyncs after the renames). Results and errors come back by
// index; one root's failure does not stop the others, nor does a panic
// while ApplyAll works on one root, which is that root's error ("ROOT:
// internal error (a bug in discgen; please report it): ... (at
// output/FILE.go:LINE)").
//
// # Where things are
//
// One file a concern, in the order a build meets them:
//
//   - plan.go: Options, Changes and Plan; inspect.go and confine.go look
//     at the disk (each output path, the directories on the way); root.go
//     names the root and opens it; diff.go prints a plan; problem.go its
//     problems.
//   - record.go: the ownership record, its format, location and writing;
//     cache.go: the machine-local stat cache beside it (Fresh), and the
//     refusal cache; rootstate.go: a root's own state directory.
//   - apply.go: Apply and ApplyAll, a batch's phases; recheck.go: a plan
//     checked again under the root's lock; stage.go: temporary files;
//     publish.go: the renames that publish them and the removals; prune.go:
//     the directories no longer needed.
//   - journal.go: the journal of a batch's intents, written and locked;
//     recover.go: what a killed build left, merged or read; flush.go: the
//     Writer, its flushes and the journals that wait for them; bug.go: a panic made
//     one root's error.
//
// None of them touches the filesystem itself: every open, create, rename,
// removal, lock and flush is package confined's, whose doc states what it
// guarantees and which tests show it.
//
// # Threat model
//
// On a shared host the build run as root writes every tenant's root; each
// tenant's owner, an unprivileged account, may run its own build of its
// root (the control panel's save); and other local accounts exist. Every
// one of them is hostile, may collude with others, and acts while a
// build runs. What they control:
//
//   - a tenant's owner: its manifest, its output root and all below it,
//     its own state directory, which root's build gives it (its record,
//     stat cache and journals, see RootStateDir), and every name in it, and its processes, which may hold any lock they
//     can open for ever, or be killed at any moment;
//   - any account: the flock of every file and directory it can open,
//     which is all that is world-readable: a 0755 output root (a
//     userdir's public_html, the site's own output directory), a state
//     directory of mode 0755.
//
// What holds against them, in the build run as root:
//
//   - Nothing they own or can open is waited on. Root's own locks are
//     files (mode 0600) in a directory only root can open
//     (STATE/journal, mode 0700, narrowed when an earlier build made it
//     wider) and STATE/locks (mode 0700), never such a directory itself,
//     which an account may have opened before it was narrowed; the output root itself is never
//     locked (its lock is a file in a directory only root can open,
//     /run/discgen: see Concurrency). Root's builds of one root (a full build, a save run as
//     root) wait for each other, a bounded time, on root's lock of that
//     root there (STATE/locks/<SHA-256 of its record's name>.lock, made
//     on the root's first build and kept); holding it, root's build then
//     tries once the lock a tenant's owner can take too (its own state
//     directory): held then, it is held by the
//     owner's build, and that root alone is deferred to the next build,
//     in one line (DeferredError), and the batch goes on. The owner's
//     own build may wait, a bounded time, for root's hold on its root: a
//     tenant may wait on root, root never waits on a tenant.
//   - Nothing they write is a command. A record, stat cache or journal in
//     a root's own state directory is input: opened without following a
//     symlink or waiting on a FIFO, a regular file, bounded in size, and
//     about that root alone. Its journals are a hint for its own record:
//     an intent naming another record is passed over, at most 64
//     journals and 64 intents are taken in one recovery, merged in one
//     write, and root creates nothing there but that root's record and
//     stat cache, which the owner can remove.
//   - Nothing root writes goes through a name they control: a file root
//     replaces in a root's own state directory is written under a random
//     temporary name (O_EXCL|O_NOFOLLOW), and whatever stands at a fixed
//     name (a directory where the record goes) refuses that root alone.
//   - Root's verdict about a root is root's: a refused tenant's reasons
//     are kept in STATE/refused (mode 0700), never read from where its
//     owner can write (see The stat cache).
//   - One root's state never stops another's build: start-up recovery of
//     a killed build's journal merges what it can and keeps in the
//     journal only the intents one root's state keeps it from merging
//     (NotRecovered); that root is deferred or refused, every other is
//     recovered and built in the same run.
//   - The directories discgen makes are no more open than they must be:
//     its locks' and verdicts' 0700, a tenant's own 0700 and the
//     tenant's, those on the way to them 0711 (passed through, listed by
//     root alone), an output root's 0755 (a web server reads them).
//
// What a tenant's owner can name or fill, the bound root's build applies
// to each, and the test that shows it (publish's tests name the walk and
// the manifest; the rest are this package's, or confined's):
//
//   - its manifest: opened without following a symlink or waiting on a
//     FIFO, a regular file only, read within the delegation's limits
//     and the build's memory budget (TestSpecialManifests,
//     TestHostileTenantCosts);
//   - its output root (public_html) and everything below it: only the
//     paths the tree names are looked at, each reached confined, no
//     symlink followed, a file read up to 64 MiB or the new bytes' size
//     (TestDirSymlinkToOutsideRefused and the other confine tests,
//     TestSymlinkPlantedAfterPlanStillConfined); a directory or
//     temporary symlink made there for the owner (Options.Owner) is
//     chowned through a descriptor of what was made, never by name
//     (TestMkdirOwnedGivesOnlyWhatItMade,
//     TestSymlinkOwnedGivesOnlyWhatItMade);
//   - its own state directory: only fixed names are opened as the
//     record and the stat cache; each read up to 16 MiB and within
//     Options.MaxPaths, written through a random temporary name
//     (TestRootStateBounded, TestRecordMaxPaths, TestOwnStateLooksForNoFormat1);
//   - the same directory, as its journal directory: every walk (Recover, ReadJournals for a
//     check or a dry run, the dead journals of a plan checked again)
//     reads it in one read of at most maxOwnEntries (64) entries, so at
//     most 64 journals are opened and 64 .new files removed, 16 MiB read
//     together, 64 intents merged; past 64 entries (its record and stat
//     cache among them) the root is refused in one line (CrowdedError) until its owner empties it; the errors of a
//     walk name two journals and count the rest in one line
//     (TestOwnJournalPartsBounded, TestOwnJournalsReadBounded,
//     TestOwnJournalIsOnlyAHint, publish's TestHostileJournalDirs);
//   - every lock it can open (its own state directory, any file, its
//     output root): tried once by root, never waited on; while it holds
//     its state directory's, root reads nothing there and the root is
//     deferred (TestOwnerLockDefersRootsRecovery, TestOutputRootIsNoLock,
//     TestOldJournalDirDescriptorLocksNothing);
//   - nothing else: root's own journal directory, locks of the roots,
//     verdicts and output roots' locks are in directories of mode 0700
//     only root can open
//     (TestJournalDirIsRootsAlone, TestRootStateDirsNoMoreOpen,
//     TestOutputLockDirIsPrivate).
//
// A tenant's directories are also listed by the walk that finds the
// manifests when a component of the glob below the first wildcard is one
// (users/*/public_html/*.yaml, home/*/sites/*/autodisc.yaml): that walk
// reads them up to 4,096 entries together and finds up to 256 manifests
// there, and past either refuses the tenant in one line (publish's
// TestTenantDirectoriesBounded; see publish's doc).
//
// What does not hold: narrowing a directory an earlier build made 0755
// cannot take back a descriptor an account opened before. Such an
// account can hold that directory's flock, which is no lock of root's
// (root's are files in it, opened by root alone), and list the
// directory's names until its process ends: the random names of
// batches' journals, and the SHA-256 of the record names of the roots
// root's builds had locked there before the locks of roots with state
// directories of their own moved to STATE/locks (never made wider than
// 0700), which names a root only to one who can guess its record's name.
// It can open none of them.
//
// # Guarantees
//
// Confinement. Every read, write, rename and removal goes through a
// confined.Root: an os.Root opened at the output root, or, for the writes
// and removals on Linux, raw descriptors of its directories opened from
// the locked root with openat2 and RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS
// (one component at a time with O_NOFOLLOW where the kernel lacks
// openat2; files created with O_EXCL|O_NOFOLLOW, renamed and stat'ed
// relative to their directory), so neither a ".." nor a symlink can lead
// an operation outside it, even when the directory changes while discgen
// runs. A directory opened again (see Descriptors) must be the one first
// opened at its path, or the operation fails. With Options.Within, the
// root itself is reached through an os.Root at a trusted directory, so a
// symlink on the way to the root (public_html -> /etc) cannot lead outside
// that directory either.
//
// Planted symlinks. A symlink that discgen did not create, found where an
// output needs a directory (public/autodisc -> /etc) or a file, is a
// problem of kind Symlink naming the path and its target. discgen does not
// follow it, replace it or delete it, with or without Options.Replace: a
// symlink may be part of how the site is deployed, and only its owner can
// say whether writing through it is meant. Symlinks the tree asks for are
// created by discgen (a temporary symlink renamed into place), recorded as
// its own, and replaced like its files; their targets must be relative and
// stay inside the root.
//
// Atomic replacement. Each file is written to a temporary file named
// .htdiscgen-XXXXXXXXXXXXXXXX.tmp in its own directory and renamed over
// the old one, each directory's index.txt after every other file, so an
// index.txt never lists a file that is not there. A build killed at any
// moment leaves every file with its old or its new bytes; the next build
// removes the temporary files the interrupted build recorded. Until then
// they are not served: they have mode 0000 until just before their
// rename (on Linux; elsewhere until written), which no web server worker
// but root's can open (nginx and Caddy refuse no name by default, not
// even a dotfile), and Apache's stock configuration also refuses their
// ".ht" name. (Earlier builds named them .discgen-XXXXXXXXXXXXXXXX.tmp;
// records listing such names are still honoured.)
//
// Durability, in batches or file by file. Before a batch of roots
// changes anything, one journal file in the state directory holds each
// root's intent record: every path with both its old and its new
// content, the directories to create and the temporary files to write.
// The temporary files are written, then made durable with the journal
// and the new directories before the renames that publish them. How
// depends on how much the batch writes:
//
//   - A batch of more than 64 files and new directories (a full build's
//     batches of tens of tenants) is flushed in batches, as git's
//     core.fsyncMethod=batch: one syncfs of the output roots' filesystem
//     before the renames. The renames, removals, complete records and
//     stat caches that follow are not flushed at once: the journal stays
//     until a later flush of every filesystem they are on (the next
//     batch's, or Flush at the end of a build) has put them on disk, and
//     only then is it removed. One flush per batch thus does the work of
//     two: it makes one batch's temporary files durable and the batch
//     before it complete. (When the state directory is on another
//     filesystem than a root, the journal is fsynced on its own.)
//   - A batch of 64 or fewer (Apply of one root, a control panel's save
//     of one tenant) is made durable file by file, as google/renameio
//     does: the journal and its directory, and each file written, are
//     fsynced before the first rename; each root, and each directory
//     whose entries changed (files renamed or removed there, directories
//     created or removed), after the last; each record as it is written
//     (and the directories of the state directory created for it); the
//     journal is then removed at once. Nothing waits for a later flush,
//     and nothing else on the filesystem is flushed.
//
// Why both: syncfs also flushes what every other process wrote to that
// filesystem, so on a shared disk holding a GiB of another user's
// unwritten data one syncfs takes most of a second whoever calls it,
// where the dozen fsyncs of a tenant's save take milliseconds; but a
// few hundred files' fsyncs cost more than one syncfs of a quiet disk,
// so a full build keeps sharing one between many roots. The fsyncs of a
// round run several at once. A root with nothing to change costs no
// flush, no lock and no write. Outside Linux there is no syncfs: every
// batch is made durable file by file (each file fsynced as written).
// Options.NoSync skips all of it.
//
// What a power loss can leave: every output path holds its old or its new
// bytes (never a truncated or empty file), and for every root the build
// was changing either its complete record or a journal naming it is on
// disk. Recover, which a build runs before planning, merges such a
// journal (once no running build holds it; see Concurrency) into the
// record, which then owns both the old and the new bytes
// of every path and names the temporary files to remove; the next build
// starts from there with no problem to resolve. A plan that is not
// applied (a check) can read the journals instead (ReadJournals,
// Options.Journals) and owns the same without changing anything. A build
// that returned
// successfully has its outputs and records on disk; only stat caches may
// be lost, and the next build rewrites them.
//
// Incremental. A file whose bytes do not change is not rewritten: its
// mtime, inode and permissions stay.
//
// Ownership. discgen removes a file only if it wrote it in an earlier
// build, with exactly the content found, and overwrites a file only if it
// wrote it or the bytes already match. A file discgen did not write, with
// other bytes than the output, is a problem of kind Foreign; a file it
// wrote that someone changed since is a problem of kind Modified; both are
// left alone unless Options.Replace takes them over. A file that already
// holds exactly the output's bytes is adopted silently. Files discgen never
// wrote and the tree does not name (public/autodisc/notes.txt) are never
// looked at.
//
// All or nothing. Apply first checks that the plan has no problem at all,
// and otherwise returns a *ProblemError listing every one of them, having
// written nothing.
//
// # The ownership record
//
// What discgen wrote under a root is recorded in Options.StateDir, never
// inside the published tree: there it would be served to the world, other
// tools that clean or sync the output (hugo, rsync --delete) would delete
// or overwrite it, and a tenant could edit it to make discgen claim files.
// The CLI keeps the state directory beside the manifest (.discgen/); Plan
// refuses a state directory inside the root.
//
// Each root has one record, at
//
//	STATEDIR/records/ab/cd/abcd...ef.rec
//
// named by the SHA-256 of its portable name (Options.Record, by default
// the root relative to the state directory's parent: "public"), fanned
// out over two levels of 256 directories so that a million tenant roots
// stay at a few files per directory. It is a small text file, written
// atomically like the outputs, in sorted order so the same build gives the
// same bytes on any machine, and it holds no absolute path, inode or time:
// it can be committed with the output, and a clone elsewhere rebuilds
// without Replace.
//
//	discgen output record 2
//	name public
//	state complete
//	d autodisc
//	f <sha256 of the bytes> autodisc/index.txt
//	l <sha256 of the target> autodisc/robots.txt
//
// Before changing anything, Apply rewrites the record as "state
// incomplete", listing every path it may write with both the content found
// and the content it writes, and every temporary file it will create
// ("t autodisc/.htdiscgen-0123456789abcdef.tmp"); after the last change it
// writes the complete record. A build killed in between leaves a record
// that still owns every byte it may have left on disk and names the
// temporary files the next build removes. discgen removes no other file
// of that form: one it did not record is not provably its own.
//
// A record names paths below its root and nothing else: a record with an
// absolute path, or a "." or ".." component, is refused at its line
// ("corrupt ownership record: path not below the output root") and the
// root with it, before anything is written.
//
// # A root's own state directory
//
// A build of roots owned by different users (a shared host's tenants,
// whose owners each run their own build) keeps each root's record, stat
// cache and its owner's journals in one state directory of the root's
// own, below the build's (RootStateDir), also its journal directory:
//
//	STATEDIR/own/ab/abcd...ef/record.rec
//	STATEDIR/own/ab/abcd...ef/record.stat
//	STATEDIR/own/ab/abcd...ef/<random>.jnl
//
// named by the SHA-256 of the record's name, and passes it as StateDir
// with the build's own as FormerStateDir, whose record is read until the
// root's own directory has one. PrepareRootState, run by the build run as
// root, creates every directory on the way owned by root, and gives the
// root's own to the root's owner (Options.Owner), mode 0700; those on the
// way are mode 0711. What an earlier version kept in three directories
// (STATEDIR/roots/ab/abcd...ef/records/ and journal/) is moved into it
// when it is made: the record, the stat cache and the journals, which
// that build recovers (rootstate_former.go). The owner's own build can then write the record and the journals
// of its root, and of no other: no other user can read or replace them,
// no user can rename or replace a directory of root's on the way, and
// none but root can list them. Run by the owner before a build run
// as root has made it, PrepareRootState fails with a permission error.
//
// What the owner can write there is input to the build run as root, and
// is treated as hostile: every state file is opened without following a
// symlink and without waiting on a FIFO, and must be a regular file;
// temporary files have random names and are created anew
// (O_EXCL|O_NOFOLLOW), a stat cache is rewritten in place only when it
// is a regular file with one link and replaced otherwise, and records,
// stat caches and all journals together are read up to 16 MiB. A caller
// that knows what the root may hold bounds its record further
// (Options.MaxPaths): past so many lines it is refused at the line that
// passes them, and past as many KiB it is not read; a stat cache past
// them is ignored. Options.Reserve lets the caller count what reading and
// parsing each record and stat cache takes in its memory budget, and
// wait for room, before it is read. Whatever the owner puts at a name
// discgen uses (a directory where the record goes) refuses that root, and
// no other. A record or journal the owner edited is used as it is when it
// is well formed: it can make discgen claim, replace or remove only paths
// below that root, each reached through the root opened confined, which
// the owner can write or remove anyway. One that is not (a path outside
// the root, a line discgen does not know) is refused at its line, and the
// root with it, until the owner or the operator removes the record. A
// journal the owner wrote is only a hint for the root's own record:
// Recover there merges only the intents naming that record (64 at most,
// from 64 journals at most, the rest waiting for a later build), into
// that record in one write, passes over every other, and creates nothing
// else. A merge reads the record within the same bounds as a plan, given
// to RecoverWithin (Options.MaxPaths, Options.Reserve): a record past
// them, or one the merge would take past MaxPaths lines, is refused at
// that line for that root alone, nothing written, and its intent stays
// in the journal (NotRecovered) while every other root is recovered; a
// plan given that intent (Options.Journals) refuses the root the same
// way, until the record is removed.
// Publish gives a tenant's own recovery its delegation's bound, and the
// build's recovery of its own journal, run before the tenants are walked
// and so before a tenant's delegation is known, the largest bound of any
// delegation (at least the default one's), reserving in the build's
// memory budget.
//
// Journals. A build that may write the build's own state directory (the
// build run as root) passes it as Options.JournalDir: a batch then writes
// one journal there for all its roots, as for roots without their own
// state directories, readable by its user only (it names every root of
// the batch), and holds each root's own journal directory locked,
// exclusive, from before it checks the root's record until the record is
// written, having taken root's own lock of the root in the build's
// journal directory first (see Concurrency): the owner can take the
// root's journal directory's lock too, so the build run as root tries
// it once and defers the root when it is held. The owner's build, which
// may not write there, journals in the root's own journal directory.
// Recover of the build's own state directory merges an intent for a root
// that has its own state directory into the record there, holding
// root's lock of the root and then that root's journal directory locked
// exclusive, tried once too: an intent it cannot merge (the lock
// held, the record unwritable) stays in the journal, which keeps only
// those, the plans own it, and Recover reports the roots as NotRecovered
// while the build goes on. Recover of a root's own state directory costs
// one read of an empty directory, and the build run as root skips it when
// PrepareRootState has just made the directory.
//
// Recover run by a build that may not write the journal directory (the
// owner's build, beside the build's own state directory, which is root's)
// merges nothing there: like a build beside a running batch, it returns
// the dead journals it can read for its plans to own, and a build that
// may write recovers them. Those it may not read (root's batches, in a
// directory of mode 0700 it cannot even list) are passed over: what such a batch left in the owner's root is then not
// owned, and refused as changed since discgen wrote it, until root's next
// build recovers the journal.
//
// Format 1 records (STATEDIR/outputs/..., keyed by the SHA-256 of the
// absolute root path, with a "root /abs/path" line; looked for only when
// STATEDIR/outputs exists) are read when no format 2 record exists, used if
// their root line is the root being built, and replaced by a format 2
// record at the next Apply; the temporary files of an interrupted format 1
// build are left for the user to remove.
//
// # The stat cache
//
// Beside each record, STATEDIR/records/ab/cd/abcd...ef.stat is
// machine-local: Options.Key, the record's own stat, and the size, mtime,
// change time, inode and mode of every output as Apply left them. It is
// trusted only while the record stats the same, so a record changed by a
// checkout, or a cache copied from another machine, is ignored and
// rebuilt. Fresh uses it to skip a root entirely; Plan uses it to skip
// reading a file whose stat and recorded content match the output. When
// discgen creates the state directory it writes STATEDIR/.gitignore
// listing *.stat and *.tmp, so committing the state directory commits the
// records only. Like make and git, the cache cannot see a change that
// keeps a file's size, inode and both times, which takes a deliberate
// reset of the change time or a write within the filesystem's timestamp
// granularity of discgen's own.
//
// The refusal cache keeps why a root's input was refused, under
// Options.Key: Refusal gives it back while the key is the same
// (SaveRefusal, ClearRefusal), so that input refused once costs the next
// builds one small read until it changes. It is the verdict of the build
// that keeps it, and is kept where no one it is about can write: a build
// that journals in the build's own state directory (Options.JournalDir,
// the build run as root) keeps the verdict of a root with a state
// directory of its own there, in STATEDIR/refused/ab/cd/abcd...ef.stat
// (refused/ mode 0700, read only when it is this user's and mode 0700),
// not in the root's own state directory, whose owner could rewrite it
// under its key line and have root's build print that owner's text as
// root's. Any other build keeps it beside the record, as
// abcd...ef.refused.stat (machine-local too, and matched by *.stat): the
// owner's own build there, which root's never reads.
//
// # Directories
//
// Apply creates missing directories (mode 0755, whatever the umask, as
// files get exactly 0644 or the mode of the file they replace: the web
// server reads them as another user) and records them. It
// removes a directory only if discgen created it, no output needs it any
// more, and it is empty; a directory holding someone else's file stays,
// and is removed by a later build once it is empty. The root is created
// with its parents when missing, and never removed.
//
// In the state directory, the directories holding locks or verdicts
// (journal/, refused/) are mode 0700, and one of this user's
// found wider is narrowed to it (the locks in journal/ are files, mode
// 0600, narrowed too); a root's own state directory is as
// RootStateDir says (0711 on the way, the owner's own 0700); the records'
// directories are 0755.
//
// # Descriptors
//
// The descriptors one root holds do not grow with its tree: while Plan
// runs it holds its root and at most 16 directory handles (the least
// recently used is closed first), and once it returns only its root, so a
// pipeline can keep many plans waiting for a batch. Apply opens a
// directory for each group of files it writes, publishes or removes there
// and closes it after, so it holds one directory per writer (8 at most)
// besides the root, its lock, and the written files kept open until their
// rename (in the whole process, 512 at most, or a quarter of the
// open-file limit when that is less). A tree of 20,000 directories
// thus builds under an open-file limit of 1024.
//
// Why a directory is opened again rather than kept open, or kept in a
// cache: its temporary files are written before the batch's flush and
// renamed after it, for every root of a batch at once, so a descriptor
// kept from the one to the other is kept for every directory of every
// root of the batch, which is what grew without bound. Opening a
// directory again costs an openat2 and an fstat, small beside the files
// written in it. The guarantees hold as when it was kept: it is opened
// from the locked root without following a symlink (above), and the
// first open of each path pins its device and inode (os.SameFile outside
// Linux) for the rest of the Apply, so a directory replaced meanwhile,
// by another directory or by a symlink, is refused rather than written:
// every temporary file is renamed in the directory it was written in, and
// every removal happens in the directory checked under the lock. Plan's
// handles are pinned the same way. Durability is as before: a batch's
// syncfs covers every directory's entries whether open or not; made
// durable file by file, each directory whose entries changed is opened
// again, fsynced and closed once the roots are published.
//
// # Limits
//
// Plan reads an existing output file only up to 64 MiB (or the size of the
// new bytes); a larger one is treated as different and not discgen's. The
// ownership record is read up to 256 MiB, and journals together up to
// 1 GiB; in a root's own state directory, each record and stat cache, and
// the journals together, up to 16 MiB, and one recovery there reads 64
// entries of its journal directory, and so looks at 64 journals and
// removes 64 .new files, and merges 64 intents at most. With Options.MaxPaths, a record
// holds at most that many lines after its header and that many KiB.
//
// # Concurrency, and what is not handled
//
// Apply takes the root's lock, in the root's state, so that two builds
// of one root with one state directory never interleave: the exclusive
// flock of STATEDIR/journal/<SHA-256 of the record's name>.lock
// (journal/ is mode 0700); for a root with a state directory of its
// own, STATEDIR/locks/<SHA-256 of the record's name>.lock in the build's
// state directory (Options.JournalDir, the build run as root; locks/ is
// mode 0700 and no build lists it, so the file is made once and kept),
// and then the root's own state directory, whose lock is the only one
// its owner's build takes. Apply waits up to Options.LockWait (10 seconds by
// default) and then fails with an error naming the root, but only for a
// lock no other user can open: one another user can take (a tenant's
// journal directory, for the build run as root) is tried once, and the
// root deferred (DeferredError). So
// root's builds of a tenant (a full build, a save run as root) wait for
// each other on root's lock file, and once one of them holds it, no
// build of root's holds the tenant's journal directory: only its
// owner's build can, and only then is the tenant deferred.
//
// One writer per output root, whatever state directory each build
// uses (the design's "the lock belongs to the output root"): Apply also
// holds, from before it checks the root against its plan until the
// record is written, the lock of the output root itself, taken after
// those of its state. It is not a flock on the root (a directory is any
// account's to lock that can open it, and an output root is mode 0755
// for its web server) but on the file <dev>.<ino>.lock, named by the
// root's device and inode and removed on release, in a directory only
// the build's user can open: /run/discgen for root; for another user,
// discgen in $XDG_RUNTIME_DIR (when that is a directory of the user's
// own, mode 0700), or else discgen-<uid> in os.TempDir(). That directory
// is made mode 0700, opened without following a symlink, and must be the
// user's own: one another account made first refuses the root, naming
// it. The wait is Options.LockWait; then the plan is checked again as
// below, so a build with another state directory that wrote the root
// first is another owner, whose files are refused as foreign, or, with
// Options.Replace, replaced whole (TestTwoStatesOneRootNeverInterleave).
// The lock is the user's: builds of one root run by different users (root's,
// and its owner's save with a root's own state directory) are kept apart
// by the root's own journal directory, which both lock.
//
// Plan takes no lock, so another build may write the root between a plan
// and its Apply, or between the plan's read of the record and its look
// at the disk (then the other build's files look changed since discgen
// wrote them). Under the lock, Apply therefore plans the root again when
// the record or a planned path changed since the plan, and checks a plan
// refused for a symlink, foreign, modified, not-a-directory or
// not-regular path again: its problems stand only if the record did not
// change. With one state directory the root holds one build's tree,
// never a mix, and a build does not fail because another one wrote the
// same root. A build with another state directory that wrote the root
// first is another owner: its files are refused as foreign. With
// Options.Superseded, a tree whose inputs changed since it was made (a
// user saved the manifest again) is not written over the root: the build
// that read the newer inputs writes it. Nothing protects against a
// process other than discgen writing the root meanwhile.
//
// Builds with one state directory run at once (a full build, and a
// control panel's build per save, run as root or as the tenant's owner
// with a root's own state directory: the locks below are then those of
// the root's own journal directory, which both take, beside the build's
// own for the journal of a batch of root's). The journal directory's
// lock, the flock of its file .lock (journal/.lock, mode 0600; for a
// root's own, that of the directory itself), is held shared by each
// batch from before it checks the records it replaces until they are
// written (a root's own, exclusive: it is the root's lock); Recover
// takes it exclusive, without waiting.
// How Recover tells a running build's journal from a dead one: the build
// creates its journal as journal/<random>.new, takes an exclusive flock
// on that file's own descriptor, writes it, renames it to
// journal/<random>.jnl, and keeps that descriptor, and so the lock, until
// it has removed the file: through the batch, and through the wait for a
// later flush after it. Recover reads only .jnl files, and merges one
// only if it can take the file's lock at once (LOCK_EX|LOCK_NB) and the
// file it locked is still the one at that name (the same device and
// inode by stat; a journal its build removed between Recover's open and
// its lock is gone, not dead). The kernel drops a flock when the last
// descriptor on it closes, so when its process exits, kill -9 included:
// a .jnl whose lock Recover gets belongs to a build that died, or to one
// that let it go because it could not write a record, and in both cases
// nothing will touch it again. A journal removed by its build while
// Recover looked at it is skipped, not an error. A .new file Recover can
// lock is removed under the directory's exclusive lock (its build died
// before changing anything; a live one creates and locks its .new file
// under the shared lock; in a root's own journal directory, those among
// the 64 entries read). When a batch holds the directory, Recover
// merges nothing and returns the dead journals it read, which the plans
// own as Options.Journals. And a plan refused for a file a build killed
// after this build's Recover left is checked under the lock against the
// dead journals naming its root, and planned again owning what they name:
// a journal recovered, or left, by another build at the same time never
// makes a build refuse discgen's own files as changed by someone else. Outside Unix there is no flock: builds with
// one state directory must not run at once there. A path that changes between file and directory from one
// build to the next is reported (NotDirectory, NotRegular) rather than
// converted. Files are created by the user running discgen unless
// Options.Owner says otherwise.
//
// Every error names the root or the file it concerns, as the caller gave
// the root: "public/autodisc/index.txt: cannot write: no space left on
// device".
package output
