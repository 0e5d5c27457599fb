package output

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/discgen/discgen/internal/confined"
)

// Publishing: the second half of Apply's writes, after the flush. Every
// temporary file is renamed over its target, each directory's index.txt
// after every file it lists, then the files discgen wrote and no longer
// produces are removed, and the directories it created and no longer
// needs (prune.go).

// publishAll renames the temporary files into place, each directory's
// index.txt after every file it lists, then removes stale files and
// directories.
func (a *applying) publishAll() error {
	c := a.c
	// By directory (several at once in a large tree), index.txt last.
	groups := byDir(a.todo, 0)
	err := c.parallel(len(a.todo), len(groups), func(i int) error {
		g := groups[i]
		slices.SortStableFunc(g, func(x, y *pending) int {
			return cmp.Compare(isIndex(x.ch.Path), isIndex(y.ch.Path))
		})
		d := parent(g[0].ch.Path)
		dr, err := c.r.WriteDir(d)
		if err != nil {
			return fmt.Errorf("%s: cannot publish: %w", c.file(d), confined.UnwrapPath(err))
		}
		defer c.r.Done(dr)
		for _, pd := range g {
			if err := c.publish(dr, pd); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var removes []string
	for _, ch := range c.List {
		if ch.Kind == Remove {
			removes = append(removes, ch.Path)
		}
	}
	for _, g := range groupByDir(removes) {
		if err := c.removeFiles(g); err != nil {
			return err
		}
		a.touched[parent(g[0])] = true
		a.res.Removed += len(g)
	}
	a.res.DirsRemoved = c.pruneDirs(a.touched)
	return nil
}

// removeFiles removes the files g of one directory, which Plan found to
// be discgen's. A file or directory already gone is not an error.
func (c *Changes) removeFiles(g []string) error {
	d := parent(g[0])
	dr, err := c.r.WriteDir(d)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: cannot remove: %w", c.file(g[0]), confined.UnwrapPath(err))
	}
	defer c.r.Done(dr)
	for _, p := range g {
		if err := dr.Remove(path.Base(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: cannot remove: %w", c.file(p), confined.UnwrapPath(err))
		}
	}
	return nil
}

// isIndex is 1 for an autodisc index.txt, which lists the files beside it,
// and 0 for any other path.
func isIndex(p string) int {
	if path.Base(p) == "index.txt" {
		return 1
	}
	return 0
}

// publish renames a temporary file over its target, then takes the stat
// the cache keeps (the rename changes the change time): on the file still
// open, or by name. The umask may have narrowed the mode at creation; the
// file gets exactly its mode.
func (c *Changes) publish(dr confined.WriteDir, pd *pending) error {
	ch, name := pd.ch, path.Base(pd.ch.Path)
	err := c.opt.hooks.hook("rename", ch.Path)
	if err == nil && pd.held {
		// Readable from now: its mode, on its descriptor, then the
		// rename. (A file closed early got its mode before closing.)
		err = pd.f.Chmod(pd.perm)
	}
	if err == nil {
		err = dr.Rename(pd.tmp, name)
	}
	if err != nil {
		return fmt.Errorf("%s: cannot publish: %w", c.file(ch.Path), confined.UnwrapPath(err))
	}
	pd.renamed = true
	var st confined.Info
	if pd.held {
		st, err = pd.f.Stat(pd.perm)
		pd.release()
	} else {
		st, err = dr.Lstat(name)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", c.file(ch.Path), confined.UnwrapPath(err))
	}
	pd.stat, pd.statOK = st, true
	return nil
}
