package output

import (
	"os"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// With the state directory on another filesystem than the root, the
// journal waits for a flush of both; Flush does both.
func TestJournalOnAnotherFilesystem(t *testing.T) {
	e := newEnv(t)
	shm, err := os.MkdirTemp("/dev/shm", "discgen-state-")
	if err != nil {
		testenv.Missing(t, "no second filesystem (/dev/shm) to hold the state directory: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	var a, b syscall.Stat_t
	if syscall.Stat(shm, &a) != nil || syscall.Stat(e.base, &b) != nil || a.Dev == b.Dev {
		testenv.Missing(t, "/dev/shm is on the test directory's filesystem: no second filesystem")
	}
	opt := e.opt()
	syncfsBatches(t, &opt)
	opt.NoSync, opt.StateDir = false, shm
	apply(t, e, files("a.txt", "1\n"), opt)
	waiting := func() map[uint64]bool {
		testWriter.mu.Lock()
		defer testWriter.mu.Unlock()
		devs := map[uint64]bool{}
		for _, r := range testWriter.waiting {
			for dev := range r.needs {
				devs[dev] = true
			}
		}
		return devs
	}
	if got := waiting(); !got[uint64(a.Dev)] || !got[uint64(b.Dev)] {
		t.Errorf("the journal waits for flushes of %v, want both %d and %d", got, a.Dev, b.Dev)
	}
	if js := journals(t, shm); len(js) != 1 {
		t.Fatalf("journals before Flush: %v", js)
	}
	if err := Flush(); err != nil {
		t.Fatal(err)
	}
	if js := journals(t, shm); len(js) != 0 {
		t.Errorf("journals after Flush: %v", js)
	}
	if rec, err := readRecord(shm, e.root); err != nil || !rec.Complete {
		t.Errorf("record: %+v %v", rec, err)
	}
}
