package output

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Temporary files are named ".discgen-" + 16 hex digits + ".tmp" and live in
// the directory of the file they replace.
const (
	tempPrefix = ".discgen-"
	tempSuffix = ".tmp"
)

func tempName() string {
	var b [8]byte
	rand.Read(b[:])
	return tempPrefix + hex.EncodeToString(b[:]) + tempSuffix
}

// isTempName reports whether name is one of discgen's temporary files.
func isTempName(name string) bool {
	x, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return false
	}
	x, ok = strings.CutSuffix(x, tempSuffix)
	if !ok || len(x) != 16 {
		return false
	}
	_, err := hex.DecodeString(x)
	return err == nil
}

// writeAtomic replaces name (an OS path relative to r) with data: a new
// temporary file in the same directory is written, synced when sync is set,
// and renamed over name. rename never follows a symlink at name; it replaces
// the link itself.
func writeAtomic(r *os.Root, name string, data []byte, perm fs.FileMode, sync bool) error {
	tmp := filepath.Join(filepath.Dir(name), tempName())
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		// The umask may have narrowed perm at creation; the final file
		// gets exactly perm, like the one it replaces.
		err = f.Chmod(perm)
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmp, name)
	}
	if err != nil {
		r.Remove(tmp)
		return err
	}
	return nil
}

// linkAtomic replaces name with a symlink to target, through a temporary
// symlink renamed over it.
func linkAtomic(r *os.Root, name, target string) error {
	tmp := filepath.Join(filepath.Dir(name), tempName())
	if err := r.Symlink(target, tmp); err != nil {
		return err
	}
	if err := r.Rename(tmp, name); err != nil {
		r.Remove(tmp)
		return err
	}
	return nil
}

// syncDir makes the entries of dir (relative to r) durable.
func syncDir(r *os.Root, dir string) error {
	f, err := r.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// osPath converts a tree path to an OS path relative to the root.
func osPath(p string) string {
	if p == "" {
		return "."
	}
	return filepath.FromSlash(p)
}

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

// walker inspects the directories on output paths through an os.Root,
// without following symlinks, and caches what it found.
type walker struct {
	r    *os.Root // nil when the output root does not exist yet
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
	fi, err := w.r.Lstat(osPath(p))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return dirMissing
	case err != nil:
		w.c.problem(p, IOError, err.Error(), "")
		return dirBad
	case fi.Mode()&fs.ModeSymlink != 0:
		w.c.symlinkProblem(w.r, osPath(p), p, "a directory")
		return dirBad
	case !fi.IsDir():
		w.c.problem(p, NotDirectory, "is a "+typeName(fi.Mode())+", but outputs go inside it",
			"move it out of the way, or change the manifest so nothing is written below it")
		return dirBad
	}
	return dirOK
}

func typeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// symlinkProblem reports a symlink that discgen did not create at p (name,
// relative to r), where an output needs what.
func (c *Changes) symlinkProblem(r *os.Root, name, p, what string) {
	target, err := r.Readlink(name)
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

// openRoot opens the output root as an os.Root. It reports a missing root
// (creating it, with its parents, when create is set); a root that cannot
// be used is a problem, reported with a nil Root.
func (c *Changes) openRoot(create bool) (r *os.Root, missing bool, err error) {
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
		return nil, false, err
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
	fi, err := stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) && create:
		if err := mkdirAll(name, 0o755); err != nil {
			return nil, false, err
		}
	case errors.Is(err, fs.ErrNotExist):
		return nil, true, nil
	case err != nil && base != nil && !errors.Is(err, fs.ErrPermission):
		c.problem("", Symlink, fmt.Sprintf("cannot be reached inside %s: %v", c.opt.Within, err),
			"replace symlinks on the way to the output directory with real directories")
		return nil, false, nil
	case err != nil:
		c.problem("", IOError, err.Error(), "")
		return nil, false, nil
	case !fi.IsDir():
		c.problem("", NotDirectory, "the output root is a "+typeName(fi.Mode())+", not a directory", "")
		return nil, false, nil
	}
	r, err := open(name)
	if err != nil {
		return nil, false, err
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
