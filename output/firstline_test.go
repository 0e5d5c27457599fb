package output

import (
	"testing"

	"github.com/discgen/discgen/tree"
)

// TestFirstLine: a stale file's annotation goes on the first line of the
// file on disk that differs, or after its last line when all of it
// stands.
func TestFirstLine(t *testing.T) {
	for _, c := range []struct {
		old, new string
		line     int
		after    bool
	}{
		{"a\nb\n", "a\nc\n", 2, false},
		{"a\nb\n", "x\nb\n", 1, false},
		{"a\nb\n", "a\nbc\n", 2, false},
		{"a\nb\n", "a\nb\nc\n", 2, true},
		{"a\nb\nc\n", "a\nb\n", 3, false},
		{"a\nb", "a\nbc", 2, true},
		{"", "a\n", 0, false},
		{"a\x00\n", "b\n", 0, false},
	} {
		ch := Change{Kind: Update, Path: "f", Old: &tree.Entry{Data: []byte(c.old)}, New: &tree.Entry{Data: []byte(c.new)}}
		if line, after := ch.FirstLine(); line != c.line || after != c.after {
			t.Errorf("%q to %q: line %d, after %v; want %d, %v", c.old, c.new, line, after, c.line, c.after)
		}
	}
	for _, ch := range []Change{
		{Kind: Add, Path: "f", New: &tree.Entry{Data: []byte("a\n")}},
		{Kind: Remove, Path: "f", Old: &tree.Entry{Data: []byte("a\n")}},
		{Kind: Update, Path: "f", Old: &tree.Entry{Link: "x"}, New: &tree.Entry{Data: []byte("a\n")}},
	} {
		if line, _ := ch.FirstLine(); line != 0 {
			t.Errorf("%v of %+v: line %d, want 0", ch.Kind, ch.Old, line)
		}
	}
}
