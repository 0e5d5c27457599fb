package output

import (
	"os"
	"testing"

	"github.com/discgen/discgen/output/internal/record"
)

// The package's tests apply with one Writer for the test binary, through
// these shorthands.
var testWriter = NewWriter()

func (c *Changes) Apply() (Result, error)        { return testWriter.Apply(c) }
func ApplyAll(cs []*Changes) ([]Result, []error) { return testWriter.ApplyAll(cs) }
func Flush() error                               { return testWriter.Flush() }

// Two Writers share nothing: a journal one retired waits for that one's
// Flush, not the other's, and one closed without a flush leaves its
// journal for Recover.
func TestWritersAreIndependent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	opt := e.opt()
	syncfsBatches(t, &opt)
	opt.NoSync = false
	a, b := NewWriter(), NewWriter()
	defer b.Close()
	c, err := Plan(e.root, files("a.txt", "1\n"), opt)
	if err != nil || c.Err() != nil {
		t.Fatal(err, c.Err())
	}
	if _, err := a.Apply(c); err != nil {
		t.Fatal(err)
	}
	left := journals(t, e.state)
	if len(left) != 1 {
		t.Fatalf("%d journals wait for a flush, want 1", len(left))
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if js := journals(t, e.state); len(js) != 1 {
		t.Errorf("another Writer's Flush removed the journal: %v", js)
	}
	a.Close()
	if _, err := os.Stat(left[0]); err != nil {
		t.Errorf("Close removed the waiting journal: %v", err)
	}
	if _, _, err := Recover(e.state); err != nil {
		t.Fatal(err)
	}
	if js := journals(t, e.state); len(js) != 0 {
		t.Errorf("journals after Recover: %v", js)
	}
	// Recover cannot know whether the renames reached the disk: the
	// root owns what its intent named, for the next build to settle.
	if rec, err := readRecord(e.state, e.root); err != nil || !rec.Owns("a.txt", record.FileSum([]byte("1\n"))) {
		t.Errorf("record after Recover: %+v %v", rec, err)
	}
}
