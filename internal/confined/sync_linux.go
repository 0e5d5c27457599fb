//go:build linux

package confined

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/discgen/discgen/internal/eintr"
)

// FlushFS makes everything written to the one filesystem holding the open
// root directories locks durable: data, inodes and directory entries, in
// one syncfs. dirs is not needed on Linux.
func FlushFS(locks []*os.File, dirs []*os.Root) error {
	return unix.Syncfs(int(locks[0].Fd()))
}

// SyncDirs: there is syncfs, which covers the directories' entries; a
// caller that flushes only what it wrote fsyncs them itself (Sync).
const SyncDirs = false

// Sync flushes the directory's entries.
func (w WriteDir) Sync() error { return eintr.Retry0(func() error { return unix.Fsync(w.fd) }) }

// ReopenDir opens the directory f is open on once more, by its
// descriptor, as a new open file: a lock held through f is not held
// through the new handle, nor kept by it once f is closed.
func ReopenDir(f *os.File) (*os.File, error) {
	return os.Open("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
}
