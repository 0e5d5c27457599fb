package output

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
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
