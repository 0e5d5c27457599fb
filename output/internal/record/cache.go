package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/discgen/discgen/internal/confined"
)

// The stat cache, beside each ownership record, and the refusal cache:
// their formats (output's cache.go reads and writes them for a plan).
// What the stat cache compares is a confined.Info: a file unchanged in
// its size, times, inode and mode (Info.Same) is taken to hold the bytes
// discgen recorded, as make, ninja and git's index do.

// statString renders s as the cache keeps it: "size mtime ctime inode
// mode", the mode in octal.
func statString(s confined.Info) string {
	return fmt.Sprintf("%d %d %d %d %o", s.Size, s.Mtime, s.Ctime, s.Ino, uint32(s.Mode))
}

// cacheMagic is the first line of a stat cache.
const cacheMagic = "discgen stat cache 2"

// StatCache is the machine-local part of what discgen keeps for a root,
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
type StatCache struct {
	Key   string // hex SHA-256 of Options.Key, "-" when none
	Rec   confined.Info
	Files map[string]confined.Info
	Order []string // files' paths in the cache's order (parseCache)
}

func KeyHash(key string) string {
	if key == "" {
		return "-"
	}
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

func (sc *StatCache) Marshal() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\nkey %s\nrecord %s\n", cacheMagic, sc.Key, statString(sc.Rec))
	for _, p := range slices.Sorted(maps.Keys(sc.Files)) {
		fmt.Fprintf(&b, "s %s %s\n", statString(sc.Files[p]), p)
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

// ParseCache returns nil for anything that is not a well-formed cache: a
// cache is only ever an optimisation.
func ParseCache(data []byte) *StatCache {
	sc := &StatCache{Files: make(map[string]confined.Info, max(bytes.Count(data, []byte("\n"))-4, 0))}
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
				sc.Key = string(key)
			}
		case n == 3:
			var rest []byte
			if rest, ok = bytes.CutPrefix(b, []byte("record ")); ok {
				sc.Rec, ok = parseStat(strings.Fields(string(rest)))
			}
		default:
			var rest []byte
			if rest, ok = bytes.CutPrefix(b, []byte("s ")); ok {
				var st confined.Info
				var name []byte
				if st, name, ok = parseStatLine(rest); ok {
					p := string(name)
					sc.Files[p] = st
					sc.Order = append(sc.Order, p)
				}
			}
		}
		if !ok {
			return nil
		}
	}
	if sc.Key == "" || !end {
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

// RefusalMagic is the first line of a refusal cache.
const RefusalMagic = "discgen refusal cache 1"

// MaxRefusal bounds a refusal cache: what a caller keeps there is a
// bounded list of diagnostics.
const MaxRefusal = 4 << 20

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

// RefusedDir is the directory of the verdicts a build keeps in its own
// state directory.
const RefusedDir = "refused"
