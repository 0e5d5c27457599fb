//go:build !unix

package confined

import (
	"errors"
	"os"
)

// Opening directories one component at a time without following
// symlinks needs openat: it is not offered here.
var ErrNoWalk = errors.New("tenants globs need a Unix system (openat without following symlinks)")

func OpenTop(string) (*Dir, error)         { return nil, ErrNoWalk }
func (*Dir) OpenDir(string) (*Dir, error)  { return nil, ErrNoWalk }
func (*Dir) OpenPath(string) (*Dir, error) { return nil, ErrNoWalk }
func closeFD(int) error                    { return ErrNoWalk }
func (*Dir) Lstat(string) (Info, error)    { return Info{}, ErrNoWalk }
func (*Dir) Stat() (Info, error)           { return Info{}, ErrNoWalk }
func StatPath(string) Info                 { return Info{} }
func (*Dir) ReadFile(_ string, want Info, _ int64) ([]byte, Info, error) {
	return nil, want, ErrNoWalk
}
func (*Dir) Root() (*os.Root, error) { return nil, ErrNoWalk }
func IsSymlink(err error) bool       { return err == ErrSymlink }
func IsAbsent(err error) bool        { return errors.Is(err, os.ErrNotExist) }
