package output

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/tree"
)

func TestUnifiedDiffOfPlan(t *testing.T) {
	e := newEnv(t)
	var old, new strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&old, "line %d\n", i)
		switch i {
		case 2:
			new.WriteString("line two\n")
		case 15:
		default:
			fmt.Fprintf(&new, "line %d\n", i)
		}
	}
	new.WriteString("line 21\n")
	tr := files("a.txt", old.String(), "gone.txt", "bye\n", "same.txt", "s\n", "link", "")
	tr["link"] = tree.Entry{Link: "same.txt"}
	apply(t, e, tr, e.opt())
	tr = files("a.txt", new.String(), "new.txt", "hello\nworld", "same.txt", "s\n")
	tr["link"] = tree.Entry{Link: "a.txt"}
	c, err := Plan(e.root, tr, e.opt())
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.UnifiedDiff(&b); err != nil {
		t.Fatal(err)
	}
	want := `--- a/a.txt
+++ b/a.txt
@@ -1,5 +1,5 @@
 line 1
-line 2
+line two
 line 3
 line 4
 line 5
@@ -12,9 +12,9 @@
 line 12
 line 13
 line 14
-line 15
 line 16
 line 17
 line 18
 line 19
 line 20
+line 21
--- a/gone.txt
+++ /dev/null
@@ -1,1 +0,0 @@
-bye
--- a/link
+++ b/link
@@ -1,1 +1,1 @@
-same.txt
\ No newline at end of file
+a.txt
\ No newline at end of file
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+hello
+world
\ No newline at end of file
`
	if got := b.String(); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	var list bytes.Buffer
	c.WriteList(&list, "")
	if got := list.String(); got != "update a.txt\nremove gone.txt\nupdate link\nadd new.txt\n" {
		t.Errorf("list:\n%s", got)
	}
	// No difference, no output.
	apply(t, e, tr, e.opt())
	c, _ = Plan(e.root, tr, e.opt())
	b.Reset()
	c.UnifiedDiff(&b)
	if b.Len() != 0 || !c.Empty() {
		t.Errorf("diff of an up-to-date tree:\n%s", b.String())
	}
}

func TestUnifiedDiffBinary(t *testing.T) {
	var b bytes.Buffer
	c := &Changes{List: []Change{{Kind: Add, Path: "x.bin", New: &tree.Entry{Data: []byte("a\x00b")}}}}
	c.UnifiedDiff(&b)
	if got := b.String(); got != "Binary files /dev/null and b/x.bin differ\n" {
		t.Errorf("got %q", got)
	}
}

func randLines(r *rand.Rand, n, alphabet int) []string {
	ls := make([]string, n)
	for i := range ls {
		ls[i] = strconv.Itoa(r.IntN(alphabet)) + "\n"
	}
	return ls
}

// applyUnified applies the hunks of a one-file unified diff d to old, as
// patch -F0 would: every context and removed line must be where the hunk
// header says.
func applyUnified(old, d string) (string, error) {
	lines := strings.SplitAfter(old, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	at := 0 // next line of old to copy
	ds := strings.SplitAfter(d, "\n")
	if len(ds) < 2 || !strings.HasPrefix(ds[0], "--- ") || !strings.HasPrefix(ds[1], "+++ ") {
		return "", fmt.Errorf("no header")
	}
	for i := 2; i < len(ds) && ds[i] != ""; {
		var a, an, b, bn int
		h := ds[i]
		if _, err := fmt.Sscanf(h, "@@ -%d,%d +%d,%d @@\n", &a, &an, &b, &bn); err != nil {
			return "", fmt.Errorf("hunk header %q: %v", h, err)
		}
		start := a - 1
		if an == 0 {
			start = a
		}
		if start < at {
			return "", fmt.Errorf("hunk %q overlaps", h)
		}
		out = append(out, lines[at:start]...)
		at = start
		for i++; i < len(ds) && ds[i] != "" && !strings.HasPrefix(ds[i], "@@"); i++ {
			l := ds[i]
			if strings.HasPrefix(l, "\\") { // no newline at the end of the line before
				if ds[i-1][0] != '-' {
					out[len(out)-1] = strings.TrimSuffix(out[len(out)-1], "\n")
				}
				continue
			}
			switch l[0] {
			case ' ', '-':
				want := l[1:]
				if i+1 < len(ds) && strings.HasPrefix(ds[i+1], "\\") {
					want = strings.TrimSuffix(want, "\n")
				}
				if at >= len(lines) || lines[at] != want {
					return "", fmt.Errorf("line %d: %q does not match", at+1, l)
				}
				at++
				if l[0] == ' ' {
					out = append(out, l[1:])
				}
			case '+':
				out = append(out, l[1:])
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
		}
	}
	out = append(out, lines[at:]...)
	return strings.Join(out, ""), nil
}

// TestUnifiedDiffRebuilds applies the diffs of random pairs of files,
// with and without final newlines, and checks that each turns the old file
// into the new one.
func TestUnifiedDiffRebuilds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		a, b := randLines(r, r.IntN(30), 1+r.IntN(6)), randLines(r, r.IntN(30), 1+r.IntN(6))
		old, new := strings.Join(a, ""), strings.Join(b, "")
		if r.IntN(3) == 0 && len(old) > 0 {
			old = old[:len(old)-1]
		}
		if r.IntN(3) == 0 && len(new) > 0 {
			new = new[:len(new)-1]
		}
		var d bytes.Buffer
		writeUnified(&d, "a/f", "b/f", []byte(old), []byte(new))
		got, err := applyUnified(old, d.String())
		if err != nil || got != new {
			t.Fatalf("case %d: %v\nold=%q\nnew=%q\ngot=%q\ndiff:\n%s", i, err, old, new, got, d.String())
		}
	}
}

// TestUnifiedDiffAppliesWithPatch feeds the diff to patch(1): it must turn
// the old file into the new one exactly, including missing final newlines
// and the non-minimal fallback for large differences.
func TestUnifiedDiffAppliesWithPatch(t *testing.T) {
	testenv.NeedsTool(t, "patch", "apt-get install patch")
	r := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	n := 60
	if !testenv.Long() {
		n = 15
	}
	for i := range n {
		a, b := randLines(r, r.IntN(80), 1+r.IntN(10)), randLines(r, r.IntN(80), 1+r.IntN(10))
		if i == 0 {
			a, b = randLines(r, 4000, 1<<30), randLines(r, 4000, 1<<30) // every line differs
		}
		old, new := strings.Join(a, ""), strings.Join(b, "")
		if r.IntN(3) == 0 && len(old) > 0 {
			old = old[:len(old)-1]
		}
		if r.IntN(3) == 0 && len(new) > 0 {
			new = new[:len(new)-1]
		}
		if old == new {
			continue
		}
		var d bytes.Buffer
		writeUnified(&d, "a/f.txt", "b/f.txt", []byte(old), []byte(new))
		f := filepath.Join(dir, "f.txt")
		os.WriteFile(f, []byte(old), 0o644)
		cmd := exec.Command("patch", "-s", "-p1", "--no-backup-if-mismatch", "-F0")
		cmd.Dir, cmd.Stdin = dir, &d
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch: %v\n%s\ndiff:\n%s", i, err, out, d.String())
		}
		if got, _ := os.ReadFile(f); string(got) != new {
			t.Fatalf("case %d: patched file differs\ndiff:\n%s", i, d.String())
		}
	}
}

// BenchmarkUnifiedDiff diffs two files of 4,000 lines that differ in every
// line.
func BenchmarkUnifiedDiff(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	old := []byte(strings.Join(randLines(r, 4000, 1<<30), ""))
	new := []byte(strings.Join(randLines(r, 4000, 1<<30), ""))
	b.ReportAllocs()
	for b.Loop() {
		var d bytes.Buffer
		writeUnified(&d, "a/f.txt", "b/f.txt", old, new)
	}
}
