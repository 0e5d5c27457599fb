package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/discgen/discgen/output/internal/record"
)

// The tests of format 1 records (record_format1.go), which go with it.

// A format 1 record, keyed by the absolute root, is taken over once.
func TestRecordFormat1Migrated(t *testing.T) {
	e := newEnv(t)
	mustWrite(t, e.path("a.txt"), "old\n")
	v1 := filepath.Join(e.state, record.Base1(e.root)+".rec")
	mustWrite(t, v1, "discgen output record 1\nroot "+e.root+"\nstate complete\nf "+hexSum("old\n")+" a.txt\n")
	// Without the old record, a.txt would be foreign.
	_, res := apply(t, e, files("a.txt", "new\n"), e.opt())
	if res.Updated != 1 || mustRead(t, e.path("a.txt")) != "new\n" {
		t.Errorf("migrated record not honoured: %+v", res)
	}
	if _, err := os.Lstat(v1); !errors.Is(err, fs.ErrNotExist) {
		t.Error("format 1 record kept after migration")
	}
	if got, err := readRecord(e.state, e.root); err != nil || !got.Owns("a.txt", record.FileSum([]byte("new\n"))) {
		t.Errorf("format 2 record: %+v %v", got, err)
	}
	// Another root's format 1 record is not taken.
	other := filepath.Join(e.state, record.Base1(e.path("b"))+".rec")
	mustWrite(t, other, "discgen output record 1\nroot /elsewhere\nstate complete\n")
	opt := e.opt()
	opt.Record = "b"
	if _, _, err := Write(e.path("b"), files("x", "x\n"), opt); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(other); err != nil {
		t.Error("a format 1 record of another root was removed")
	}
}

// A format 1 record that appears in a state directory already looked in
// (one restored from a backup while a long-running process builds) is
// taken over: no memo of an earlier look outlives the plan that made it.
func TestRecordFormat1AfterLook(t *testing.T) {
	e := newEnv(t)
	// A plan of another root looks for format 1 records and finds none.
	other := e.opt()
	other.Record = "other"
	if _, _, err := Write(filepath.Join(e.base, "other"), files("x", "x\n"), other); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, e.path("a.txt"), "old\n")
	v1 := filepath.Join(e.state, record.Base1(e.root)+".rec")
	mustWrite(t, v1, "discgen output record 1\nroot "+e.root+"\nstate complete\nf "+hexSum("old\n")+" a.txt\n")
	c, err := Plan(e.root, files("a.txt", "new\n"), e.opt())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("the format 1 record written after the first look was not read: %v", err)
	}
	if res, err := c.Apply(); err != nil || res.Updated != 1 {
		t.Errorf("apply: %+v %v", res, err)
	}
}

// A root given a state directory of its own (FormerStateDir set) looks
// there for no format 1 record, which only a build's own state directory
// ever held: a first build of many new roots costs no stat for it per
// root. A format 1 record put there for the root is not taken.
func TestOwnStateLooksForNoFormat1(t *testing.T) {
	e := newEnv(t)
	opt := e.opt()
	opt.Record = "users/alice/public_html"
	opt.StateDir, opt.FormerStateDir = RootStateDir(e.state, opt.Record), e.state
	if _, err := PrepareRootState(opt.StateDir, opt.Record, nil); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, e.path("a.txt"), "old\n")
	v1 := filepath.Join(opt.StateDir, record.Base1(e.root)+".rec")
	mustWrite(t, v1, "discgen output record 1\nroot "+e.root+"\nstate complete\nf "+hexSum("old\n")+" a.txt\n")
	c, err := Plan(e.root, files("a.txt", "a\n"), opt)
	if err != nil {
		t.Fatal(err)
	}
	if c.Err() == nil {
		t.Errorf("a format 1 record in the root's own state directory %s was taken", opt.StateDir)
	}
}
