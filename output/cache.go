package output

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// fileStat is what the stat cache compares: a file unchanged in all of
// these is taken to hold the bytes discgen recorded, as make, ninja and
// git's index do.
type fileStat struct {
	size, mtime, ctime int64 // mtime and ctime in nanoseconds
	ino, dev           uint64
	mode               uint32
}

// same compares everything but the device, which the cache does not keep.
func (s fileStat) same(o fileStat) bool {
	return s.size == o.size && s.mtime == o.mtime && s.ctime == o.ctime && s.ino == o.ino && s.mode == o.mode
}

func (s fileStat) String() string {
	return fmt.Sprintf("%d %d %d %d %o", s.size, s.mtime, s.ctime, s.ino, s.mode)
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
	rec   fileStat
	files map[string]fileStat
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
	fmt.Fprintf(&b, "%s\nkey %s\nrecord %s\n", cacheMagic, sc.key, sc.rec)
	for _, p := range slices.Sorted(maps.Keys(sc.files)) {
		fmt.Fprintf(&b, "s %s %s\n", sc.files[p], p)
	}
	b.WriteString("end\n")
	return b.Bytes()
}

// parseStat reads "size mtime ctime ino mode" from the fields f.
func parseStat(f []string) (fileStat, bool) {
	if len(f) != 5 {
		return fileStat{}, false
	}
	var n [5]int64
	for i, s := range f {
		base := 10
		if i == 4 {
			base = 8
		}
		v, err := strconv.ParseInt(s, base, 64)
		if err != nil {
			return fileStat{}, false
		}
		n[i] = v
	}
	return fileStat{size: n[0], mtime: n[1], ctime: n[2], ino: uint64(n[3]), mode: uint32(n[4])}, true
}

// parseCache returns nil for anything that is not a well-formed cache: a
// cache is only ever an optimisation.
func parseCache(data []byte) *statCache {
	sc := &statCache{files: map[string]fileStat{}}
	s := bufio.NewScanner(bytes.NewReader(data))
	s.Buffer(make([]byte, 0, 64*1024), 64*1024)
	end := false
	for n := 1; s.Scan(); n++ {
		line := s.Text()
		var ok bool
		switch {
		case end:
			ok = false
		case n > 3 && line == "end":
			end, ok = true, true
		case n == 1:
			ok = line == cacheMagic
		case n == 2:
			sc.key, ok = strings.CutPrefix(line, "key ")
		case n == 3:
			var rest string
			if rest, ok = strings.CutPrefix(line, "record "); ok {
				sc.rec, ok = parseStat(strings.Fields(rest))
			}
		default:
			var rest string
			if rest, ok = strings.CutPrefix(line, "s "); ok {
				f := strings.SplitN(rest, " ", 6)
				if ok = len(f) == 6 && f[5] != ""; ok {
					sc.files[f[5]], ok = parseStat(f[:5])
				}
			}
		}
		if !ok {
			return nil
		}
	}
	if s.Err() != nil || sc.key == "" || !end {
		return nil // torn, or not a cache
	}
	return sc
}

// loadCache reads the stat cache of c's record; a missing, malformed or
// stale one (its record stat differs) leaves c.cache nil.
func (c *Changes) loadCache() {
	if !c.recExists {
		return
	}
	data, _, err := readStateFile(c.recordFile(".stat"), stateLimit(c.opt.StateDir, maxRecordSize))
	if err != nil {
		return
	}
	if sc := parseCache(data); sc != nil && sc.rec.same(c.recStat) {
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
func Fresh(root string, opt Options) (bool, error) {
	if opt.Key == "" || opt.StateDir == "" {
		return false, nil
	}
	c := &Changes{Root: root, opt: opt}
	if err := c.setName(); err != nil {
		return false, err
	}
	data, _, err := readStateFile(c.recordFile(".stat"), stateLimit(c.opt.StateDir, maxRecordSize))
	if err != nil {
		return false, nil
	}
	sc := parseCache(data)
	if sc == nil || sc.key != keyHash(opt.Key) {
		return false, nil
	}
	fi, err := os.Lstat(c.recordFile(".rec"))
	if err != nil || !statOf(fi).same(sc.rec) {
		return false, nil
	}
	r := opt.Dir
	if r == nil {
		var missing bool
		r, missing, err = c.openRoot(false)
		if err != nil || r == nil || missing {
			return false, nil
		}
		defer r.Close()
	}
	paths := slices.Sorted(maps.Keys(sc.files))
	for _, g := range groupByDir(paths) {
		d := parent(g[0])
		dr, err := openDir(r, d)
		if err != nil {
			return false, nil
		}
		ok := true
		for _, p := range g {
			fi, err := dr.Lstat(path.Base(p))
			if ok = err == nil && statOf(fi).same(sc.files[p]); !ok {
				break
			}
		}
		closeDir(r, dr)
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// saveCache writes the stat cache for the record whose stat is rec, with
// the stats of the outputs in stats, unless the bytes are already there.
func (c *Changes) saveCache(rec fileStat, stats map[string]fileStat) error {
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

// A refusal cache (".refused.stat" beside the record, machine-local as
// the stat cache, which the state directory's .gitignore keeps out of
// version control) holds why a root's input was refused, under the same
// key as the stat cache: while opt.Key is unchanged the input is, and so
// is the verdict. A build then reports the verdict at the cost of reading
// this small file, without reading or checking its input again.
//
//	discgen refusal cache 1
//	key 5f0c...9a
//	<the caller's bytes>

// Refusal returns the bytes SaveRefusal kept for root under opt.Key, and
// whether there are any. A missing, torn or stale cache gives false.
func Refusal(root string, opt Options) ([]byte, bool) {
	if opt.Key == "" || opt.StateDir == "" {
		return nil, false
	}
	c := &Changes{Root: root, opt: opt}
	if c.setName() != nil {
		return nil, false
	}
	data, _, err := readStateFile(c.recordFile(".refused.stat"), maxRefusal)
	if err != nil {
		return nil, false
	}
	head := refusalMagic + "\nkey " + keyHash(opt.Key) + "\n"
	rest, ok := bytes.CutPrefix(data, []byte(head))
	return rest, ok
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
	out := append([]byte(refusalMagic+"\nkey "+keyHash(opt.Key)+"\n"), data...)
	_, err := c.writeState(c.recordFile(".refused.stat"), out, false, false, false)
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
	if err := os.Remove(c.recordFile(".refused.stat")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("state directory: %w", err)
	}
	return nil
}
