//go:build linux

package output

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// flushFS makes everything written to the one filesystem holding the open
// root directories locks durable: data, inodes and directory entries, in
// one syncfs. dirs is not needed on Linux.
func flushFS(locks []*os.File, dirs []*os.Root) error {
	return unix.Syncfs(int(locks[0].Fd()))
}

// syncDirs: syncfs covers the directories' entries.
const syncDirs = false

// sync flushes the directory's entries (not needed on Linux, where
// syncfs covers them).
func (w wdir) sync() error { return retry0(func() error { return unix.Fsync(w.fd) }) }

// reopenDir opens the directory f is open on once more, by its
// descriptor, as a new open file: a lock held through f is not held
// through the new handle, nor kept by it once f is closed.
func reopenDir(f *os.File) (*os.File, error) {
	return os.Open("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
}
