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
	"strconv"
	"strings"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
)

// The stat cache, beside each ownership record: how a build tells,
// without reading them, that a root's outputs are as it left them (Fresh,
// and Plan's skipped reads), and the refusal cache, which keeps why a
// root's input was refused. What it compares is a confined.Info: a file
// unchanged in its size, times, inode and mode (Info.Same) is taken to
// hold the bytes discgen recorded, as make, ninja and git's index do.

// statString renders s as the cache keeps it: "size mtime ctime inode
// mode", the mode in octal.
func statString(s confined.Info) string {
	return fmt.Sprintf("%d %d %d %d %o", s.Size, s.Mtime, s.Ctime, s.Ino, uint32(s.Mode))
}

// cacheMagic is the first line of a stat cache.
const cacheMagic = "discgen stat cache 2"

// statCache is the machine-local part of what discgen keeps for a root,
// beside its record (".stat" instead of ".rec"): the input key of the
// build that wrote it, the stat of the record it belongs to, and the stat
// of every output. It is valid only while the record still stats the same,
// so a record replaced by a checkout or copied from another machine makes
// it ignored, and it is rebuilt by the next Apply. Inodes and times are
// meaningless elsewhere, which is why the cache is kept out of the record
// and out of version control (the state directory's .gitignore).
//
//	discgen stat cache 2
//	key 5f0c...9a
//	record 812 1732300000123456789 1732300000123456789 1048601 644
//	s 211 1732300000120000000 1732300000120000000 1048577 644 autodisc/index.txt
//	end
type statCache struct {
	key   string // hex SHA-256 of Options.Key, "-" when none
	rec   confined.Info
	files map[string]confined.Info
	order []string // files' paths in the cache's order (parseCache)
}

func keyHash(key string) string {
	if key == "" {
		return "-"
	}
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

func (sc *statCache) marshal() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\nkey %s\nrecord %s\n", cacheMagic, sc.key, statString(sc.rec))
	for _, p := range slices.Sorted(maps.Keys(sc.files)) {
		fmt.Fprintf(&b, "s %s %s\n", statString(sc.files[p]), p)
	}
	b.WriteString("end\n")
	return b.Bytes()
}

// parseStat reads "size mtime ctime ino mode" from the fields f.
func parseStat(f []string) (confined.Info, bool) {
	if len(f) != 5 {
		return confined.Info{}, false
	}
	var n [5]int64
	for i, s := range f {
		base := 10
		if i == 4 {
			base = 8
		}
		v, err := strconv.ParseInt(s, base, 64)
		if err != nil {
			return confined.Info{}, false
		}
		n[i] = v
	}
	return confined.Info{Size: n[0], Mtime: n[1], Ctime: n[2], Ino: uint64(n[3]), Mode: fs.FileMode(n[4])}, true
}

// parseCache returns nil for anything that is not a well-formed cache: a
// cache is only ever an optimisation.
func parseCache(data []byte) *statCache {
	sc := &statCache{files: make(map[string]confined.Info, max(bytes.Count(data, []byte("\n"))-4, 0))}
	end := false
	n := 0
	// The lines are read from data in place (a bufio.Scanner's 64 KiB
	// buffer, zeroed for every tenant's cache, cost a no-change build a
	// tenth of its CPU), and an output's line without a string or a
	// slice of fields, which every unchanged tenant paid for each of its
	// outputs; a line longer than maxCacheLine is refused as the scanner
	// refused it.
	for b := range bytes.Lines(data) {
		n++
		b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
		if len(b) > maxCacheLine {
			return nil
		}
		var ok bool
		switch {
		case end:
			ok = false
		case n > 3 && string(b) == "end":
			end, ok = true, true
		case n == 1:
			ok = string(b) == cacheMagic
		case n == 2:
			var key []byte
			if key, ok = bytes.CutPrefix(b, []byte("key ")); ok {
				sc.key = string(key)
			}
		case n == 3:
			var rest []byte
			if rest, ok = bytes.CutPrefix(b, []byte("record ")); ok {
				sc.rec, ok = parseStat(strings.Fields(string(rest)))
			}
		default:
			var rest []byte
			if rest, ok = bytes.CutPrefix(b, []byte("s ")); ok {
				var st confined.Info
				var name []byte
				if st, name, ok = parseStatLine(rest); ok {
					p := string(name)
					sc.files[p] = st
					sc.order = append(sc.order, p)
				}
			}
		}
		if !ok {
			return nil
		}
	}
	if sc.key == "" || !end {
		return nil // torn, or not a cache
	}
	return sc
}

// parseStatLine reads "size mtime ctime ino mode name" (the fields
// parted by single spaces, the name the rest of the line, not empty) as
// parseStat reads the first five.
func parseStatLine(b []byte) (confined.Info, []byte, bool) {
	var n [5]int64
	for i := range n {
		f, rest, ok := bytes.Cut(b, []byte(" "))
		if !ok {
			return confined.Info{}, nil, false
		}
		base := 10
		if i == 4 {
			base = 8
		}
		if n[i], ok = parseInt(f, base); !ok {
			return confined.Info{}, nil, false
		}
		b = rest
	}
	if len(b) == 0 {
		return confined.Info{}, nil, false
	}
	return confined.Info{Size: n[0], Mtime: n[1], Ctime: n[2], Ino: uint64(n[3]), Mode: fs.FileMode(n[4])}, b, true
}

// parseInt is strconv.ParseInt(string(b), base, 64) for base 8 or 10,
// without a string: an optional sign, then one digit or more, in range.
func parseInt(b []byte, base int) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg, b = b[0] == '-', b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		d := uint64(c) - '0'
		if c < '0' || d >= uint64(base) {
			return 0, false
		}
		if u > (1<<63)/uint64(base) {
			return 0, false // u*base+d is past the range, and fits a uint64
		}
		u = u*uint64(base) + d
		if u > 1<<63 {
			return 0, false
		}
	}
	if !neg && u == 1<<63 {
		return 0, false
	}
	v := int64(u)
	if neg {
		v = -v
	}
	return v, true
}

// maxCacheLine is the longest line a stat cache may hold.
const maxCacheLine = 64 * 1024

// loadCache reads the stat cache of c's record; a missing, malformed or
// stale one (its record stat differs) leaves c.cache nil.
func (c *Changes) loadCache() {
	if !c.recExists {
		return
	}
	data, _, release, err := c.readState(c.opt.StateDir, c.recordFile(".stat"), maxRecordSize)
	defer release()
	if err != nil {
		return
	}
	if sc := c.parseCache(data); sc != nil && sc.rec.Same(c.recStat) {
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
	data, _, release, err := c.readState(c.opt.StateDir, c.recordFile(".stat"), maxRecordSize)
	defer release()
	if err != nil {
		return false, nil
	}
	sc := c.parseCache(data)
	if sc == nil || sc.key != keyHash(opt.Key) {
		return false, nil
	}
	st, err := statedir.Lstat(c.recordFile(".rec"))
	if err != nil || !st.Same(sc.rec) {
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
	paths := slices.Sorted(maps.Keys(sc.files))
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
			if ok = err == nil && confined.StatOf(fi).Same(sc.files[p]); !ok {
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
func sameIn(dir *confined.Dir, sc *statCache) bool {
	for _, g := range byParent(sc.order, func(p string) string { return p }, 0) {
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
			if ok = err == nil && st.Same(sc.files[p]); !ok {
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
	sc := &statCache{key: keyHash(c.opt.Key), rec: rec, files: stats}
	data := sc.marshal()
	if c.cacheBytes != nil && bytes.Equal(data, c.cacheBytes) {
		return nil
	}
	_, err := c.writeState(c.recordFile(".stat"), data, false, true, false)
	return err
}

// refusalMagic is the first line of a refusal cache.
const refusalMagic = "discgen refusal cache 1"

// maxRefusal bounds a refusal cache: what a caller keeps there is a
// bounded list of diagnostics.
const maxRefusal = 4 << 20

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

// refusedDir is the directory of the verdicts a build keeps in its own
// state directory.
const refusedDir = "refused"

// refusalFile is where root's verdict is kept, and whether that is the
// build's own refused/ directory.
func (c *Changes) refusalFile() (string, bool) {
	if d := c.opt.JournalDir; d != "" && d != c.opt.StateDir {
		h := sha256.Sum256([]byte(c.name))
		x := hex.EncodeToString(h[:])
		return filepath.Join(d, refusedDir, x[:2], x[2:4], x+".stat"), true
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
		st, err := statedir.Lstat(filepath.Join(opt.JournalDir, refusedDir))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, false
		}
		if o, ok := st.Owner(); err != nil || !st.Mode.IsDir() || st.Mode.Perm()&0o077 != 0 || ok && o.UID != os.Geteuid() {
			return nil, false, true
		}
	}
	data, _, err := statedir.ReadFile(file, maxRefusal)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, false
	}
	if err != nil {
		return nil, false, true
	}
	head := refusalMagic + "\nkey " + keyHash(opt.Key) + "\n"
	rest, ok := bytes.CutPrefix(data, []byte(head))
	return rest, ok, !ok
}

// SaveRefusal keeps data as root's verdict under opt.Key, replacing the
// cache atomically (a temporary file and a rename).
func SaveRefusal(root string, opt Options, data []byte) error {
	if opt.Key == "" || opt.StateDir == "" || len(data) > maxRefusal-256 {
		return nil
	}
	c := &Changes{Root: root, opt: opt}
	if err := c.setName(); err != nil {
		return err
	}
	file, shared := c.refusalFile()
	if shared {
		if private, err := statedir.PrivateDir(filepath.Join(opt.JournalDir, refusedDir)); err != nil || !private {
			return err
		}
	}
	out := append([]byte(refusalMagic+"\nkey "+keyHash(opt.Key)+"\n"), data...)
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
