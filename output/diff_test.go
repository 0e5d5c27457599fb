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
@@ -1 +0,0 @@
-bye
--- a/link
+++ b/link
@@ -1 +1 @@
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

// lcs is the length of a longest common subsequence, by dynamic programming.
func lcs(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func randLines(r *rand.Rand, n, alphabet int) []string {
	ls := make([]string, n)
	for i := range ls {
		ls[i] = strconv.Itoa(r.IntN(alphabet)) + "\n"
	}
	return ls
}

func TestLineDiffIsMinimalAndCorrect(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		a, b := randLines(r, r.IntN(30), 1+r.IntN(6)), randLines(r, r.IntN(30), 1+r.IntN(6))
		es := lineDiff(a, b)
		var gotA, gotB []string
		changes := 0
		for _, e := range es {
			if e.op != '+' {
				gotA = append(gotA, e.line)
			}
			if e.op != '-' {
				gotB = append(gotB, e.line)
			}
			if e.op != ' ' {
				changes++
			}
		}
		if strings.Join(gotA, "") != strings.Join(a, "") || strings.Join(gotB, "") != strings.Join(b, "") {
			t.Fatalf("case %d: script does not rebuild the inputs\na=%q\nb=%q", i, a, b)
		}
		if want := len(a) + len(b) - 2*lcs(a, b); changes != want {
			t.Fatalf("case %d: %d changed lines, minimal is %d\na=%q\nb=%q", i, changes, want, a, b)
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
			a, b = randLines(r, 4000, 1<<30), randLines(r, 4000, 1<<30) // beyond maxEdits
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
