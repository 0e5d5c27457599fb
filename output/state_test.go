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
)

func TestRecordLocationAndFormat(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("b.txt", "b\n", "a/x.txt", "x\n"), e.opt())
	name := recordName(e.root)
	if !regexp.MustCompile(`^outputs/([0-9a-f]{2})/([0-9a-f]{2})/([0-9a-f]{64})\.rec$`).MatchString(name) ||
		name[8:10] != name[14:16] || name[11:13] != name[16:18] {
		t.Errorf("record name %q", name)
	}
	got := mustRead(t, filepath.Join(e.state, name))
	want := "discgen output record 1\nroot " + e.root + "\nstate complete\nd a\n" +
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
	r, err := parseRecord([]byte(got), "rec")
	if err != nil || !bytes.Equal(r.marshal(), []byte(got)) {
		t.Errorf("round trip: %v\n%s", err, r.marshal())
	}
}

func hexSum(s string) string { return fileSum([]byte(s)).String()[2:] }

func TestCorruptRecordIsProblem(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "a\n"), e.opt())
	rec := filepath.Join(e.state, recordName(e.root))
	for _, bad := range []string{"", "garbage\n", "discgen output record 1\nroot /elsewhere\nstate complete\n",
		"discgen output record 1\nroot " + e.root + "\nstate complete\nf zz a.txt\n"} {
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
	if !isTempName(n) || !strings.HasPrefix(n, ".discgen-") || n == tempName() {
		t.Errorf("tempName %q", n)
	}
	for _, s := range []string{".discgen-.tmp", ".discgen-0123456789abcdeg.tmp", "discgen-0123456789abcdef.tmp", ".discgen-0123456789abcdef.tmp.x"} {
		if isTempName(s) {
			t.Errorf("%q taken for a temp name", s)
		}
	}
}

func TestStateTempFilesRemoved(t *testing.T) {
	e := newEnv(t)
	apply(t, e, files("a.txt", "1\n"), e.opt())
	dir := filepath.Dir(filepath.Join(e.state, recordName(e.root)))
	tmp := filepath.Join(dir, ".discgen-0011223344556677.tmp")
	mustWrite(t, tmp, "partial record")
	apply(t, e, files("a.txt", "1\n"), e.opt())
	if _, err := os.Lstat(tmp); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("temporary record left: %v", err)
	}
}
