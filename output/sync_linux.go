//go:build linux

package output

import (
	"os"

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

// dupFile returns a second handle on the open file f.
func dupFile(f *os.File) (*os.File, error) {
	fd, err := unix.Dup(int(f.Fd()))
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), f.Name()), nil
}
