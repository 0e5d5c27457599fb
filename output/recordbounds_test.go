package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/output/internal/record"
)

// With Options.MaxPaths, a record holding more lines than a root may
// have paths is refused at the line past them, and one larger than
// MaxPaths KiB unread; a record within them is used. The root is refused,
// and nothing in it written.
func TestRecordMaxPaths(t *testing.T) {
	e := newEnv(t)
	opt := e.opt()
	opt.MaxPaths = 4
	apply(t, e, files("a/x.txt", "x\n", "b.txt", "b\n"), opt)
	rec := filepath.Join(e.state, record.Base("public")+".rec")
	good, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	// d a, f a/x.txt, f b.txt: 3 lines, and one more is allowed.
	one := fmt.Sprintf("f %s c.txt\n", hexSum("c\n"))
	if err := os.WriteFile(rec, append(good[:len(good):len(good)], one...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Write(e.root, files("a/x.txt", "x\n", "b.txt", "b2\n"), opt); err != nil {
		t.Fatalf("a record of 4 paths: %v", err)
	}
	good, _ = os.ReadFile(rec)
	var more strings.Builder
	more.Write(good)
	for i := range 2 {
		fmt.Fprintf(&more, "f %s p%d.txt\n", hexSum("p\n"), i)
	}
	for _, c := range []struct {
		name, data, want string
	}{
		{"lines", more.String(), rec + ":8: ownership record names more than 4 paths, more than this root may hold"},
		{"bytes", string(good) + strings.Repeat("d "+strings.Repeat("a", 9000)+"\n", 1), fmt.Sprintf("bytes, more than the %d bytes this root's record may hold; it is not read", 4*record.MaxPathBytes+4096)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(rec, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := Write(e.root, files("a/x.txt", "x\n", "b.txt", "b3\n"), opt)
			var pe *ProblemError
			if !errors.As(err, &pe) || pe.Problems[0].Kind != BadState || !strings.Contains(pe.Problems[0].Message, c.want) {
				t.Fatalf("got %v, want a bad state saying %q", err, c.want)
			}
			if got := mustRead(t, e.path("b.txt")); got != "b2\n" {
				t.Errorf("b.txt is %q, written past a refused record", got)
			}
		})
	}
}

// Options.Reserve is called before a record or stat cache is read with
// what reading and parsing it takes, and each reservation is given back.
func TestRecordReserve(t *testing.T) {
	e := newEnv(t)
	opt := e.opt()
	var tr = files()
	for i := range 300 {
		tr[fmt.Sprintf("d/%s%04d.txt", strings.Repeat("n", 200), i)] = files("x", "x\n")["x"]
	}
	apply(t, e, tr, opt)
	rec := filepath.Join(e.state, record.Base("public")+".rec")
	fi, err := os.Stat(rec)
	if err != nil || fi.Size() <= record.SmallState {
		t.Fatalf("the record: %v, %d bytes; want more than %d", err, fi.Size(), record.SmallState)
	}
	var got []int64
	held := 0
	opt.Reserve = func(n int64) func() {
		got = append(got, n)
		held++
		return func() { held-- }
	}
	opt.Key = "k"
	c, err := Plan(e.root, tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if len(got) != 2 || got[0] != fi.Size()*record.StateCostPerByte {
		t.Errorf("reserved %v, want the record's %d bytes × %d, then its stat cache's", got, fi.Size(), record.StateCostPerByte)
	}
	if held != 0 {
		t.Errorf("%d reservations not given back", held)
	}
}
