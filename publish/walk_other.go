//go:build !unix

package publish

import (
	"errors"
	"os"
)

// Tenant discovery opens directories one component at a time without
// following symlinks, which needs openat: it is not offered here.
var errNoWalk = errors.New("tenants globs need a Unix system (openat without following symlinks)")

func openTop(string) (*os.File, error)                               { return nil, errNoWalk }
func openDir(*os.File, string) (*os.File, error)                     { return nil, errNoWalk }
func dupDir(*os.File) (*os.File, error)                              { return nil, errNoWalk }
func statAt(*os.File, string) (fileInfo, error)                      { return fileInfo{}, errNoWalk }
func statFile(*os.File) (fileInfo, error)                            { return fileInfo{}, errNoWalk }
func statPath(string) fileInfo                                       { return fileInfo{} }
func readManifest(*os.File, string, fileInfo, int64) ([]byte, error) { return nil, errNoWalk }
func rootOf(*os.File) (*os.Root, error)                              { return nil, errNoWalk }
func isSymlinkErr(error) bool                                        { return false }
func isAbsent(err error) bool                                        { return errors.Is(err, os.ErrNotExist) }
