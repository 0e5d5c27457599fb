package output

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/output/internal/record"
)

// setName sets c.name, the portable name of the root's ownership record:
// Options.Record, or the root relative to the state directory's parent.
// It sets c.abs, the root's absolute path (lexically), when it needs it;
// with the root open (Options.Dir, or a plan made again) and
// Options.Record set the root is never looked up by path, and costs no
// getcwd here (a plan made again takes one to check the state directory).
func (c *Changes) setName() error {
	c.name = c.opt.Record
	if c.name == "" || !c.opt.open() && !c.held {
		if err := c.setAbs(); err != nil {
			return err
		}
	}
	if c.name == "" {
		stateAbs, err := filepath.Abs(c.opt.StateDir)
		if err != nil {
			return fmt.Errorf("output: state directory %s: %w", c.opt.StateDir, err)
		}
		if c.name, err = record.DefaultName(stateAbs, c.abs); err != nil {
			return err
		}
	}
	if err := record.CheckName(c.name); err != nil {
		return fmt.Errorf("output: %s: %w", c.Root, err)
	}
	return nil
}

func (c *Changes) setAbs() error {
	if c.abs != "" {
		return nil
	}
	abs, err := filepath.Abs(c.Root)
	if err != nil {
		return fmt.Errorf("output: %s: %w", c.Root, err)
	}
	c.abs = abs
	return nil
}

// openRoot opens the output root for m. It reports a missing root with a
// nil Root (creating it, with its parents, when create is set); a root
// that cannot be used is a problem, reported with a nil Root. With
// Options.Dir it returns that directory, which Close leaves open; for a
// plan made again, the root of the plan it replaces (Options.root).
func (c *Changes) openRoot(create bool, m confined.Mode) (r *confined.Root, missing bool, err error) {
	if c.opt.root != nil {
		return c.opt.root, false, nil
	}
	if c.opt.Dir != nil {
		return confined.Wrap(c.opt.Dir, m), false, nil
	}
	name, in := c.abs, ""
	if c.opt.Within != "" {
		wabs, err := filepath.Abs(c.opt.Within)
		if err != nil {
			return nil, false, err
		}
		if !within(c.abs, wabs) {
			return nil, false, fmt.Errorf("output: %s does not lie within %s", c.Root, c.opt.Within)
		}
		name, _ = filepath.Rel(wabs, c.abs)
		in = wabs
	}
	r, err = confined.OpenRoot(name, in, create, c.opt.Owner, m)
	var re *confined.RootError
	switch {
	case errors.As(err, &re) && re.Within:
		return nil, false, fmt.Errorf("%s: %w", c.opt.Within, re.Err)
	case errors.As(err, &re) && re.Unreachable:
		c.problem("", Symlink, fmt.Sprintf("cannot be reached inside %s: %v", c.opt.Within, re.Err),
			"replace symlinks on the way to the output directory with real directories")
		return nil, false, nil
	case errors.As(err, &re) && re.NotDir:
		c.problem("", NotDirectory, "the output root is a "+limited.TypeName(re.Mode)+", not a directory", "")
		return nil, false, nil
	case errors.As(err, &re):
		c.problem("", IOError, re.Err.Error(), "")
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("%s: %w", c.Root, err)
	}
	return r, r == nil, nil
}

// maxGroup bounds how many files of one directory are handled through one
// directory handle, so a huge directory still spreads over the writers.
const maxGroup = 256

// groupByDir splits the slash paths into groups of at most maxGroup paths
// sharing a directory, in order of directory then path. Operating through
// one os.Root per directory avoids re-resolving every component of every
// path.
func groupByDir(paths []string) [][]string {
	return byParent(slices.Sorted(slices.Values(paths)), func(p string) string { return p }, maxGroup)
}

// byParent groups xs by the directory of their slash path (pathOf), in
// order of directory and, within one, in the order of xs, at most size
// in a group (0: no bound).
func byParent[T any](xs []T, pathOf func(T) string, size int) [][]T {
	m := map[string][]T{}
	for _, x := range xs {
		d := parent(pathOf(x))
		m[d] = append(m[d], x)
	}
	var gs [][]T
	for _, d := range slices.Sorted(maps.Keys(m)) {
		g := m[d]
		for size > 0 && len(g) > size {
			gs = append(gs, g[:size:size])
			g = g[size:]
		}
		gs = append(gs, g)
	}
	return gs
}
