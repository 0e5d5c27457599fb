//go:build linux

package output

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// A plan made again under the lock (another build wrote the root since
// the first plan) that fails leaves the root to the plan it replaced,
// which closes it once: Apply fails, and no descriptor stays open, with
// the root opened by path or given by the caller (Options.Dir, which
// stays open and usable).
func TestReplanFailureLeaksNoHandle(t *testing.T) {
	for _, given := range []bool{false, true} {
		name := "by path"
		if given {
			name = "Options.Dir"
		}
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			apply(t, e, files("d/a.txt", "1\n", "e/b.txt", "1\n"), e.opt())
			opt := e.opt()
			if given {
				dir, err := os.OpenRoot(e.root)
				if err != nil {
					t.Fatal(err)
				}
				defer dir.Close()
				opt.Dir = dir
			}
			base := openFDs(t)
			c, err := Plan(e.root, files("d/a.txt", "3\n", "e/b.txt", "3\n"), opt)
			if err != nil || c.Err() != nil {
				t.Fatal(err, c.Err())
			}
			// Another build writes the root: Apply plans it again, and
			// that plan fails once it has opened a directory.
			apply(t, e, files("d/a.txt", "2\n", "e/b.txt", "2\n"), e.opt())
			injected := errors.New("injected failure")
			planned := 0
			c.opt.hooks = &hooks{plan: func(d string) error {
				planned++
				if d == "e" {
					return injected
				}
				return nil
			}}
			_, err = c.Apply()
			if err == nil || !strings.Contains(err.Error(), "injected failure") || planned < 2 {
				t.Fatalf("Apply with its plan made again failing: %v (directories planned: %d)", err, planned)
			}
			if got := openFDs(t); got != base {
				t.Errorf("%d descriptors open after the failed Apply, %d before its Plan", got, base)
			}
			if given {
				if _, err := opt.Dir.Stat("d/a.txt"); err != nil {
					t.Errorf("the caller's root after the failed Apply: %v", err)
				}
			}
			if got := mustRead(t, e.path("d/a.txt")); got != "2\n" {
				t.Errorf("d/a.txt = %q, want the other build's", got)
			}
			// The root is whole, and the next build writes it.
			apply(t, e, files("d/a.txt", "4\n", "e/b.txt", "4\n"), opt)
			if got := mustRead(t, e.path("e/b.txt")); got != "4\n" {
				t.Errorf("e/b.txt = %q after the next build", got)
			}
		})
	}
}
