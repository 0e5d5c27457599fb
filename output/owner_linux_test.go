package output

import (
	"os"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/tree"
)

func TestOwner(t *testing.T) {
	testenv.NeedsRoot(t) // giving files to another user needs root
	e := newEnv(t)
	opt := e.opt()
	opt.Owner = &Owner{UID: 12345, GID: 12346}
	tr := files("autodisc/index.txt", "i\n", "robots.txt", "r\n")
	tr["autodisc/robots.txt"] = tree.Entry{Link: "../robots.txt"}
	apply(t, e, tr, opt)
	for _, p := range []string{"", "autodisc", "autodisc/index.txt", "robots.txt", "autodisc/robots.txt"} {
		fi, err := os.Lstat(e.path(p))
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != 12345 || st.Gid != 12346 {
			t.Errorf("%q belongs to %d:%d", p, st.Uid, st.Gid)
		}
	}
	// Without Owner, files stay the running user's.
	apply(t, e, files("autodisc/index.txt", "j\n", "robots.txt", "r\n"), e.opt())
	fi, _ := os.Lstat(e.path("autodisc/index.txt"))
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 0 {
		t.Errorf("index.txt given to %d without Owner", st.Uid)
	}
}
