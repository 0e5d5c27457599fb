package output

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"

	"github.com/discgen/discgen/internal/limited"
)

// setName sets c.name, the portable name of the root's ownership record:
// Options.Record, or the root relative to the state directory's parent.
// It sets c.abs, the root's absolute path (lexically), when it needs it;
// with Options.Dir and Options.Record set the root is never looked up by
// path, and costs no getcwd.
func (c *Changes) setName() error {
	c.name = c.opt.Record
	if c.name == "" || c.opt.Dir == nil {
		if err := c.setAbs(); err != nil {
			return err
		}
	}
	if c.name == "" {
		stateAbs, err := filepath.Abs(c.opt.StateDir)
		if err != nil {
			return fmt.Errorf("output: state directory %s: %w", c.opt.StateDir, err)
		}
		if c.name, err = defaultRecordName(stateAbs, c.abs); err != nil {
			return err
		}
	}
	if err := checkRecordName(c.name); err != nil {
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

// openRoot opens the output root as an os.Root. It reports a missing root
// (creating it, with its parents, when create is set); a root that cannot
// be used is a problem, reported with a nil Root. With Options.Dir it
// returns that directory, which the caller must not close.
func (c *Changes) openRoot(create bool) (r *os.Root, missing bool, err error) {
	if c.opt.Dir != nil {
		return c.opt.Dir, false, nil
	}
	if c.opt.Within == "" {
		return c.openFrom(nil, c.abs, create)
	}
	wabs, err := filepath.Abs(c.opt.Within)
	if err != nil {
		return nil, false, err
	}
	if !within(c.abs, wabs) {
		return nil, false, fmt.Errorf("output: %s does not lie within %s", c.Root, c.opt.Within)
	}
	wr, err := os.OpenRoot(wabs)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", c.opt.Within, unwrapPath(err))
	}
	defer wr.Close()
	rel, _ := filepath.Rel(wabs, c.abs)
	return c.openFrom(wr, rel, create)
}

// openFrom opens name, through base when base is not nil.
func (c *Changes) openFrom(base *os.Root, name string, create bool) (*os.Root, bool, error) {
	stat, mkdirAll, open := os.Stat, os.MkdirAll, os.OpenRoot
	if base != nil {
		stat, mkdirAll, open = base.Stat, base.MkdirAll, base.OpenRoot
	}
	if create && base == nil {
		// Usually missing (Plan found it so): create it without
		// stat'ing every parent first.
		switch err := mkdirTree(name, nil); {
		case err == nil:
			if o := c.opt.Owner; o != nil {
				if err := os.Lchown(name, o.UID, o.GID); err != nil {
					return nil, false, fmt.Errorf("%s: %w", c.Root, unwrapPath(err))
				}
			}
			r, err := open(name)
			if err != nil {
				return nil, false, fmt.Errorf("%s: %w", c.Root, unwrapPath(err))
			}
			return r, false, nil
		case !errors.Is(err, fs.ErrExist) && !errors.Is(err, syscall.ENOTDIR):
			return nil, false, fmt.Errorf("%s: cannot create the output root: %w", c.Root, unwrapPath(err))
		}
		// It exists, or a parent is not a directory: classify below.
	}
	fi, err := stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) && create:
		if err := mkdirAll(name, 0o755); err != nil {
			return nil, false, fmt.Errorf("%s: cannot create the output root: %w", c.Root, unwrapPath(err))
		}
		if o := c.opt.Owner; o != nil {
			chown := os.Lchown
			if base != nil {
				chown = base.Lchown
			}
			if err := chown(name, o.UID, o.GID); err != nil {
				return nil, false, fmt.Errorf("%s: %w", c.Root, unwrapPath(err))
			}
		}
	case errors.Is(err, fs.ErrNotExist):
		return nil, true, nil
	case err != nil && base != nil && !errors.Is(err, fs.ErrPermission):
		c.problem("", Symlink, fmt.Sprintf("cannot be reached inside %s: %v", c.opt.Within, err),
			"replace symlinks on the way to the output directory with real directories")
		return nil, false, nil
	case err != nil:
		c.problem("", IOError, unwrapPath(err).Error(), "")
		return nil, false, nil
	case !fi.IsDir():
		c.problem("", NotDirectory, "the output root is a "+limited.TypeName(fi.Mode())+", not a directory", "")
		return nil, false, nil
	}
	r, err := open(name)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", c.Root, unwrapPath(err))
	}
	return r, false, nil
}

// maxGroup bounds how many files of one directory are handled through one
// directory handle, so a huge directory still spreads over the writers.
const maxGroup = 256

// groupByDir splits the slash paths into groups of at most maxGroup paths
// sharing a directory, in order of directory then path. Operating through
// one os.Root per directory avoids re-resolving every component of every
// path.
func groupByDir(paths []string) [][]string {
	m := map[string][]string{}
	for _, p := range paths {
		m[parent(p)] = append(m[parent(p)], p)
	}
	var gs [][]string
	for _, d := range slices.Sorted(maps.Keys(m)) {
		ps := m[d]
		slices.Sort(ps)
		for len(ps) > 0 {
			n := min(len(ps), maxGroup)
			gs = append(gs, ps[:n:n])
			ps = ps[n:]
		}
	}
	return gs
}

// openDir opens the slash directory d below r as its own os.Root, confined
// to r like every other access. The caller closes it unless it is r.
func openDir(r *os.Root, d string) (*os.Root, error) {
	if d == "" {
		return r, nil
	}
	return r.OpenRoot(osPath(d))
}

func closeDir(r, dr *os.Root) {
	if dr != r {
		dr.Close()
	}
}

// errReplaced: a directory opened again is not the one opened first.
var errReplaced = errors.New("the directory was replaced while this build was writing it; run the build again")

// dirPins remembers which directory each slash path was when first
// opened, so that one opened again (a directory is not kept open; see
// "Descriptors" in the package doc) is refused when it is another: every
// operation on a directory's entries then happens in the directory first
// opened there, as when its descriptor was kept.
type dirPins struct {
	mu sync.Mutex
	m  map[string]dirID
}

// check pins d to id the first time, and then refuses another directory.
func (p *dirPins) check(d string, id dirID) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if old, ok := p.m[d]; ok {
		if !old.is(id) {
			return errReplaced
		}
		return nil
	}
	if p.m == nil {
		p.m = map[string]dirID{}
	}
	p.m[d] = id
	return nil
}

// forget drops the pin of d, a directory removed.
func (p *dirPins) forget(d string) {
	p.mu.Lock()
	delete(p.m, d)
	p.mu.Unlock()
}
