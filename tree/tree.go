// Package tree is the in-memory form of a rendered output directory: the
// files one build produces for one output root, keyed by slash-separated
// relative path. generate fills a Tree; the writer compares it with the disk
// and applies it.
package tree

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Entry is one file of a tree: either regular bytes or a relative symlink.
type Entry struct {
	Data []byte
	// Link, when not empty, makes the entry a symbolic link with this
	// relative target. The target must resolve inside the tree's root.
	Link string
}

// Tree maps a clean, slash-separated relative path ("autodisc/index.txt") to
// its entry. Paths never start with "/", never contain "." or ".." segments
// or empty segments, and never name a directory that is also a file.
type Tree map[string]Entry

// Paths returns the tree's paths in lexical order.
func (t Tree) Paths() []string { return slices.Sorted(maps.Keys(t)) }

// Put adds a regular file, checking its path.
func (t Tree) Put(path string, data []byte) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	if _, dup := t[path]; dup {
		return fmt.Errorf("%s: produced twice", path)
	}
	t[path] = Entry{Data: data}
	return nil
}

// CheckPath reports whether p is a clean relative slash path as a Tree key.
func CheckPath(p string) error {
	if p == "" {
		return fmt.Errorf("empty output path")
	}
	if strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return fmt.Errorf("%q: output path must be relative and use forward slashes", p)
	}
	for seg := range strings.SplitSeq(p, "/") {
		switch seg {
		case "", ".", "..":
			return fmt.Errorf("%q: output path has an empty, \".\" or \"..\" segment", p)
		}
		for _, r := range seg {
			if r < 0x20 || r == 0x7f {
				return fmt.Errorf("%q: output path has a control character", p)
			}
		}
	}
	return nil
}
