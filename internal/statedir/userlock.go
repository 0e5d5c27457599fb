package statedir

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
)

// UserLockDir is the directory of this user's locks that belong to no
// state directory (output's lock of an output root): for root,
// /run/discgen (on a system with /run); for another user, discgen in its
// runtime directory ($XDG_RUNTIME_DIR, when that is an absolute path to
// a directory of its own, mode 0700), or else discgen-<uid> in the
// system's temporary directory. The caller makes it private
// (PrivateDir), and refuses it when it is another user's. It is worked
// out once a process.
func UserLockDir() string { return userLockDir() }

var userLockDir = sync.OnceValue(func() string {
	uid := os.Geteuid()
	if uid == 0 && runtime.GOOS != "windows" {
		if fi, err := os.Lstat("/run"); err == nil && fi.IsDir() {
			return "/run/discgen"
		}
	}
	if x := os.Getenv("XDG_RUNTIME_DIR"); uid > 0 && filepath.IsAbs(x) {
		if fi, err := os.Lstat(x); err == nil && fi.IsDir() {
			if ok, err := PrivateDir(x); err == nil && ok {
				return filepath.Join(x, "discgen")
			}
		}
	}
	return filepath.Join(os.TempDir(), "discgen-"+strconv.Itoa(max(uid, 0)))
})
