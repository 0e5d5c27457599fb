package output

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/discgen/discgen/tree"
	"github.com/rogpeppe/go-internal/diff"
)

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

// writeUnified writes the header and hunks of one file's diff: an anchored
// diff (go-internal's diff package, after Go's internal/diff), which runs
// in O(n log n) whatever the two files are; its own header lines are
// replaced by discgen's, which name /dev/null for an absent side.
func writeUnified(w io.Writer, from, to string, old, new []byte) {
	fmt.Fprintf(w, "--- %s\n+++ %s\n", from, to)
	d := diff.Diff("a", old, "b", new) // "diff a b", "--- a", "+++ b", hunks
	for range 3 {
		_, d, _ = bytes.Cut(d, []byte("\n"))
	}
	w.Write(d)
}

// FirstLine returns where an Update first differs in the file on disk,
// for an annotation: the 1-based line, and whether the file on disk ends
// before the difference (every line of it stands and lines follow it), in
// which case line is its last line. It returns 0 for a change that is not
// an Update, or whose file on disk is a symbolic link, binary, too large
// to have been read, or empty.
func (ch Change) FirstLine() (line int, after bool) {
	if ch.Kind != Update || ch.Old == nil || ch.New == nil || ch.oldLarge || ch.Old.Link != "" || ch.New.Link != "" {
		return 0, false
	}
	old, new := ch.Old.Data, ch.New.Data
	if len(old) == 0 || bytes.IndexByte(old, 0) >= 0 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(old) && i < len(new) && old[i] == new[i]; i++ {
		n = i + 1
	}
	// The difference is on the line holding byte n of old; at the end
	// of old, after its last line.
	if n >= len(old) {
		return bytes.Count(old[:len(old)-1], []byte{'\n'}) + 1, true
	}
	return bytes.Count(old[:n], []byte{'\n'}) + 1, false
}
