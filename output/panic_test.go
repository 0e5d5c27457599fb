package output

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/discgen/discgen/tree"
)

// bugAt matches the location a bug's message gives: a file of output's.
var bugAt = regexp.MustCompile(`\(at output/[a-z_]+\.go:\d+\)$`)

// A panic while ApplyAll works on one root of a batch, in any of its
// goroutines (a root's own, or one of the writers of a large tree), is
// that root's error, saying it is a bug in discgen and where: the other
// roots of the batch are published and recorded, nothing the failed
// root's writes left is disowned, and the next build completes it.
func TestApplyPanicFailsOneRoot(t *testing.T) {
	for _, c := range []struct {
		step  string
		files int // in the root that panics: more than fewToWrite are written by several writers
	}{
		{"write", 3}, {"write", 2 * fewToWrite}, {"rename", 3}, {"rename", 2 * fewToWrite},
	} {
		t.Run(fmt.Sprintf("%s/%d", c.step, c.files), func(t *testing.T) {
			e := newEnv(t)
			trees := make([]tree.Tree, 4)
			for i := range trees {
				trees[i] = files("a.txt", fmt.Sprintf("r%d\n", i))
			}
			for k := range c.files {
				trees[1][fmt.Sprintf("d/%03d.txt", k)] = tree.Entry{Data: []byte("many\n")}
			}
			trees[1]["d/boom.txt"] = tree.Entry{Data: []byte("boom\n")}
			plan := func() []*Changes {
				var cs []*Changes
				for i, tr := range trees {
					opt := e.opt()
					opt.Record = fmt.Sprintf("r%d", i)
					c, err := Plan(filepath.Join(e.base, opt.Record), tr, opt)
					if err != nil || c.Err() != nil {
						t.Fatal(err, c.Err())
					}
					cs = append(cs, c)
				}
				return cs
			}
			h := &hooks{step: func(step, p string) error {
				if step == c.step && p == "d/boom.txt" {
					panic("boom")
				}
				return nil
			}}
			cs := plan()
			for _, c := range cs {
				c.opt.hooks = h
			}
			_, errs := ApplyAll(cs)
			for i, err := range errs {
				root := filepath.Join(e.base, fmt.Sprintf("r%d", i))
				if i == 1 {
					want := root + ": internal error (a bug in discgen; please report it): boom (at output/"
					if err == nil || !strings.HasPrefix(err.Error(), want) || !bugAt.MatchString(err.Error()) {
						t.Errorf("r1: %v, want %q...", err, want)
					}
					continue
				}
				if err != nil {
					t.Errorf("r%d beside r1's panic: %v", i, err)
				} else if got := mustRead(t, filepath.Join(root, "a.txt")); got != fmt.Sprintf("r%d\n", i) {
					t.Errorf("r%d/a.txt = %q", i, got)
				}
			}
			// The next build completes r1: what the panic left is
			// discgen's.
			if _, errs := ApplyAll(plan()); errors.Join(errs...) != nil {
				t.Fatalf("the next build: %v", errors.Join(errs...))
			}
			if got := mustRead(t, filepath.Join(e.base, "r1", "d", "boom.txt")); got != "boom\n" {
				t.Errorf("r1/d/boom.txt = %q", got)
			}
			if js := journals(t, e.state); len(js) != 0 {
				t.Errorf("journals left: %v", js)
			}
		})
	}
}
