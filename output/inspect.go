package output

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/output/internal/record"
	"github.com/discgen/discgen/tree"
)

// inspectGroup plans the paths of one directory group: tree paths, or
// stale paths of the record that the tree no longer has.
func (c *Changes) inspectGroup(w *walker, g []string) error {
	d := parent(g[0])
	st := w.dir(d)
	if st == dirBad {
		return nil
	}
	exists := st == dirOK
	if exists {
		err := c.r.Reach(d)
		if err == nil {
			err = c.opt.hooks.planning(d)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.file(d), confined.UnwrapPath(err))
		}
	}
	for _, p := range g {
		e, produced := c.t[p]
		if !produced {
			if exists {
				c.inspectStale(p)
			}
			continue
		}
		ch := Change{Kind: Add, Path: p, New: &e}
		if exists && !c.inspect(&ch) {
			continue
		}
		c.List = append(c.List, ch)
		c.next.Files[p] = []record.Sum{entrySum(e)}
	}
	return nil
}

func entrySum(e tree.Entry) record.Sum {
	if e.Link != "" {
		return record.LinkSum(e.Link)
	}
	return record.FileSum(e.Data)
}

// checkTree reports invalid tree paths and link targets.
func (c *Changes) checkTree() {
	for p, e := range c.t {
		if err := tree.CheckPath(p); err != nil {
			c.problem(p, BadPath, err.Error(), "")
			continue
		}
		for d := parent(p); d != ""; d = parent(d) {
			if _, ok := c.t[d]; ok {
				c.problem(d, BadPath, "is produced as a file and as a directory of "+p, "")
			}
		}
		if e.Link != "" && !insideRoot(p, e.Link) {
			c.problem(p, BadPath, fmt.Sprintf("symlink target %q leaves the output root", e.Link), "")
		}
	}
}

// badPath reports whether p or one of its directories has a BadPath
// problem.
func (c *Changes) badPath(p string) bool {
	if c.bad == nil {
		c.bad = map[string]bool{}
		for _, pr := range c.Problems {
			if pr.Kind == BadPath {
				c.bad[pr.Path] = true
			}
		}
	}
	for ; p != ""; p = parent(p) {
		if c.bad[p] {
			return true
		}
	}
	return false
}

// readExisting returns what is at p, which Lstat found to be fi: its
// entry, its sum, and whether the content was read at all (a file over
// the limit is not).
func (c *Changes) readExisting(p string, fi fs.FileInfo, limit int64) (tree.Entry, record.Sum, bool, error) {
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := c.r.Readlink(p)
		return tree.Entry{Link: target}, record.LinkSum(target), true, err
	}
	data, read, err := c.r.ReadFile(p, fi.Size(), limit)
	if !read || err != nil {
		return tree.Entry{}, record.Sum{}, false, err
	}
	return tree.Entry{Data: data}, record.FileSum(data), true, nil
}

// inspect plans a tree path, whose directory exists. It reports false
// when the path has a problem.
func (c *Changes) inspect(ch *Change) bool {
	p, e := ch.Path, *ch.New
	fi, err := c.r.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true
	case err != nil:
		c.problem(p, IOError, "cannot inspect: "+confined.UnwrapPath(err).Error(), "")
		return false
	case fi.Mode()&fs.ModeSymlink == 0 && !fi.Mode().IsRegular():
		c.problem(p, NotRegular, "is a "+limited.TypeName(fi.Mode())+" where discgen writes a file",
			"move it out of the way, or change the manifest so nothing is written here")
		return false
	}
	st := confined.StatOf(fi)
	c.stats[p] = st
	// The stat cache says the file holds what the record says discgen
	// wrote: when that is the new content, it need not be read.
	if c.cache != nil {
		if cs, ok := c.cache.Files[p]; ok && cs.Same(st) && len(c.rec.Files[p]) == 1 && c.rec.Files[p][0] == entrySum(e) {
			ch.Kind, ch.Old, ch.oldPerm = Unchanged, &e, fi.Mode().Perm()
			return true
		}
	}
	old, s, read, err := c.readExisting(p, fi, max(maxCompare, int64(len(e.Data))))
	if err != nil {
		c.problem(p, IOError, "cannot read: "+confined.UnwrapPath(err).Error(), "")
		return false
	}
	ch.Old, ch.oldLarge, ch.oldPerm = &old, !read, fi.Mode().Perm()
	owned := read && c.rec.Owns(p, s)
	switch {
	case read && s == entrySum(e):
		ch.Kind = Unchanged
		if !owned {
			ch.Kind = Adopt
		}
		return true
	case fi.Mode()&fs.ModeSymlink != 0 && !owned:
		c.symlinkProblem(p, "a file it writes")
		return false
	case owned || c.opt.Replace:
		ch.Kind = Update
		if read {
			c.cur[p] = s
		}
		return true
	}
	c.foreignProblem(p)
	// --check still shows what a build with --replace would write.
	ch.Kind = Update
	c.refused = append(c.refused, *ch)
	return false
}

func (c *Changes) foreignProblem(p string) {
	if _, ok := c.rec.Files[p]; ok {
		c.problem(p, Modified, "was changed since discgen wrote it",
			"keep your change by removing it from the manifest, or pass --replace to overwrite it")
		return
	}
	c.problem(p, Foreign, "exists and was not written by discgen (its content differs)",
		"delete or rename the file, or pass --replace to let discgen take it over")
}

// inspectStale plans the removal of a path discgen wrote earlier and no
// longer produces. A path that is gone, or is now a directory, is dropped
// from the record. The path's directory exists.
func (c *Changes) inspectStale(p string) {
	fi, err := c.r.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return
	case err != nil:
		c.problem(p, IOError, "cannot inspect: "+confined.UnwrapPath(err).Error(), "")
		return
	case fi.Mode()&fs.ModeSymlink == 0 && !fi.Mode().IsRegular():
		return
	}
	c.stats[p] = confined.StatOf(fi)
	old, s, read, err := c.readExisting(p, fi, maxCompare)
	if err != nil {
		c.problem(p, IOError, "cannot read: "+confined.UnwrapPath(err).Error(), "")
		return
	}
	if !(read && c.rec.Owns(p, s)) && !c.opt.Replace {
		if _, ok := c.rec.Files[p]; ok {
			c.problem(p, Modified, "was changed since discgen wrote it, and discgen no longer produces it",
				"delete it yourself, or pass --replace to let discgen remove it")
			c.refused = append(c.refused, Change{Kind: Remove, Path: p, Old: &old, oldLarge: !read})
		}
		return
	}
	c.List = append(c.List, Change{Kind: Remove, Path: p, Old: &old, oldLarge: !read})
}

// file names the slash path p for messages: the root joined with p.
func (c *Changes) file(p string) string {
	if p == "" {
		return c.Root
	}
	return filepath.Join(c.Root, filepath.FromSlash(p))
}
