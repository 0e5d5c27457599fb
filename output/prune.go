package output

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
)

// Pruning: the directories discgen created and no tree path needs any
// more are removed once empty.

// pruneDirs removes the directories discgen created that no tree path
// needs any more, deepest first, when they are empty. A directory that
// still holds someone else's file stays, and stays discgen's, so a later
// build removes it once it is empty.
func (c *Changes) pruneDirs(touched map[string]bool) int {
	cands := c.pruneCandidates()
	n := 0
	for _, d := range cands {
		if err := c.r.Reach(parent(d)); err != nil {
			continue
		}
		fi, err := c.r.Lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist), err == nil && !fi.IsDir():
			delete(c.next.Dirs, d)
			continue
		case err != nil:
			continue
		}
		c.r.Forget(d)
		if c.r.Remove(d) == nil {
			delete(c.next.Dirs, d)
			touched[parent(d)] = true
			n++
		}
	}
	return n
}

// pruneCandidates lists the directories discgen created that no tree path
// needs any more, deepest first.
func (c *Changes) pruneCandidates() []string {
	needed := map[string]bool{}
	for p := range c.t {
		for d := parent(p); d != ""; d = parent(d) {
			needed[d] = true
		}
	}
	var cands []string
	for d := range c.next.Dirs {
		if !needed[d] {
			cands = append(cands, d)
		}
	}
	// Reverse lexical order puts every directory before its parent.
	slices.SortFunc(cands, func(a, b string) int { return strings.Compare(b, a) })
	return cands
}
