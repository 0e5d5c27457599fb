//go:build unix

package output

import (
	"os"
	"syscall"
	"testing"
)

// The directories Apply creates are 0755 whatever the umask, as its files
// are 0644: under a umask of 077 (a user's, or a cron job's) they were
// 0700, and the web server, which reads a tenant's pages as another user,
// could not reach the files inside.
func TestDirectoriesIgnoreUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	e := newEnv(t)
	apply(t, e, files("autodisc/x/index.txt", "x\n", "a/b/c.txt", "c\n"), e.opt())
	for _, d := range []string{"autodisc", "autodisc/x", "a", "a/b"} {
		fi, err := os.Lstat(e.path(d))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v, want 0755", d, fi.Mode().Perm())
		}
	}
	for _, f := range []string{"autodisc/x/index.txt", "a/b/c.txt"} {
		if fi, err := os.Lstat(e.path(f)); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v %v, want 0644", f, fi.Mode(), err)
		}
	}
}
