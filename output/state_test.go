package output

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/output/internal/record"
)

func TestRecordLocationAndFormat(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("b.txt", "b\n", "a/x.txt", "x\n"), e.opt())
	// The record is named by the root relative to the state directory's
	// parent: "public", the same on any machine.
	name := record.Base("public") + ".rec"
	if !regexp.MustCompile(`^records/([0-9a-f]{2})/([0-9a-f]{2})/([0-9a-f]{64})\.rec$`).MatchString(name) ||
		name[8:10] != name[14:16] || name[11:13] != name[16:18] {
		t.Errorf("record name %q", name)
	}
	got := mustRead(t, filepath.Join(e.state, name))
	want := "discgen output record 2\nname public\nstate complete\nd a\n" +
		"f " + hexSum("x\n") + " a/x.txt\n" +
		"f " + hexSum("b\n") + " b.txt\n"
	if got != want {
		t.Errorf("record:\n%s\nwant:\n%s", got, want)
	}
	// Nothing of discgen's lands in the output root.
	ents, _ := os.ReadDir(e.root)
	var names []string
	for _, d := range ents {
		names = append(names, d.Name())
	}
	if !slices.Equal(names, []string{"a", "b.txt"}) {
		t.Errorf("root holds %q", names)
	}
	if strings.Contains(got, e.base) {
		t.Errorf("record holds an absolute path:\n%s", got)
	}
	r, _, err := record.Parse([]byte(got), "rec")
	if err != nil || !bytes.Equal(r.Marshal(), []byte(got)) {
		t.Errorf("round trip: %v\n%s", err, r.Marshal())
	}
}

func hexSum(s string) string { return record.FileSum([]byte(s)).String()[2:] }

func TestCorruptRecordIsProblem(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "a\n"), e.opt())
	rec := filepath.Join(e.state, record.Base("public")+".rec")
	for _, bad := range []string{"", "garbage\n", "discgen output record 2\nname elsewhere\nstate complete\n",
		"discgen output record 2\nname public\nstate complete\nf zz a.txt\n",
		"discgen output record 2\nname public\nstate incomplete\nt a.txt\n"} {
		os.WriteFile(rec, []byte(bad), 0o644)
		_, _, err := Write(e.root, files("a.txt", "b\n"), e.opt())
		// Without a record, a.txt is not known to be discgen's.
		if got := problems(t, err); !slices.Equal(got, []string{"bad state ", "foreign file a.txt"}) {
			t.Errorf("record %q: problems %q", bad, got)
		}
		if mustRead(t, e.path("a.txt")) != "a\n" {
			t.Fatal("a.txt written despite a corrupt record")
		}
	}
}

func TestTempNames(t *testing.T) {
	n := tempName()
	if !record.IsTempName(n) || !strings.HasPrefix(n, ".htdiscgen-") || n == tempName() {
		t.Errorf("tempName %q", n)
	}
}

func TestStateTempFilesReplaced(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n"), e.opt())
	// A killed build may leave the record's temporary file; the next
	// record written reuses the name, so none accumulates.
	rec := filepath.Join(e.state, record.Base("public")+".rec")
	mustWrite(t, rec+".tmp", "partial record")
	apply(t, e, files("a.txt", "2\n"), e.opt())
	if _, err := os.Lstat(rec + ".tmp"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("temporary record left: %v", err)
	}
	if got, err := readRecord(e.state, e.root); err != nil || !got.Owns("a.txt", record.FileSum([]byte("2\n"))) {
		t.Errorf("record %+v, %v", got, err)
	}
}
