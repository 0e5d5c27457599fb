package output

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/output/internal/record"
)

// The stat cache, beside each ownership record, as a plan reads and
// writes it (its format is package record's cache.go): how a build
// tells, without reading them, that a root's outputs are as it left them
// (Fresh, and Plan's skipped reads); and the refusal cache, which keeps
// why a root's input was refused.

// loadCache reads the stat cache of c's record; a missing, malformed or
// stale one (its record stat differs) leaves c.cache nil.
func (c *Changes) loadCache() {
	if !c.recExists {
		return
	}
	data, _, release, err := c.readState(c.opt.StateDir, c.recordFile(".stat"), record.MaxSize)
	defer release()
	if err != nil {
		return
	}
	if sc := c.parseCache(data); sc != nil && sc.Rec.Same(c.recStat) {
		c.cache, c.cacheBytes = sc, data
	}
}

// Fresh reports whether the output root is known to be up to date without
// looking at its content: the stat cache of its record was written by a
// build with the same opt.Key, the record has not changed since, and every
// output it lists still has the size, mtime, change time, inode and mode
// recorded. It costs a read of the small cache file and one stat per
// output, by directory, and writes nothing. Any doubt gives false: the
// caller then plans as usual. An empty opt.Key is never fresh.
//
// opt.Key must change whenever the tree the root would get can change:
// the caller's fingerprint of its inputs (manifest bytes or stat, flags,
// discgen's version).
func Fresh(root string, opt Options) (bool, error) { return fresh(root, opt, nil) }

// FreshIn is Fresh for a root held open as dir (a tenant's directory, as
// the walk opened it; opt.Dir is not used): each directory of outputs is
// reached from dir in one open that follows no symlink and each output
// stat'ed there, without opening the root as an os.Root, which a root
// found fresh never needs.
func FreshIn(root string, dir *confined.Dir, opt Options) (bool, error) {
	return fresh(root, opt, dir)
}

func fresh(root string, opt Options, dir *confined.Dir) (bool, error) {
	if opt.Key == "" || opt.StateDir == "" {
		return false, nil
	}
	c := &Changes{Root: root, opt: opt, held: dir != nil}
	if err := c.setName(); err != nil {
		return false, err
	}
	data, _, release, err := c.readState(c.opt.StateDir, c.recordFile(".stat"), record.MaxSize)
	defer release()
	if err != nil {
		return false, nil
	}
	sc := c.parseCache(data)
	if sc == nil || sc.Key != record.KeyHash(opt.Key) {
		return false, nil
	}
	st, err := statedir.Lstat(c.recordFile(".rec"))
	if err != nil || !st.Same(sc.Rec) {
		return false, nil
	}
	if dir != nil {
		return sameIn(dir, sc), nil
	}
	r, missing, err := c.openRoot(false, confined.Look)
	if err != nil || r == nil || missing {
		return false, nil
	}
	defer r.Close()
	paths := slices.Sorted(maps.Keys(sc.Files))
	for _, g := range groupByDir(paths) {
		d := parent(g[0])
		if !realDirs(r, d) {
			return false, nil
		}
		if err := r.Reach(d); err != nil {
			return false, nil
		}
		ok := true
		for _, p := range g {
			fi, err := r.Lstat(p)
			if ok = err == nil && confined.StatOf(fi).Same(sc.Files[p]); !ok {
				break
			}
		}
		r.Forget(d)
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// realDirs reports whether every directory on the slash path d, below
// r, is a directory and not a symlink: an os.Root follows a symlink that
// stays inside it, and a directory of outputs moved and replaced by one
// keeps every output's stat.
func realDirs(r *confined.Root, d string) bool {
	for i := 0; d != "" && i <= len(d); i++ {
		if i < len(d) && d[i] != '/' {
			continue
		}
		fi, err := r.Lstat(d[:i])
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// sameIn reports whether every output of sc, below dir, still has its
// recorded stat, reaching each directory once. A cache may be its root
// owner's to write: grouping by directory stays n log n, however many
// directories it names.
func sameIn(dir *confined.Dir, sc *record.StatCache) bool {
	for _, g := range byParent(sc.Order, func(p string) string { return p }, 0) {
		d, in := parent(g[0]), dir
		if d != "" {
			var err error
			if in, err = dir.OpenPath(d); err != nil {
				return false
			}
		}
		ok := true
		for _, p := range g {
			name := path.Base(p)
			if name == "." || name == ".." || name == "/" {
				ok = false
				break
			}
			st, err := in.Lstat(name)
			if ok = err == nil && st.Same(sc.Files[p]); !ok {
				break
			}
		}
		if in != dir {
			in.Close()
		}
		if !ok {
			return false
		}
	}
	return true
}

// saveCache writes the stat cache for the record whose stat is rec, with
// the stats of the outputs in stats, unless the bytes are already there.
func (c *Changes) saveCache(rec confined.Info, stats map[string]confined.Info) error {
	sc := &record.StatCache{Key: record.KeyHash(c.opt.Key), Rec: rec, Files: stats}
	data := sc.Marshal()
	if c.cacheBytes != nil && bytes.Equal(data, c.cacheBytes) {
		return nil
	}
	_, err := c.writeState(c.recordFile(".stat"), data, false, true, false)
	return err
}

// A refusal cache holds why a root's input was refused, under the same
// key as the stat cache: while opt.Key is unchanged the input is, and so
// is the verdict. A build then reports the verdict at the cost of reading
// this small file, without reading or checking its input again.
//
//	discgen refusal cache 1
//	key 5f0c...9a
//	<the caller's bytes>
//
// It is kept where no one the verdict is about can write (refusalFile):
// a root with a state directory of its own, built by a batch that
// journals in the build's own state directory (Options.JournalDir: the
// build run as root), has it there, in refused/ab/cd/abcd...ef.stat
// (refused/ is mode 0700), not in the root's own state directory, whose
// owner could write there the verdict root's build prints. Any other
// root (and a root's owner's own build, whose verdict it alone reads)
// has it beside its record, as abcd...ef.refused.stat, machine-local as
// the stat cache, which the state directory's .gitignore keeps out of
// version control.

// refusalFile is where root's verdict is kept, and whether that is the
// build's own refused/ directory.
func (c *Changes) refusalFile() (string, bool) {
	if d := c.opt.JournalDir; d != "" && d != c.opt.StateDir {
		h := sha256.Sum256([]byte(c.name))
		x := hex.EncodeToString(h[:])
		return filepath.Join(d, record.RefusedDir, x[:2], x[2:4], x+".stat"), true
	}
	return c.recordFile(".refused.stat"), false
}

// Refusal returns the bytes SaveRefusal kept for root under opt.Key, and
// whether there are any. A missing, torn or stale cache gives false, and
// so does one in a refused/ directory another user owns or can open.
// stale says a cache is there that is not for opt.Key (or cannot be
// read): ClearRefusal has something to remove.
func Refusal(root string, opt Options) (data []byte, ok, stale bool) {
	if opt.Key == "" || opt.StateDir == "" {
		return nil, false, false
	}
	c := &Changes{Root: root, opt: opt}
	if c.setName() != nil {
		return nil, false, false
	}
	file, shared := c.refusalFile()
	if shared {
		st, err := statedir.Lstat(filepath.Join(opt.JournalDir, record.RefusedDir))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, false
		}
		if o, ok := st.Owner(); err != nil || !st.Mode.IsDir() || st.Mode.Perm()&0o077 != 0 || ok && o.UID != os.Geteuid() {
			return nil, false, true
		}
	}
	data, _, err := statedir.ReadFile(file, record.MaxRefusal)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, false
	}
	if err != nil {
		return nil, false, true
	}
	head := record.RefusalMagic + "\nkey " + record.KeyHash(opt.Key) + "\n"
	rest, ok := bytes.CutPrefix(data, []byte(head))
	return rest, ok, !ok
}

// SaveRefusal keeps data as root's verdict under opt.Key, replacing the
// cache atomically (a temporary file and a rename).
func SaveRefusal(root string, opt Options, data []byte) error {
	if opt.Key == "" || opt.StateDir == "" || len(data) > record.MaxRefusal-256 {
		return nil
	}
	c := &Changes{Root: root, opt: opt}
	if err := c.setName(); err != nil {
		return err
	}
	file, shared := c.refusalFile()
	if shared {
		if private, err := statedir.PrivateDir(filepath.Join(opt.JournalDir, record.RefusedDir)); err != nil || !private {
			return err
		}
	}
	out := append([]byte(record.RefusalMagic+"\nkey "+record.KeyHash(opt.Key)+"\n"), data...)
	_, err := c.writeState(file, out, false, false, false)
	return err
}

// ClearRefusal removes root's refusal cache, if there is one.
func ClearRefusal(root string, opt Options) error {
	if opt.StateDir == "" {
		return nil
	}
	c := &Changes{Root: root, opt: opt}
	if err := c.setName(); err != nil {
		return err
	}
	file, _ := c.refusalFile()
	if err := statedir.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("state directory: %w", err)
	}
	return nil
}
