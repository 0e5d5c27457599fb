package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/discgen/discgen/output/internal/record"
)

// holdLock takes the lock of root (a root without a state directory of
// its own) in the state directory state as another build would, until
// the returned function is called.
func holdLock(t *testing.T, state, root string) func() {
	t.Helper()
	c := &Changes{Root: root, opt: Options{StateDir: state}}
	if err := c.setName(); err != nil {
		t.Fatal(err)
	}
	locks, err := c.lockState(0)
	if err != nil {
		t.Fatal(err)
	}
	return func() {
		for _, l := range locks {
			l.Close()
		}
	}
}

// The root's lock in its state: two builds with one state directory
// exclude each other, and the output root itself is no lock (any account
// can open a 0755 directory). A build with another state directory is
// another owner, whose files the first build refuses as foreign (the two
// exclude each other by the output root's own lock, a file only their
// user can open: TestTwoStatesOneRootNeverInterleave).
func TestLockBelongsToState(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("keep.txt", "k\n"), e.opt())
	opt := e.opt()
	opt.LockWait = 200 * time.Millisecond
	c, err := Plan(e.root, files("b.txt", "b\n"), opt)
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	release := holdLock(t, e.state, e.root)
	before := snapshot(t, e.root)
	_, err = c.Apply()
	if err == nil || !strings.HasPrefix(err.Error(), e.root+": another build is writing this output root") {
		t.Errorf("Apply under another build's lock: %v", err)
	}
	sameSnapshot(t, "output", before, snapshot(t, e.root))
	// A build that finishes soon is waited for.
	c, _ = Plan(e.root, files("b.txt", "b\n"), opt)
	c.opt.LockWait = 5 * time.Second
	go func() { time.Sleep(100 * time.Millisecond); release() }()
	if _, err := c.Apply(); err != nil {
		t.Errorf("Apply after the lock was released: %v", err)
	}
	// Another state directory: b.txt is not its build's.
	other := Options{StateDir: filepath.Join(e.base, "state2"), NoSync: true}
	c, err = Plan(e.root, files("b.txt", "other\n"), other)
	if err != nil {
		t.Fatal(err)
	}
	if got := problems(t, c.Err()); len(got) != 1 || got[0] != "foreign file b.txt" {
		t.Errorf("a build with another state directory: %v, want b.txt foreign", got)
	}
}

// Two builds of different trees into one root with one state directory,
// planned together and applied at once: the later one waits for the
// other's lock, plans again from what it left, and the root holds exactly
// one tree, never a mix.
func TestConcurrentBuildsDoNotMix(t *testing.T) {
	for round := range 5 {
		e := newEnv(t)
		var trees [2]map[string]string
		var plans [2]*Changes
		for i := range 2 {
			trees[i] = map[string]string{}
			kv := []string{}
			for j := range 40 {
				p := fmt.Sprintf("d/%d/f%02d.txt", j%4, j)
				data := strings.Repeat(string(rune('A'+i)), 10+j) + "\n"
				trees[i][p] = data
				kv = append(kv, p, data)
			}
			c, err := Plan(e.root, files(kv...), e.opt())
			if err != nil || c.Err() != nil {
				t.Fatal(err, c.Err())
			}
			plans[i] = c
		}
		var wg sync.WaitGroup
		var errs [2]error
		for i := range 2 {
			wg.Go(func() { _, errs[i] = plans[i].Apply() })
		}
		wg.Wait()
		if err := errors.Join(errs[0], errs[1]); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		got := snapshot(t, e.root)
		var match [2]int
		n := 0
		for p, desc := range got {
			if strings.HasSuffix(p, ".txt") {
				n++
				for i := range 2 {
					if strings.HasSuffix(desc, " "+trees[i][p]) {
						match[i]++
					}
				}
			}
		}
		if n != 40 || match[0] != 40 && match[1] != 40 {
			t.Errorf("round %d: %d files, %v of each tree: a mix", round, n, match)
		}
	}
}

// A write that fails (a full disk) publishes nothing: index.txt never
// lists a file that is not there, and no temporary file stays.
func TestFailedWritePublishesNothing(t *testing.T) {
	e := newEnv(t)
	v1 := files("autodisc/index.txt", "a.txt\n", "autodisc/a.txt", "a1\n")
	apply(t, e, v1, e.opt())
	v2 := files("autodisc/index.txt", "a.txt\nb.txt\nx.txt\n", "autodisc/a.txt", "a2\n", "autodisc/b.txt", "b\n", "autodisc/x.txt", "x\n")
	enospc := &fs.PathError{Op: "write", Path: ".discgen-0123456789abcdef.tmp", Err: syscall.ENOSPC}
	for _, step := range []string{"write", "rename"} {
		failing := e.opt()
		failing.hooks = &hooks{step: func(s, p string) error {
			if s == step && p == "autodisc/x.txt" {
				return enospc
			}
			return nil
		}}
		_, _, err := Write(e.root, v2, failing)
		want := e.path("autodisc/x.txt") + ": "
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "no space left on device") ||
			strings.Contains(err.Error(), ".discgen-") {
			t.Errorf("%s failure: %v", step, err)
		}
		// Whatever index.txt says is there.
		index := mustRead(t, e.path("autodisc/index.txt"))
		for _, name := range strings.Fields(index) {
			if _, err := os.Stat(e.path("autodisc/" + name)); err != nil {
				t.Errorf("%s failure: index.txt lists %s, which is missing", step, name)
			}
		}
		if step == "write" && (index != "a.txt\n" || mustRead(t, e.path("autodisc/a.txt")) != "a1\n") {
			t.Errorf("write failure published files: index %q", index)
		}
		ents, _ := os.ReadDir(e.path("autodisc"))
		for _, d := range ents {
			if record.IsTempName(d.Name()) {
				t.Errorf("%s failure: temporary file %s left", step, d.Name())
			}
		}
		// The next build owns everything and completes.
		if _, _, err := Write(e.root, v1, e.opt()); err != nil {
			t.Fatalf("build after a %s failure: %v", step, err)
		}
	}
}

// Errors name the root or the file they concern, never only a path
// relative to a directory handle ("openat autodisc: permission denied").
func TestErrorsNameTheirFile(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("autodisc/index.txt", "1\n"), e.opt())
	denied := &fs.PathError{Op: "openat", Path: "autodisc", Err: syscall.EACCES}
	failing := e.opt()
	failing.hooks = &hooks{step: func(s, p string) error { return denied }}
	_, _, err := Write(e.root, files("autodisc/index.txt", "2\n"), failing)
	if err == nil || err.Error() != e.path("autodisc/index.txt")+": cannot write: permission denied" {
		t.Errorf("injected error: %v", err)
	}

	// A directory that turned into a file after planning.
	c, err := Plan(e.root, files("autodisc/index.txt", "1\n", "sub/x.txt", "x\n"), e.opt())
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	mustWrite(t, e.path("sub"), "a file now\n")
	_, err = c.Apply()
	if err == nil || !strings.HasPrefix(err.Error(), e.path("sub")+": ") || strings.Contains(err.Error(), "openat") {
		t.Errorf("directory replaced by a file: %v", err)
	}
	os.Remove(e.path("sub"))

	// A problem found while planning names the file on disk.
	os.Remove(e.path("autodisc/index.txt"))
	os.Mkdir(e.path("autodisc/index.txt"), 0o755)
	c, _ = Plan(e.root, files("autodisc/index.txt", "1\n"), e.opt())
	var pe *ProblemError
	if err := c.Err(); !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), e.path("autodisc/index.txt")+": is a directory") {
		t.Errorf("problem: %v", err)
	}
}

// ApplyAll applies several roots together; one root's problem does not
// stop the others, and each result is at its plan's index.
func TestApplyAll(t *testing.T) {
	e := newEnv(t)
	mustWrite(t, filepath.Join(e.base, "r1", "a.txt"), "someone's\n")
	var cs []*Changes
	for i := range 3 {
		opt := e.opt()
		opt.NoSync = i == 2 // durable and not, in one batch
		c, err := Plan(filepath.Join(e.base, fmt.Sprintf("r%d", i)), files("a.txt", fmt.Sprintf("%d\n", i), "d/b.txt", "b\n"), opt)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	rs, errs := ApplyAll(cs)
	for i := range 3 {
		got, _ := os.ReadFile(filepath.Join(e.base, fmt.Sprintf("r%d", i), "a.txt"))
		switch {
		case i == 1 && (errs[i] == nil || string(got) != "someone's\n"):
			t.Errorf("r1: foreign file taken over: %v %q", errs[i], got)
		case i != 1 && (errs[i] != nil || rs[i].Added != 2 || string(got) != fmt.Sprintf("%d\n", i)):
			t.Errorf("r%d: %+v %v %q", i, rs[i], errs[i], got)
		}
	}
}

// Two batches of the same roots at once (two full builds: an overrun cron
// job), each given its roots in one order, never wait on each other in a
// circle: the locks are taken in the order given, one after the other.
// Both succeed, the later one planning again under the locks.
func TestBatchesOfTheSameRootsDoNotDeadlock(t *testing.T) {
	e := newEnv(t)
	const roots = 8
	plan := func(v string) []*Changes {
		var cs []*Changes
		for i := range roots {
			opt := e.opt()
			opt.LockWait = 2 * time.Second
			c, err := Plan(filepath.Join(e.base, fmt.Sprintf("r%d", i)), files("a.txt", v, "b/c.txt", v), opt)
			if err != nil || c.Err() != nil {
				t.Fatal(err, c.Err())
			}
			cs = append(cs, c)
		}
		return cs
	}
	for round := range 10 {
		batches := [][]*Changes{plan(fmt.Sprintf("%d x\n", round)), plan(fmt.Sprintf("%d y\n", round))}
		var wg sync.WaitGroup
		errs := make([][]error, 2)
		for b := range batches {
			wg.Go(func() { _, errs[b] = ApplyAll(batches[b]) })
		}
		wg.Wait()
		if err := errors.Join(append(errs[0], errs[1]...)...); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}
