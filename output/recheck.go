package output

import (
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
)

// Checking a plan again under the lock. Plan takes no lock, so another
// build may write the root between a plan and its Apply. Holding the
// root's lock, Apply refuses to trust a plan whose record or planned paths
// changed since (checkRecord, checkDisk), and plans the root again
// (replan); a plan refused for problems another build may have caused
// (mayBeStale) is checked again the same way.

// mayBeStale reports whether a problem of the plan can come from another
// build writing the root between the plan's read of the record and its
// look at the disk: what that build wrote looks like someone else's.
func (c *Changes) mayBeStale() bool {
	if c.stateInside {
		// No build's writes take the state directory out of the root:
		// the plan fails however often it is made, and checking it
		// again would lock the state directory's journal, creating it
		// inside the root.
		return false
	}
	for _, p := range c.Problems {
		switch p.Kind {
		case Symlink, Foreign, Modified, NotDirectory, NotRegular:
			return true
		}
	}
	return false
}

// replan plans the root again, holding its lock, from what another build
// left since the first plan: the new plan works through the old plan's
// root (Options.root), its read path started afresh (what each directory
// was is pinned again), and replaces the old plan only once it is made.
// Until then the root stays the old plan's: a new plan that fails closes
// only its directories, and the old plan's Close closes the root, once,
// when it opened it. A new plan with problems fails the root; they are
// not another build's.
func (a *applying) replan() error {
	c := a.c
	c.r.Reset()
	opt := c.opt
	opt.root = c.r
	n, err := Plan(c.Root, c.t, opt)
	if err != nil {
		return err
	}
	n.opt.root = nil // the root is the new plan's, as it was the old one's
	n.w = c.w
	*c = *n
	c.r.SetWriteRoot(a.dir)
	a.recheck = false
	if err := c.Err(); err != nil {
		a.err, a.done = err, true
		return nil
	}
	a.count()
	return nil
}

// checkRecord refuses a plan whose record another build changed since.
func (c *Changes) checkRecord() error {
	st, err := statedir.Lstat(c.recordFile(".rec"))
	switch {
	case errors.Is(err, fs.ErrNotExist) && !c.recExists:
		return nil
	case err == nil && c.recExists && st.Same(c.recStat):
		return nil
	}
	return fmt.Errorf("%s: another build wrote this output since it was planned; run the build again", c.Root)
}

// checkDisk refuses a plan when a path it inspected changed since, so
// that a build planned before another one (with another state
// directory) finished cannot mix its files into the other's.
func (c *Changes) checkDisk() error {
	var paths []string
	for _, ch := range c.List {
		paths = append(paths, ch.Path)
	}
	for _, g := range groupByDir(paths) {
		if err := c.checkDiskGroup(g); err != nil {
			return err
		}
	}
	return nil
}

// checkDiskGroup is checkDisk for the paths g of one directory.
func (c *Changes) checkDiskGroup(g []string) error {
	dr, err := c.r.WriteDir(parent(g[0]))
	if errors.Is(err, fs.ErrNotExist) {
		return nil // a missing directory holds nothing yet
	}
	if confined.IsNotDir(err) {
		// Planned as a directory or as missing, now a symlink or a
		// file: not followed.
		return fmt.Errorf("%s: changed on disk since this build planned it (now not a directory); run the build again", c.file(parent(g[0])))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", c.file(parent(g[0])), confined.UnwrapPath(err))
	}
	defer c.r.Done(dr)
	for _, p := range g {
		fst, err := dr.Lstat(path.Base(p))
		st, seen := c.stats[p]
		switch {
		case errors.Is(err, fs.ErrNotExist) && !seen:
			continue
		case err == nil && seen && fst.Same(st):
			continue
		}
		return fmt.Errorf("%s: changed on disk since this build planned it (another build may be writing the output root); run the build again", c.file(p))
	}
	return nil
}
