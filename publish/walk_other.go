//go:build !unix

package publish

import (
	"errors"
	"os"
)

// Tenant discovery opens directories one component at a time without
// following symlinks, which needs openat: it is not offered here.
var errNoWalk = errors.New("tenants globs need a Unix system (openat without following symlinks)")

func openTop(string) (*dirH, error)          { return nil, errNoWalk }
func openDir(*dirH, string) (*dirH, error)   { return nil, errNoWalk }
func closeFD(int) error                      { return errNoWalk }
func statAt(*dirH, string) (fileInfo, error) { return fileInfo{}, errNoWalk }
func statFile(*dirH) (fileInfo, error)       { return fileInfo{}, errNoWalk }
func statPath(string) fileInfo               { return fileInfo{} }
func readManifest(_ *dirH, _ string, want fileInfo, _ int64) ([]byte, fileInfo, error) {
	return nil, want, errNoWalk
}
func rootOf(*dirH) (*os.Root, error) { return nil, errNoWalk }
func isSymlinkErr(error) bool        { return false }
func isAbsent(err error) bool        { return errors.Is(err, os.ErrNotExist) }
