// Package statedir reads and writes the state directory: the directory
// the operator names (--state), and the ones a build gives each tenant,
// where discgen keeps ownership records, stat caches, refusal verdicts,
// journals and the locks that order builds. It is reached by path, not
// through a confined root: the operator named it, so the symlinks on the
// way to it are followed. What lies in it is not trusted, since a root's
// own state directory is its owner's to fill.
//
// # What it offers
//
//   - Files: ReadFile and WriteFile (records and caches), ReadAll,
//     CreateLocked and OpenIfUnlocked (journals), WriteNew, RandomTemp (a
//     temporary name no one can guess).
//   - Directories and names: CreateDirs (reports fs.ErrExist when the
//     directory was there, unlike os.MkdirAll), Mkdir, OpenDir, Names,
//     SyncDir, Lstat, Exists, Writable, Lchown, Chmod, Rename, Remove.
//   - Locks: TryLock, TryLockShared, WaitLock, LockDir, LockFile and
//     LockName (which wait only on a lock no other user can open, and
//     report a held one as a BusyError), PrivateDir.
//
// # The guarantee
//
//   - Writing through a symlink or a hard link planted in a state
//     directory: WriteFile creates a temporary file anew
//     (O_EXCL|O_NOFOLLOW, whatever was at its name removed first) and
//     rewrites a file in place only when it is a regular file with one
//     link. Test: TestStateFilesNotWrittenThrough.
//   - Reading through a symlink or waiting on a FIFO: on Linux a state
//     file is opened with O_NOFOLLOW|O_NONBLOCK and read only when fstat
//     says it is a regular file (ReadFile, OpenIfUnlocked). Tests:
//     TestStateFilesNotWrittenThrough; output's tests of planted state.
//   - Reading past a limit: ReadFile reads nothing of a larger file;
//     ReadAll stops one byte past it, which tells the caller. Test:
//     TestReadLimits.
//   - Waiting on a lock another user holds: a lock is waited on only in a
//     directory no other user can open (LockDir narrows it first);
//     elsewhere it is tried once and a held one is a BusyError. Tests:
//     TestLockFileSharedAndExclusive, TestLockNameRemovedAndExclusive.
package statedir
