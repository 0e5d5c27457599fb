package output

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/discgen/discgen/tree"
)

// diffContext is the number of unchanged lines around each hunk.
const diffContext = 3

// maxEdits bounds the Myers search; beyond it the differing middle of the
// two files is shown as removed and re-added, which is correct but not
// minimal.
const maxEdits = 1500

// UnifiedDiff writes the changes (adds, updates, removes) as a unified diff,
// in path order: "--- a/PATH" and "+++ b/PATH" headers, /dev/null for an
// absent side, and hunks with three lines of context. A symlink shows as its
// target without a final newline. Files with a NUL byte, or too large to
// have been read, show as "Binary files ... differ".
//
// The diff compares the wanted bytes with the disk whatever the ownership
// record holds: files a build would refuse to take over (problems of kind
// Foreign and Modified, listed by Err) are shown too, as --replace would
// change them. Other problems have no diff.
func (c *Changes) UnifiedDiff(w io.Writer) error {
	bw := bufio.NewWriter(w)
	all := c.List
	if len(c.refused) > 0 {
		all = append(slices.Clone(c.List), c.refused...)
		slices.SortStableFunc(all, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	}
	for _, ch := range all {
		if ch.Kind < Add {
			continue
		}
		from, to := "a/"+ch.Path, "b/"+ch.Path
		var old, new []byte
		if ch.Old == nil {
			from = "/dev/null"
		} else {
			old = content(*ch.Old)
		}
		if ch.New == nil {
			to = "/dev/null"
		} else {
			new = content(*ch.New)
		}
		if ch.oldLarge || bytes.IndexByte(old, 0) >= 0 || bytes.IndexByte(new, 0) >= 0 {
			fmt.Fprintf(bw, "Binary files %s and %s differ\n", from, to)
			continue
		}
		if ch.Old != nil && ch.New != nil && (ch.Old.Link == "") != (ch.New.Link == "") && bytes.Equal(old, new) {
			fmt.Fprintf(bw, "File %s is a %s while file %s is a %s\n", from, entryType(*ch.Old), to, entryType(*ch.New))
			continue
		}
		writeUnified(bw, from, to, old, new)
	}
	return bw.Flush()
}

func content(e tree.Entry) []byte {
	if e.Link != "" {
		return []byte(e.Link)
	}
	return e.Data
}

func entryType(e tree.Entry) string {
	if e.Link != "" {
		return "symbolic link"
	}
	return "regular file"
}

// splitLines splits b into lines that keep their "\n"; a last line without
// one is kept as is.
func splitLines(b []byte) []string {
	var ls []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n') + 1
		if i == 0 {
			i = len(b)
		}
		ls = append(ls, string(b[:i]))
		b = b[i:]
	}
	return ls
}

// edit is one line of a line diff: ' ' kept, '-' only in a, '+' only in b.
type edit struct {
	op   byte
	line string
}

// lineDiff returns a shortest edit script from a to b (Myers' O(ND)
// algorithm), after trimming the common prefix and suffix.
func lineDiff(a, b []string) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var es []edit
	for _, l := range a[:pre] {
		es = append(es, edit{' ', l})
	}
	es = append(es, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		es = append(es, edit{' ', l})
	}
	return es
}

func myers(a, b []string) []edit {
	n, m := len(a), len(b)
	// trace[d] holds, for k in [-d-1, d+1], the furthest x reached on
	// diagonal k after d-1 edits, at index k+d+1.
	var trace [][]int
	v := map[int]int{1: 0}
	found := false
	for d := 0; d <= n+m && d <= maxEdits && !found; d++ {
		snap := make([]int, 2*d+3)
		for k := -d - 1; k <= d+1; k++ {
			snap[k+d+1] = v[k]
		}
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[k-1] < v[k+1]) {
				x = v[k+1]
			} else {
				x = v[k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	if !found {
		var es []edit
		for _, l := range a {
			es = append(es, edit{'-', l})
		}
		for _, l := range b {
			es = append(es, edit{'+', l})
		}
		return es
	}
	var rev []edit
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		at := func(k int) int { return trace[d][k+d+1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, edit{' ', a[x]})
		}
		if d == 0 {
			break
		}
		if x == px {
			y--
			rev = append(rev, edit{'+', b[y]})
		} else {
			x--
			rev = append(rev, edit{'-', a[x]})
		}
	}
	es := make([]edit, len(rev))
	for i, e := range rev {
		es[len(rev)-1-i] = e
	}
	return es
}

// writeUnified writes the header and hunks of one file's diff.
func writeUnified(w io.Writer, from, to string, old, new []byte) {
	es := lineDiff(splitLines(old), splitLines(new))
	fmt.Fprintf(w, "--- %s\n+++ %s\n", from, to)
	// aAt[i] and bAt[i] are the 0-based line numbers in a and b before
	// edit i.
	aAt, bAt := make([]int, len(es)+1), make([]int, len(es)+1)
	for i, e := range es {
		aAt[i+1], bAt[i+1] = aAt[i], bAt[i]
		if e.op != '+' {
			aAt[i+1]++
		}
		if e.op != '-' {
			bAt[i+1]++
		}
	}
	for i := 0; i < len(es); {
		if es[i].op == ' ' {
			i++
			continue
		}
		start := max(0, i-diffContext)
		end := i // one past the last change of the hunk
		for j := i; j < len(es); j++ {
			if es[j].op != ' ' {
				end = j + 1
			} else if j-end >= 2*diffContext {
				break
			}
		}
		stop := min(len(es), end+diffContext)
		fmt.Fprintf(w, "@@ -%s +%s @@\n",
			hunkRange(aAt[start], aAt[stop]-aAt[start]), hunkRange(bAt[start], bAt[stop]-bAt[start]))
		for _, e := range es[start:stop] {
			w.Write([]byte{e.op})
			io.WriteString(w, e.line)
			if !strings.HasSuffix(e.line, "\n") {
				io.WriteString(w, "\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
}

// hunkRange formats a hunk's line range as GNU diff does: "l,n", or "l"
// when n is 1; an empty range names the line before it.
func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
