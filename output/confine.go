package output

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/limited"
)

// parent returns the slash directory of p, "" for the root.
func parent(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// dirState is what a directory on an output path turned out to be.
type dirState int

const (
	dirOK      dirState = iota // an existing real directory
	dirMissing                 // absent: Apply creates it
	dirBad                     // a symlink or non-directory: a problem was reported
)

// walker inspects the directories on output paths through the confined
// root, without following symlinks, and caches what it found.
type walker struct {
	r    *confined.Root // nil when the output root does not exist yet
	c    *Changes
	dirs map[string]dirState
}

// dir classifies the slash directory p ("" is the root).
func (w *walker) dir(p string) dirState {
	if p == "" {
		if w.r == nil {
			return dirMissing
		}
		return dirOK
	}
	if st, ok := w.dirs[p]; ok {
		return st
	}
	st := w.dir(parent(p))
	switch st {
	case dirOK:
		st = w.lstatDir(p)
	case dirBad:
		// The problem is reported once, at the offending component.
	}
	w.dirs[p] = st
	return st
}

func (w *walker) lstatDir(p string) dirState {
	if err := w.r.Reach(parent(p)); err != nil {
		w.c.problem(p, IOError, "cannot inspect: "+confined.UnwrapPath(err).Error(), "")
		return dirBad
	}
	fi, err := w.r.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return dirMissing
	case err != nil:
		w.c.problem(p, IOError, "cannot inspect: "+confined.UnwrapPath(err).Error(), "")
		return dirBad
	case fi.Mode()&fs.ModeSymlink != 0:
		w.c.symlinkProblem(p, "a directory")
		return dirBad
	case !fi.IsDir():
		w.c.problem(p, NotDirectory, "is a "+limited.TypeName(fi.Mode())+", but outputs go inside it",
			"move it out of the way, or change the manifest so nothing is written below it")
		return dirBad
	}
	return dirOK
}

// symlinkProblem reports a symlink that discgen did not create at p, where
// an output needs what.
func (c *Changes) symlinkProblem(p, what string) {
	target, err := c.r.Readlink(p)
	if err != nil {
		target = "(unreadable)"
	}
	c.problem(p, Symlink,
		fmt.Sprintf("is a symlink to %s where discgen needs %s; discgen never writes or deletes through a symlink it did not create", target, what),
		"replace the symlink with a real directory or file, or point the output at the directory it names")
}

// insideRoot reports whether the relative symlink target, placed at the
// slash path p, resolves lexically inside the root.
func insideRoot(p, target string) bool {
	if target == "" || path.IsAbs(target) || filepath.IsAbs(target) || strings.Contains(target, "\\") {
		return false
	}
	j := path.Join(parent(p), target)
	return j != ".." && !strings.HasPrefix(j, "../")
}

// within reports whether the absolute path p is dir or lies below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
