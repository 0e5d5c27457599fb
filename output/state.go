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
	"path/filepath"
	"slices"
	"strings"

	"github.com/discgen/discgen/internal/limited"
)

// recordMagic is the first line of every ownership record.
const recordMagic = "discgen output record 1"

// sum identifies the content discgen wrote at a path: a regular file's bytes
// ('f') or a symlink's target ('l').
type sum struct {
	kind byte
	hash [sha256.Size]byte
}

func fileSum(data []byte) sum { return sum{'f', sha256.Sum256(data)} }
func linkSum(target string) sum {
	return sum{'l', sha256.Sum256([]byte(target))}
}

func (s sum) String() string { return string(s.kind) + " " + hex.EncodeToString(s.hash[:]) }

// record is what discgen knows it owns under one output root: the files it
// wrote (with every content it may have left there) and the directories it
// created. complete is false while a build is in progress: a record left
// incomplete means that build was interrupted, and its temporary files may
// remain.
type record struct {
	root     string // absolute root path the record belongs to
	complete bool
	files    map[string][]sum
	dirs     map[string]bool
}

func newRecord(root string) *record {
	return &record{root: root, complete: true, files: map[string][]sum{}, dirs: map[string]bool{}}
}

func (r *record) owns(p string, s sum) bool { return slices.Contains(r.files[p], s) }

func (r *record) addSum(p string, s sum) {
	if !r.owns(p, s) {
		r.files[p] = append(r.files[p], s)
	}
}

// marshal renders the record deterministically: header, then one line per
// directory and per file sum, sorted by path and then by sum.
//
//	discgen output record 1
//	root /srv/www/public
//	state complete
//	d autodisc
//	f 3a7b...e1 autodisc/index.txt
//	l 9c0d...42 autodisc/robots.txt
func (r *record) marshal() []byte {
	var b bytes.Buffer
	state := "complete"
	if !r.complete {
		state = "incomplete"
	}
	fmt.Fprintf(&b, "%s\nroot %s\nstate %s\n", recordMagic, r.root, state)
	paths := slices.Collect(maps.Keys(r.dirs))
	for p := range r.files {
		if !r.dirs[p] {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		if r.dirs[p] {
			fmt.Fprintf(&b, "d %s\n", p)
		}
		lines := make([]string, 0, len(r.files[p]))
		for _, s := range r.files[p] {
			lines = append(lines, s.String())
		}
		slices.Sort(lines)
		for _, l := range lines {
			fmt.Fprintf(&b, "%s %s\n", l, p)
		}
	}
	return b.Bytes()
}

func parseRecord(data []byte, name string) (*record, error) {
	bad := func(line int, msg string) error {
		return fmt.Errorf("%s:%d: corrupt ownership record: %s", name, line, msg)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024)
	r := newRecord("")
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case n == 1:
			if line != recordMagic {
				return nil, bad(n, "unknown header")
			}
		case n == 2:
			root, ok := strings.CutPrefix(line, "root ")
			if !ok {
				return nil, bad(n, "missing root line")
			}
			r.root = root
		case n == 3:
			switch line {
			case "state complete":
			case "state incomplete":
				r.complete = false
			default:
				return nil, bad(n, "missing state line")
			}
		case strings.HasPrefix(line, "d "):
			r.dirs[line[2:]] = true
		case strings.HasPrefix(line, "f "), strings.HasPrefix(line, "l "):
			hexsum, p, ok := strings.Cut(line[2:], " ")
			var s sum
			s.kind = line[0]
			if h, err := hex.DecodeString(hexsum); !ok || err != nil || len(h) != len(s.hash) || p == "" {
				return nil, bad(n, "malformed file line")
			} else {
				copy(s.hash[:], h)
			}
			r.addSum(p, s)
		default:
			return nil, bad(n, "unknown line")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if n < 3 {
		return nil, bad(n, "truncated")
	}
	return r, nil
}

// recordName is the slash path, inside the state directory, of the record
// for the absolute root path abs: outputs/ab/cd/abcd....rec, from the
// SHA-256 of the path. Two levels of 256 subdirectories keep each directory
// small even for a million roots.
func recordName(abs string) string {
	h := sha256.Sum256([]byte(abs))
	x := hex.EncodeToString(h[:])
	return "outputs/" + x[:2] + "/" + x[2:4] + "/" + x + ".rec"
}

// maxRecordSize bounds the ownership record read from the state directory.
const maxRecordSize = 256 << 20

// loadRecord reads the record for root from stateDir. A missing record is an
// empty one (exists false): discgen owns nothing there yet.
func loadRecord(stateDir, abs string) (r *record, exists bool, err error) {
	name := filepath.Join(stateDir, filepath.FromSlash(recordName(abs)))
	data, err := limited.ReadFile(name, maxRecordSize)
	if errors.Is(err, fs.ErrNotExist) {
		return newRecord(abs), false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", name, err)
	}
	r, err = parseRecord(data, name)
	if err != nil {
		return nil, false, err
	}
	if r.root != abs {
		return nil, false, fmt.Errorf("%s: ownership record belongs to %s, not %s", name, r.root, abs)
	}
	return r, true, nil
}

// saveRecord writes the record atomically (temp file, fsync, rename) under
// stateDir, confined to it by an os.Root.
func saveRecord(stateDir string, r *record, sync bool) error {
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	sr, err := os.OpenRoot(stateDir)
	if err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	defer sr.Close()
	name := filepath.FromSlash(recordName(r.root))
	dir := filepath.Dir(name)
	if err := sr.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	if err := writeAtomic(sr, name, r.marshal(), 0o644, sync); err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	if sync {
		return syncDir(sr, dir)
	}
	return nil
}

// lockRecord serializes the builds that write records in the same
// directory of the state directory (a root and the few others whose hashes
// share its first four hex digits), by locking that directory. It returns
// the function that releases the lock. Holding the lock, it removes the
// temporary files a killed build left in that directory: no live build can
// be writing them.
func lockRecord(stateDir, abs string) (func(), error) {
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	sr, err := os.OpenRoot(stateDir)
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	dir := filepath.Dir(filepath.FromSlash(recordName(abs)))
	if err := sr.MkdirAll(dir, 0o755); err != nil {
		sr.Close()
		return nil, fmt.Errorf("state directory: %w", err)
	}
	f, err := sr.Open(dir)
	if err == nil {
		if err = flock(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		sr.Close()
		return nil, fmt.Errorf("state directory: lock: %w", err)
	}
	names, _ := f.Readdirnames(-1)
	for _, n := range names {
		if isTempName(n) {
			sr.Remove(filepath.Join(dir, n))
		}
	}
	return func() { f.Close(); sr.Close() }, nil
}
