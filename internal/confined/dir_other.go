//go:build !unix

package confined

import (
	"errors"
	"os"
)

// Opening directories one component at a time without following
// symlinks needs openat: it is not offered here.
var errNoWalk = errors.New("tenants globs need a Unix system (openat without following symlinks)")

func OpenTop(string) (*Dir, error)         { return nil, errNoWalk }
func (*Dir) OpenDir(string) (*Dir, error)  { return nil, errNoWalk }
func (*Dir) OpenPath(string) (*Dir, error) { return nil, errNoWalk }
func closeFD(int) error                    { return errNoWalk }
func (*Dir) Lstat(string) (Info, error)    { return Info{}, errNoWalk }
func (*Dir) Stat() (Info, error)           { return Info{}, errNoWalk }
func StatPath(string) Info                 { return Info{} }
func (*Dir) ReadFile(_ string, want Info, _ int64) ([]byte, Info, error) {
	return nil, want, errNoWalk
}
func (*Dir) Root() (*os.Root, error) { return nil, errNoWalk }
func IsSymlink(err error) bool       { return false }
func IsAbsent(err error) bool        { return errors.Is(err, os.ErrNotExist) }
