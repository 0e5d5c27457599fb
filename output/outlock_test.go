//go:build unix

package output

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/tree"
)

// Two builds of one output root with different state directories, and
// different trees, applied at once: one writer at a time, so the root
// ends as one serial order of the two would leave it. Without Replace,
// the second refuses the first's files; with it, the second's tree
// replaces the first's whole. Each build, once it writes its first file,
// waits a little for the other to get that far too, which the other can
// only do while the first holds no lock on the root, and each pauses
// before each rename, so that two builds publishing at once interleave.
func TestTwoStatesOneRootNeverInterleave(t *testing.T) {
	const paths = 8
	for _, replace := range []bool{false, true} {
		for run := range 20 {
			base := t.TempDir()
			root := filepath.Join(base, "public")
			var trees [2]tree.Tree
			for i := range trees {
				var kv []string
				for p := range paths {
					kv = append(kv, fmt.Sprintf("d/f%d.txt", p), fmt.Sprintf("build %d\n", i))
				}
				trees[i] = files(kv...)
			}
			var plans [2]*Changes
			for i := range plans {
				c, err := Plan(root, trees[i], Options{StateDir: filepath.Join(base, fmt.Sprint("state", i)), Replace: replace, NoSync: true})
				if err != nil || c.Err() != nil {
					t.Fatal(err, c.Err())
				}
				plans[i] = c
			}
			var arrived atomic.Int32
			both := make(chan struct{})
			h := &hooks{step: func(step, p string) error {
				if step == "write" && p == "d/f0.txt" {
					if arrived.Add(1) == 2 {
						close(both)
					}
					select {
					case <-both:
					case <-time.After(30 * time.Millisecond):
					}
				}
				if step == "rename" {
					// Renames of two builds at once interleave.
					time.Sleep(2 * time.Millisecond)
				}
				return nil
			}}
			for _, c := range plans {
				c.opt.hooks = h
			}
			var errs [2]error
			var wg sync.WaitGroup
			for i := range plans {
				wg.Go(func() {
					w := NewWriter()
					defer w.Close()
					_, errs[i] = w.Apply(plans[i])
				})
			}
			wg.Wait()
			got := map[string]int{}
			for p := range paths {
				data, err := os.ReadFile(filepath.Join(root, "d", fmt.Sprintf("f%d.txt", p)))
				if err != nil {
					t.Fatal(err)
				}
				got[string(data)]++
			}
			if len(got) != 1 {
				t.Errorf("replace=%v, run %d: the root holds files of both builds: %v (errors %v)", replace, run, got, errs)
			}
			if !replace && errs[0] == nil && errs[1] == nil {
				t.Errorf("run %d: both builds wrote the root without Replace", run)
			}
			if t.Failed() {
				return
			}
		}
	}
}

// The directory of a user's output-root locks is that user's alone: made
// mode 0700, no lock file of a root left there; one another account made
// first refuses the root, and nothing is written.
func TestOutputLockDirIsPrivate(t *testing.T) {
	base := t.TempDir()
	locks := filepath.Join(base, "locks")
	root := filepath.Join(base, "public")
	if _, _, err := Write(root, files("a.txt", "a\n"), Options{StateDir: filepath.Join(base, "state"), NoSync: true, hooks: &hooks{lockDir: locks}}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(locks)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != os.ModeDir|0o700 {
		t.Errorf("%s: %v, want a directory of mode 0700", locks, fi.Mode())
	}
	// On Linux, the locks of every root are bytes of one kept file;
	// elsewhere a file a root, removed on release.
	var kept []string
	if runtime.GOOS == "linux" {
		kept = []string{statedir.KeysFile}
	}
	var left []string
	ents, _ := os.ReadDir(locks)
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if !slices.Equal(left, kept) {
		t.Errorf("locks left once the build ended: %v, want %v", left, kept)
	}
	if os.Geteuid() != 0 {
		return
	}

	// Made first by another account (uid 4321).
	theirs := filepath.Join(base, "theirs")
	if err := os.Mkdir(theirs, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 4321, 4321); err != nil {
		t.Fatal(err)
	}
	_, _, err = Write(root, files("a.txt", "b\n"), Options{StateDir: filepath.Join(base, "state"), NoSync: true, hooks: &hooks{lockDir: theirs}})
	if err == nil || !strings.Contains(err.Error(), "is not this user's alone") {
		t.Errorf("a build locking in another account's directory: %v", err)
	}
	if got := mustRead(t, filepath.Join(root, "a.txt")); got != "a\n" {
		t.Errorf("a.txt = %q, written without the root's lock", got)
	}
}

// The lock directory is found this user's alone once per Writer, not once
// per process: a build of a long-running process (a Writer for each save)
// whose directory was removed since an earlier build, and made by another
// account meanwhile, refuses the root.
func TestOutputLockDirCheckedEachBuild(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Unsupported(t, "making a directory another account's takes root")
	}
	base := t.TempDir()
	locks := filepath.Join(base, "locks")
	root := filepath.Join(base, "public")
	opt := Options{StateDir: filepath.Join(base, "state"), NoSync: true, hooks: &hooks{lockDir: locks}}
	build := func(data string) error {
		w := NewWriter()
		defer w.Close()
		c, err := Plan(root, files("a.txt", data), opt)
		if err != nil {
			return err
		}
		_, err = w.Apply(c)
		return err
	}
	if err := build("a\n"); err != nil {
		t.Fatal(err)
	}
	// Removed, and made first by another account (uid 4321).
	if err := os.RemoveAll(locks); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(locks, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(locks, 4321, 4321); err != nil {
		t.Fatal(err)
	}
	if err := build("b\n"); err == nil || !strings.Contains(err.Error(), "is not this user's alone") {
		t.Errorf("a later build locking in the directory another account made since: %v", err)
	}
	if got := mustRead(t, filepath.Join(root, "a.txt")); got != "a\n" {
		t.Errorf("a.txt = %q, written with its lock in another account's directory", got)
	}
}
