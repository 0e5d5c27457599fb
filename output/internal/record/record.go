package record

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
)

// The ownership record: what discgen wrote under one root, in the state
// directory. This file holds its format (Record, Marshal, Parse), where
// it lives (Base) and the form of the temporary files it lists; state.go
// reads and writes it. What remains of format 1 is format1.go's; the
// machine-local stat cache beside it is cache.go's.

// magic is the first line of every ownership record (format 2;
// format 1's is format1.go's).
const magic = "discgen output record 2"

// Sum identifies the content discgen wrote at a path: a regular file's bytes
// ('f') or a symlink's target ('l').
type Sum struct {
	Kind byte
	Hash [sha256.Size]byte
}

// FileSum is the Sum of a regular file holding data, LinkSum that of a
// symlink to target.
func FileSum(data []byte) Sum { return Sum{'f', sha256.Sum256(data)} }
func LinkSum(target string) Sum {
	return Sum{'l', sha256.Sum256([]byte(target))}
}

// String is s as a record's line gives it: its kind, a space, the hash
// in hex.
func (s Sum) String() string { return string(s.Kind) + " " + hex.EncodeToString(s.Hash[:]) }

// Record is what discgen knows it owns under one output root: the files it
// wrote (with every content it may have left there) and the directories it
// created. complete is false while a build is in progress: a Record left
// incomplete means that build was interrupted, and temps lists the
// temporary files it may have left, the only ones discgen removes.
type Record struct {
	Name     string // the portable name the record is stored under
	Complete bool
	Files    map[string][]Sum
	Dirs     map[string]bool
	Temps    []string // slash paths of temporary files, when incomplete
}

func New(name string) *Record {
	return &Record{Name: name, Complete: true, Files: map[string][]Sum{}, Dirs: map[string]bool{}}
}

func (r *Record) Owns(p string, s Sum) bool { return slices.Contains(r.Files[p], s) }

func (r *Record) AddSum(p string, s Sum) {
	if !r.Owns(p, s) {
		r.Files[p] = append(r.Files[p], s)
	}
}

// Absorb adds what the intent record in owns to m, which becomes
// incomplete.
func (m *Record) Absorb(in *Record) {
	m.Complete = false
	for p, ss := range in.Files {
		for _, s := range ss {
			m.AddSum(p, s)
		}
	}
	for d := range in.Dirs {
		m.Dirs[d] = true
	}
	for _, t := range in.Temps {
		if !slices.Contains(m.Temps, t) {
			m.Temps = append(m.Temps, t)
		}
	}
}

// Marshal renders the record deterministically: header, then one line per
// directory, per file sum and per temporary file, sorted by path and then
// by sum.
//
//	discgen output record 2
//	name public
//	state complete
//	d autodisc
//	f 3a7b...e1 autodisc/index.txt
//	l 9c0d...42 autodisc/robots.txt
func (r *Record) Marshal() []byte {
	var b bytes.Buffer
	state := "complete"
	if !r.Complete {
		state = "incomplete"
	}
	fmt.Fprintf(&b, "%s\nname %s\nstate %s\n", magic, r.Name, state)
	paths := slices.Collect(maps.Keys(r.Dirs))
	for p := range r.Files {
		if !r.Dirs[p] {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		if r.Dirs[p] {
			fmt.Fprintf(&b, "d %s\n", p)
		}
		lines := make([]string, 0, len(r.Files[p]))
		for _, s := range r.Files[p] {
			lines = append(lines, s.String())
		}
		slices.Sort(lines)
		for _, l := range lines {
			fmt.Fprintf(&b, "%s %s\n", l, p)
		}
	}
	for _, t := range slices.Sorted(slices.Values(r.Temps)) {
		fmt.Fprintf(&b, "t %s\n", t)
	}
	return b.Bytes()
}

// Parse reads a record of format 2, or of format 1 (whose second
// line, "root /abs/path", is returned as root: see format1Root).
func Parse(data []byte, name string) (r *Record, root string, err error) {
	return ParseMax(data, name, 0)
}

// ParseMax is Parse refusing, at the line past them, a record
// of more than maxPaths lines after its header (Options.MaxPaths; 0
// leaves the lines unbounded).
func ParseMax(data []byte, name string, maxPaths int) (r *Record, root string, err error) {
	bad := func(line int, msg string) error {
		return fmt.Errorf("%s:%d: corrupt ownership record: %s", name, line, msg)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64*1024) // grows from 4 KiB: a journal holds many small records
	r = New("")
	n, v1 := 0, false
	for sc.Scan() {
		n++
		if maxPaths > 0 && n > 3+maxPaths {
			return nil, "", PastPaths(name, n, maxPaths)
		}
		line := sc.Text()
		switch {
		case n == 1:
			switch {
			case line == magic:
			case line == magic1:
				v1 = true
			default:
				return nil, "", bad(n, "unknown header")
			}
		case n == 2 && v1:
			var msg string
			if root, msg = format1Root(line); msg != "" {
				return nil, "", bad(n, msg)
			}
		case n == 2:
			var ok bool
			if r.Name, ok = strings.CutPrefix(line, "name "); !ok || r.Name == "" {
				return nil, "", bad(n, "missing name line")
			}
		case n == 3:
			switch line {
			case "state complete":
			case "state incomplete":
				r.Complete = false
			default:
				return nil, "", bad(n, "missing state line")
			}
		case strings.HasPrefix(line, "d ") && !validPath(line[2:]),
			strings.HasPrefix(line, "t ") && !validPath(line[2:]):
			return nil, "", bad(n, outsideRoot)
		case strings.HasPrefix(line, "d "):
			r.Dirs[line[2:]] = true
		case strings.HasPrefix(line, "t ") && !v1:
			if !IsTempName(path.Base(line[2:])) {
				return nil, "", bad(n, "malformed temporary file line")
			}
			r.Temps = append(r.Temps, line[2:])
		case strings.HasPrefix(line, "f "), strings.HasPrefix(line, "l "):
			hexsum, p, ok := strings.Cut(line[2:], " ")
			var s Sum
			s.Kind = line[0]
			if h, err := hex.DecodeString(hexsum); !ok || err != nil || len(h) != len(s.Hash) || p == "" {
				return nil, "", bad(n, "malformed file line")
			} else if !validPath(p) {
				return nil, "", bad(n, outsideRoot)
			} else {
				copy(s.Hash[:], h)
			}
			r.AddSum(p, s)
		default:
			return nil, "", bad(n, "unknown line")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, "", fmt.Errorf("%s: %v", name, err)
	}
	if n < 3 {
		return nil, "", bad(n, "truncated")
	}
	return r, root, nil
}

// validPath reports whether p, a path a record names, lies below the
// root: relative, clean, without "." or ".." components. A record a
// root's owner may write (RootStateDir) names nothing else.
func validPath(p string) bool {
	return p != "." && fs.ValidPath(p) && !strings.ContainsRune(p, 0)
}

// outsideRoot is what a record naming a path outside its root is refused
// for.
const outsideRoot = "path not below the output root"

// Base is the slash path, inside the state directory and without
// extension, of the files kept for the record named name:
// records/ab/cd/abcd..., from the SHA-256 of the name. Two levels of 256
// subdirectories keep each directory small even for a million roots. The
// record is that path plus ".rec", the machine-local stat cache plus
// ".stat".
func Base(name string) string {
	h := sha256.Sum256([]byte(name))
	x := hex.EncodeToString(h[:])
	return "records/" + x[:2] + "/" + x[2:4] + "/" + x
}

// CheckName refuses record names that are not portable: absolute,
// empty, or holding a control character.
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("empty record name")
	case path.IsAbs(name) || filepath.IsAbs(name) || filepath.VolumeName(name) != "":
		return fmt.Errorf("record name %q is an absolute path; it must be portable", name)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("record name %q holds a control character", name)
	}
	return nil
}

// DefaultName is the root relative to the state directory's parent,
// in slash form: "public" for the CLI's public/ beside .discgen/, the same
// on every machine that keeps the same layout.
func DefaultName(stateAbs, abs string) (string, error) {
	rel, err := filepath.Rel(filepath.Dir(stateAbs), abs)
	if err != nil {
		return "", fmt.Errorf("output: cannot name the ownership record of %s relative to %s: %v", abs, stateAbs, err)
	}
	return filepath.ToSlash(rel), nil
}

// MaxSize bounds the ownership record read from the state directory.
const MaxSize = 256 << 20

// BoundError is the error of a record past the bounds of Options.MaxPaths.
type BoundError string

func (e BoundError) Error() string { return string(e) }

// PastPaths is the error of the record file name, whose line (after its
// header) passes the maxPaths lines it may hold.
func PastPaths(name string, line, maxPaths int) error {
	return fmt.Errorf("%s:%d: %w", name, line, BoundError(fmt.Sprintf("ownership record names more than %d paths, more than this root may hold", maxPaths)))
}

// MaxPathBytes is what Options.MaxPaths lets a record or stat cache hold
// for each path it may name, in bytes: a line of the record is 68 bytes
// and the path, and a path of a published tree is far shorter than this.
const MaxPathBytes = 1 << 10

// StateCostPerByte is the memory reading and parsing a record or stat
// cache takes, for each byte of it: the bytes read, a string for each
// line, and the maps they go into (a record of 200,000 claims of short
// paths, 16 MiB, held 39 MiB live while parsed: its bytes, and 23 MiB of
// claims, about 120 bytes each).
const StateCostPerByte = 4

// SmallState is the size up to which a record or stat cache is read
// without a reservation, and past which a file that grew since it was
// reserved for is refused.
const SmallState = 64 << 10

// stateIgnore is written into a state directory discgen creates, so that
// committing the directory commits the records and not the machine-local
// stat caches or temporary files.
const stateIgnore = "# Written by discgen. Commit the .rec ownership records; the .stat caches\n# are machine-local and rebuilt when missing or stale, and journal/ and\n# locks/ hold only what builds in progress use.\n*.stat\n*.tmp\njournal/\nlocks/\n"

// A temporary file of a build is named TempPrefix + 16 hex digits +
// TempSuffix in the directory of the file it replaces (see output's
// stage.go); records of earlier builds may list files named with
// oldTempPrefix instead, which are removed the same way.
const (
	TempPrefix    = ".htdiscgen-"
	oldTempPrefix = ".discgen-"
	TempSuffix    = ".tmp"
)

// RandomHex is 16 random hex digits: the unique part of a temporary
// file's name, and of a journal's.
func RandomHex() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// IsTempName reports whether name has the form of discgen's temporary
// files. Only those listed in an interrupted build's record are removed.
func IsTempName(name string) bool {
	x, ok := strings.CutPrefix(name, TempPrefix)
	if !ok {
		if x, ok = strings.CutPrefix(name, oldTempPrefix); !ok {
			return false
		}
	}
	x, ok = strings.CutSuffix(x, TempSuffix)
	if !ok || len(x) != 16 {
		return false
	}
	_, err := hex.DecodeString(x)
	return err == nil
}
