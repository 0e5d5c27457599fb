//go:build linux

package output

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/tree"
)

// openFDs counts the descriptors this process has open.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// fdBound is the most descriptors one root's Plan and Apply may hold at
// once beyond those open before, whatever the number of directories: the
// written files kept open until their rename, a directory per writer, the
// plan's handles, and a few more (the root, its lock, the journal, the
// count's own read of /proc/self/fd in each writer).
const fdBound = maxHeld + 2*writers + confined.MaxHandles + 16

// peakFDs records, at every step of Apply on a file of a plan made with
// opt (and of one made with it before), the most descriptors open at once.
func peakFDs(opt *Options) (peak func() int) {
	var mu sync.Mutex
	n := 0
	if opt.hooks == nil {
		opt.hooks = &hooks{}
	}
	opt.hooks.step = func(step, p string) error {
		ents, err := os.ReadDir("/proc/self/fd")
		mu.Lock()
		n = max(n, len(ents))
		mu.Unlock()
		return err
	}
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

// manyDirsTree is one file in each of n directories two levels deep,
// like the autodisc directories of n inline delegatees.
func manyDirsTree(n int, version string) tree.Tree {
	t := tree.Tree{}
	for i := range n {
		t[fmt.Sprintf("d%05d/autodisc/index.txt", i)] = tree.Entry{Data: []byte(version + " " + fmt.Sprint(i) + "\n")}
	}
	return t
}

// The descriptors a root's plan and apply hold do not grow with the
// number of directories of its tree: a plan waiting for its Apply holds
// its root only, and Apply opens a directory for the files it writes,
// publishes or removes there, and closes it after.
func TestDescriptorsBounded(t *testing.T) {
	const n = 1000 // 2,001 directories, far beyond fdBound
	dir := t.TempDir()
	root := filepath.Join(dir, "public")
	opt := Options{StateDir: filepath.Join(dir, "state"), NoSync: true}
	base := openFDs(t)

	// A first build creates every directory.
	peak := peakFDs(&opt)
	if _, res, err := Write(root, manyDirsTree(n, "one"), opt); err != nil || res.Added != n {
		t.Fatalf("first build: %+v %v", res, err)
	}
	t.Logf("first build: at most %d descriptors beyond the %d before", peak()-base, base)
	if got := peak() - base; got > fdBound {
		t.Errorf("first build: %d descriptors open at once beyond the %d before, want at most %d", got, base, fdBound)
	}

	// A plan of a tree whose directories all exist holds none of them.
	next := manyDirsTree(n, "two")
	for i := range n / 3 {
		delete(next, fmt.Sprintf("d%05d/autodisc/index.txt", i))
	}
	c, err := Plan(root, next, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := openFDs(t) - base; got > 2 {
		t.Errorf("a plan waiting for its Apply holds %d descriptors, want at most 2 (its root)", got)
	}

	// Its Apply updates two thirds of the files and removes the others
	// with their directories.
	peak = peakFDs(&opt)
	res, err := c.Apply()
	if err != nil || res.Updated != n-n/3 || res.Removed != n/3 || res.DirsRemoved != 2*(n/3) {
		t.Fatalf("second build: %+v %v", res, err)
	}
	t.Logf("second build: at most %d descriptors beyond the %d before", peak()-base, base)
	if got := peak() - base; got > fdBound {
		t.Errorf("second build: %d descriptors open at once beyond the %d before, want at most %d", got, base, fdBound)
	}
	if got := openFDs(t) - base; got > 0 {
		t.Errorf("%d descriptors left open after Apply", got)
	}
	if b, err := os.ReadFile(filepath.Join(root, fmt.Sprintf("d%05d/autodisc/index.txt", n-1))); err != nil || string(b) != fmt.Sprintf("two %d\n", n-1) {
		t.Errorf("last file: %q %v", b, err)
	}
}

// A directory is not kept open from the writing of its temporary files to
// their renames, so one replaced meanwhile (by another directory, or by a
// symlink to the one moved away) is refused when opened again: nothing is
// published in it, nor in the directory moved away.
func TestReplacedDirectoryRefused(t *testing.T) {
	for _, how := range []string{"directory", "symlink"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			root := filepath.Join(dir, "public")
			opt := Options{StateDir: filepath.Join(dir, "state"), NoSync: true}
			tr := tree.Tree{"a/x.txt": {Data: []byte("x\n")}, "b/y.txt": {Data: []byte("y\n")}}
			opt.hooks = &hooks{step: func(step, p string) error {
				if step != "write" || p != "b/y.txt" {
					return nil
				}
				// a's temporary file is written: swap a.
				a := filepath.Join(root, "a")
				if err := os.Rename(a, a+".old"); err != nil {
					return err
				}
				if how == "symlink" {
					return os.Symlink("a.old", a)
				}
				return os.Mkdir(a, 0o755)
			}}
			_, res, err := Write(root, tr, opt)
			if err == nil {
				t.Fatalf("applied over a replaced directory: %+v", res)
			}
			t.Log(err)
			for _, p := range []string{"a/x.txt", "a.old/x.txt"} {
				if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
					t.Errorf("%s published", p)
				}
			}
		})
	}
}
