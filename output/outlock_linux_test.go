package output

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/discgen/discgen/internal/statedir"
)

// A batch of many roots locks each in one file of the lock directory, not
// in a file a root: while three roots are written at once, the directory
// holds statedir.KeysFile alone, and it stays for the next build.
func TestOutputLocksInOneFile(t *testing.T) {
	base := t.TempDir()
	locks := filepath.Join(base, "locks")
	var (
		mu   sync.Mutex // the roots are written at once
		seen [][]string
	)
	h := &hooks{lockDir: locks, step: func(step, p string) error {
		if step == "write" {
			ents, err := os.ReadDir(locks)
			if err != nil {
				return err
			}
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			mu.Lock()
			seen = append(seen, names)
			mu.Unlock()
		}
		return nil
	}}
	var cs []*Changes
	for i := range 3 {
		root := filepath.Join(base, fmt.Sprint("public", i))
		c, err := Plan(root, files("a.txt", "a\n"), Options{StateDir: filepath.Join(base, fmt.Sprint("state", i)), NoSync: true, hooks: h})
		if err != nil || c.Err() != nil {
			t.Fatal(err, c.Err())
		}
		cs = append(cs, c)
	}
	w := NewWriter()
	defer w.Close()
	if _, errs := w.ApplyAll(cs); errs != nil && slices.ContainsFunc(errs, func(err error) bool { return err != nil }) {
		t.Fatal(errs)
	}
	if len(seen) != 3 {
		t.Fatalf("%d writes seen, want 3", len(seen))
	}
	for _, names := range seen {
		if !slices.Equal(names, []string{statedir.KeysFile}) {
			t.Errorf("lock directory while writing: %v, want [%s]", names, statedir.KeysFile)
		}
	}
}
