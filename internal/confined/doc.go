// Package confined is how output and publish reach an output root and a
// tenant's directory: with internal/statedir (the state directory, which
// is reached by path), the only code of theirs that opens raw
// descriptors, creates, renames or removes files and flushes to disk. It
// holds no policy (what is discgen's, what may be replaced): it offers
// operations that cannot leave the directory they start from, and the
// callers decide.
//
// It is not a part of output because publish uses it too (to walk tenant
// directories and read their manifests) and neither should reach the
// other's internals for it; it imports only ground-floor helpers
// (internal/rawstat, internal/limited, internal/eintr) and
// golang.org/x/sys/unix.
//
// # What it offers
//
//   - Root: an output root, opened by OpenRoot (by path, optionally
//     through a directory it must lie within) or Wrap (an os.Root opened
//     by the caller, who keeps it), with operations by slash path
//     relative to it: Reach, Lstat, Readlink, ReadFile (with a limit),
//     Remove, Forget, OpenSelf (the root's own directory, for its lock).
//     It holds at most MaxHandles directories open, each pinned to the
//     directory first opened at its path (errReplaced otherwise), except
//     in a Root opened to only look (Mode Look: the stat cache's check,
//     which writes nothing and saves the stat a pin costs); Reset
//     forgets the pins, for the root planned again. WriteDir opens a
//     directory of the write path for one piece of work (Done closes it);
//     its File (Create, Write, Chown, Chmod, Stat, Close) and Mkdir,
//     Symlink, Rename, Lchown, Remove, Lstat, Sync write.
//   - Dir: a tenant directory held on a raw descriptor, from OpenTop
//     down, with OpenDir, Lstat, Stat, ReadDir, ReadFile (a manifest) and
//     Root (an os.Root at that very directory, for output).
//   - Info: what a stat says (mode, size, times, device, inode, owner),
//     from StatOf, InfoOf or the operations above.
//   - Flushes: FlushFS, ReopenDir.
//
// # The guarantee
//
// What can never happen, and the tests that show it:
//
//   - Leaving the root, through ".." or a symlink, even one swapped in
//     while discgen runs. Root's operations go through an os.Root (which
//     refuses any name that resolves outside it, checked as it resolves);
//     the write path's (on Linux) through raw descriptors of directories
//     opened from the locked root with openat2
//     RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS (one plain component at a time
//     with O_NOFOLLOW where the kernel lacks openat2), each file then
//     reached by its one name. A directory opened again must be the one
//     first opened at its path: one replaced meanwhile is refused
//     (output's TestReplacedDirectoryRefused). With a directory it must
//     lie within, the root is reached through an os.Root at that
//     directory. Tests: TestRootStaysInside, TestWriteDirRefusesEscapes,
//     TestOpenRootKinds; output's TestSymlinkPlantedAfterPlanStillConfined
//     and TestSymlinkOnWayToRootConfinedByWithin.
//   - Following a symlink below a tenant's top directory, or being led
//     elsewhere by a directory renamed or swapped for a symlink after it
//     was opened. Dir opens each component with openat2
//     RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS (openat
//     with O_NOFOLLOW where the kernel lacks it), and Dir.Root names the
//     open directory itself (/proc/self/fd/N), not a path to it. Tests:
//     publish's TestSymlinkedTenants, TestSwapAfterWalk, TestSwapRace.
//   - Writing through a symlink or into a file that was already there:
//     WriteDir.Create is O_CREAT|O_EXCL|O_NOFOLLOW, and a rename replaces
//     the name, never writes through it. Test: TestCreateIsNew.
//   - Waiting on a FIFO: Dir.ReadFile and Root.ReadFile open with
//     O_NONBLOCK and read only what fstat says is a regular file. Tests:
//     TestReadManifestReplacedBySave, TestRootReadFileRefusesFIFO;
//     publish's TestSpecialManifests and TestManyTenantsOneBad.
//   - Reading past a limit: every read takes one (Root.ReadFile reads
//     nothing of a larger file; Dir.ReadFile stops one byte past it,
//     which tells the caller). Test: TestReadLimits.
//
// Where a symlink may still be followed, and why that is safe: Root's
// read path (an os.Root) follows a symlink that stays inside the root, as
// does the write path outside Linux (os.Root there too). output lstats
// every directory and file on an output path before it reads or writes
// there, and refuses a symlink it did not create; one swapped in after
// that look can only lead to another place inside the same root.
//
// # What callers may still do
//
// output and publish hold handles this package (or statedir) gave them and
// act on them only through these two, with these exceptions: an *os.Root from Dir.Root is
// passed to output as Options.Dir (and from there to Wrap); on an
// *os.File this package opened (a root's lock, the journal directory, a
// journal) they call Stat, Sync, Write, Readdirnames, Seek and Close; of
// package os they call only what touches no file (Geteuid and the like).
// They open, create, rename and remove nothing themselves:
// TestCallersTouchNoPath type-checks them and fails on any other use
// (called or taken as a value) of a function of os, syscall or
// golang.org/x/sys/unix, any other method of a handle, or a type error.
package confined
