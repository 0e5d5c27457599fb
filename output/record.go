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
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
)

// The ownership record: what discgen wrote under one root, in the state
// directory. This file holds its format (record, marshal, parseRecord),
// where it lives (recordBase), and how it is loaded and written
// (loadRecord, writeState). What remains of format 1 is
// record_format1.go's. The machine-local stat
// cache beside it is cache.go's; the journal that makes a record's
// intent durable before a batch changes anything is journal.go's.

// recordMagic is the first line of every ownership record (format 2;
// format 1's is record_format1.go's).
const recordMagic = "discgen output record 2"

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
// incomplete means that build was interrupted, and temps lists the
// temporary files it may have left, the only ones discgen removes.
type record struct {
	name     string // the portable name the record is stored under
	complete bool
	files    map[string][]sum
	dirs     map[string]bool
	temps    []string // slash paths of temporary files, when incomplete
}

func newRecord(name string) *record {
	return &record{name: name, complete: true, files: map[string][]sum{}, dirs: map[string]bool{}}
}

func (r *record) owns(p string, s sum) bool { return slices.Contains(r.files[p], s) }

func (r *record) addSum(p string, s sum) {
	if !r.owns(p, s) {
		r.files[p] = append(r.files[p], s)
	}
}

// marshal renders the record deterministically: header, then one line per
// directory, per file sum and per temporary file, sorted by path and then
// by sum.
//
//	discgen output record 2
//	name public
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
	fmt.Fprintf(&b, "%s\nname %s\nstate %s\n", recordMagic, r.name, state)
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
	for _, t := range slices.Sorted(slices.Values(r.temps)) {
		fmt.Fprintf(&b, "t %s\n", t)
	}
	return b.Bytes()
}

// parseRecord reads a record of format 2, or of format 1 (whose second
// line, "root /abs/path", is returned as root: see format1Root).
func parseRecord(data []byte, name string) (r *record, root string, err error) {
	return parseRecordMax(data, name, 0)
}

// parseRecordMax is parseRecord refusing, at the line past them, a record
// of more than maxPaths lines after its header (Options.MaxPaths; 0
// leaves the lines unbounded).
func parseRecordMax(data []byte, name string, maxPaths int) (r *record, root string, err error) {
	bad := func(line int, msg string) error {
		return fmt.Errorf("%s:%d: corrupt ownership record: %s", name, line, msg)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64*1024) // grows from 4 KiB: a journal holds many small records
	r = newRecord("")
	n, v1 := 0, false
	for sc.Scan() {
		n++
		if maxPaths > 0 && n > 3+maxPaths {
			return nil, "", pastPaths(name, n, maxPaths)
		}
		line := sc.Text()
		switch {
		case n == 1:
			switch {
			case line == recordMagic:
			case line == recordMagic1:
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
			if r.name, ok = strings.CutPrefix(line, "name "); !ok || r.name == "" {
				return nil, "", bad(n, "missing name line")
			}
		case n == 3:
			switch line {
			case "state complete":
			case "state incomplete":
				r.complete = false
			default:
				return nil, "", bad(n, "missing state line")
			}
		case strings.HasPrefix(line, "d ") && !recordPath(line[2:]),
			strings.HasPrefix(line, "t ") && !recordPath(line[2:]):
			return nil, "", bad(n, badPath)
		case strings.HasPrefix(line, "d "):
			r.dirs[line[2:]] = true
		case strings.HasPrefix(line, "t ") && !v1:
			if !isTempName(path.Base(line[2:])) {
				return nil, "", bad(n, "malformed temporary file line")
			}
			r.temps = append(r.temps, line[2:])
		case strings.HasPrefix(line, "f "), strings.HasPrefix(line, "l "):
			hexsum, p, ok := strings.Cut(line[2:], " ")
			var s sum
			s.kind = line[0]
			if h, err := hex.DecodeString(hexsum); !ok || err != nil || len(h) != len(s.hash) || p == "" {
				return nil, "", bad(n, "malformed file line")
			} else if !recordPath(p) {
				return nil, "", bad(n, badPath)
			} else {
				copy(s.hash[:], h)
			}
			r.addSum(p, s)
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

// recordPath reports whether p, a path a record names, lies below the
// root: relative, clean, without "." or ".." components. A record a
// root's owner may write (RootStateDir) names nothing else.
func recordPath(p string) bool {
	return p != "." && fs.ValidPath(p) && !strings.ContainsRune(p, 0)
}

// badPath is what a record naming a path outside its root is refused
// for.
const badPath = "path not below the output root"

// recordBase is the slash path, inside the state directory and without
// extension, of the files kept for the record named name:
// records/ab/cd/abcd..., from the SHA-256 of the name. Two levels of 256
// subdirectories keep each directory small even for a million roots. The
// record is that path plus ".rec", the machine-local stat cache plus
// ".stat".
func recordBase(name string) string {
	h := sha256.Sum256([]byte(name))
	x := hex.EncodeToString(h[:])
	return "records/" + x[:2] + "/" + x[2:4] + "/" + x
}

// checkRecordName refuses record names that are not portable: absolute,
// empty, or holding a control character.
func checkRecordName(name string) error {
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

// defaultRecordName is the root relative to the state directory's parent,
// in slash form: "public" for the CLI's public/ beside .discgen/, the same
// on every machine that keeps the same layout.
func defaultRecordName(stateAbs, abs string) (string, error) {
	rel, err := filepath.Rel(filepath.Dir(stateAbs), abs)
	if err != nil {
		return "", fmt.Errorf("output: cannot name the ownership record of %s relative to %s: %v", abs, stateAbs, err)
	}
	return filepath.ToSlash(rel), nil
}

// maxRecordSize bounds the ownership record read from the state directory.
const maxRecordSize = 256 << 20

// boundError is the error of a record past the bounds of Options.MaxPaths.
type boundError string

func (e boundError) Error() string { return string(e) }

// pastPaths is the error of the record file name, whose line (after its
// header) passes the maxPaths lines it may hold.
func pastPaths(name string, line, maxPaths int) error {
	return fmt.Errorf("%s:%d: %w", name, line, boundError(fmt.Sprintf("ownership record names more than %d paths, more than this root may hold", maxPaths)))
}

// maxPathBytes is what Options.MaxPaths lets a record or stat cache hold
// for each path it may name, in bytes: a line of the record is 68 bytes
// and the path, and a path of a published tree is far shorter than this.
const maxPathBytes = 1 << 10

// stateCostPerByte is the memory reading and parsing a record or stat
// cache takes, for each byte of it: the bytes read, a string for each
// line, and the maps they go into (a record of 200,000 claims of short
// paths, 16 MiB, held 39 MiB live while parsed: its bytes, and 23 MiB of
// claims, about 120 bytes each).
const stateCostPerByte = 4

// readState reads the record or stat cache file (an OS path) of c, from
// the state directory dir, within the bounds of c's options: no more
// than MaxPaths × maxPathBytes bytes when MaxPaths is set, and, past
// smallState bytes, only once Reserve, when set, has given room for what
// parsing it will take. The caller calls release once it has parsed
// data.
func (c *Changes) readState(dir, file string, limit int64) (data []byte, st confined.Info, release func(), err error) {
	release = func() {}
	limit = stateLimit(dir, limit)
	if n := int64(c.opt.MaxPaths); n > 0 {
		limit = min(limit, n*maxPathBytes+4096)
	}
	if c.opt.MaxPaths <= 0 && c.opt.Reserve == nil {
		data, st, err = statedir.ReadFile(file, limit)
		return data, st, release, err
	}
	// Nearly every record and stat cache is small: read at no more cost
	// than that of the read (a build's every unchanged tenant reads its
	// stat cache), and reserved for with the worker's share.
	data, st, err = statedir.ReadFile(file, min(limit, smallState))
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return data, st, release, err
	}
	// Larger (or not a regular file, which the read below refuses
	// again).
	fi, err := statedir.Lstat(file)
	switch {
	case err != nil:
		return nil, confined.Info{}, release, err
	case fi.Size > limit:
		return nil, confined.Info{}, release, &fs.PathError{Op: "read", Path: file,
			Err: boundError(fmt.Sprintf("%d bytes, more than the %d bytes this root's record may hold; it is not read", fi.Size, limit))}
	case c.opt.Reserve != nil && fi.Mode.IsRegular():
		// The file is read up to the size it had when reserved: one
		// that grew since (a save of its own replaced it) waits for
		// the next build.
		limit = max(fi.Size, min(limit, smallState))
		release = c.opt.Reserve(limit * stateCostPerByte)
	}
	data, st, err = statedir.ReadFile(file, limit)
	if err != nil {
		release()
		release = func() {}
	}
	return data, st, release, err
}

// smallState is the size up to which a record or stat cache is read
// without a reservation, and past which a file that grew since it was
// reserved for is refused.
const smallState = 64 << 10

// loadRecord reads the record stored under c.name. A missing record is an
// empty one (exists false): discgen owns nothing there yet, unless the
// former state directory holds it (loadFormer) or a format 1 record keyed
// by the root's absolute path exists, which is read and migrated
// (loadRecord1: c.v1 names it, and Apply replaces it by a format 2
// record).
func (c *Changes) loadRecord() error {
	name := filepath.Join(c.opt.StateDir, filepath.FromSlash(stateRecordBase(c.opt.StateDir, c.name)+".rec"))
	data, st, release, err := c.readState(c.opt.StateDir, name, maxRecordSize)
	defer release()
	if errors.Is(err, fs.ErrNotExist) {
		c.rec = newRecord(c.name)
		if ok, err := c.loadFormer(); ok || err != nil {
			return err
		}
		return c.loadRecord1()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, confined.UnwrapPath(err))
	}
	r, _, err := parseRecordMax(data, name, c.opt.MaxPaths)
	switch {
	case err != nil:
		return err
	case r.name != c.name:
		return fmt.Errorf("%s: ownership record belongs to %s, not %s", name, r.name, c.name)
	}
	c.rec, c.recExists, c.recStat = r, true, st
	return nil
}

// loadFormer reads the record of c from Options.FormerStateDir, when
// there is one: it owns what the root holds until Apply writes the record
// to Options.StateDir (c.recExists stays false, so Apply writes it).
func (c *Changes) loadFormer() (bool, error) {
	if c.opt.FormerStateDir == "" {
		return false, nil
	}
	name := filepath.Join(c.opt.FormerStateDir, filepath.FromSlash(recordBase(c.name)+".rec"))
	data, _, release, err := c.readState(c.opt.FormerStateDir, name, maxRecordSize)
	defer release()
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", name, confined.UnwrapPath(err))
	}
	r, _, err := parseRecordMax(data, name, c.opt.MaxPaths)
	switch {
	case err != nil:
		return false, err
	case r.name != c.name:
		return false, fmt.Errorf("%s: ownership record belongs to %s, not %s", name, r.name, c.name)
	}
	c.rec = r
	return true, nil
}

// recordFile returns the OS path of the record (ext ".rec") or stat cache
// (ext ".stat") of c.
func (c *Changes) recordFile(ext string) string {
	return filepath.Join(c.opt.StateDir, filepath.FromSlash(stateRecordBase(c.opt.StateDir, c.name)+ext))
}

// stateIgnore is written into a state directory discgen creates, so that
// committing the directory commits the records and not the machine-local
// stat caches or temporary files.
const stateIgnore = "# Written by discgen. Commit the .rec ownership records; the .stat caches\n# are machine-local and rebuilt when missing or stale, and journal/ and\n# locks/ hold only what builds in progress use.\n*.stat\n*.tmp\njournal/\nlocks/\n"

// writeState writes data to the state file name (an OS path), creating
// the directories on the way when missing. A record is replaced
// atomically: a temporary name beside it, then a rename; with sync the
// file is flushed, and its directory and those made for it are noted in
// c.stateDirs for the batch's fsyncs after the records (syncAfter). The temporary name is name.tmp in
// the build's own state directory, which a killed build's next one
// overwrites, and a random one (statedir.RandomTemp) in a root's own,
// whose owner may have put anything at a fixed name. A stat cache
// (inPlace) is rewritten in place: a torn one lacks its end line and is
// ignored. With wantStat it returns the stat of the file as left on disk.
func (c *Changes) writeState(name string, data []byte, sync, inPlace, wantStat bool) (confined.Info, error) {
	tmp := name + ".tmp"
	switch {
	case inPlace:
		tmp = name
	case isRootState(c.opt.StateDir):
		tmp = statedir.RandomTemp(name)
	}
	if sync {
		c.opt.hooks.flushed("fsync", name)
	}
	st, err := statedir.WriteFile(tmp, name, data, sync, wantStat)
	if errors.Is(err, fs.ErrNotExist) {
		var made []string
		if err = c.mkState(filepath.Dir(name), func(d string) { made = append(made, d) }); err == nil {
			st, err = statedir.WriteFile(tmp, name, data, sync, wantStat)
		}
		// The directories made: their entries too.
		for _, d := range made {
			if sync {
				c.stateDirs = append(c.stateDirs, filepath.Dir(d))
			}
		}
	}
	if err != nil {
		statedir.Remove(tmp)
		return confined.Info{}, fmt.Errorf("state directory: %w", err)
	}
	if sync {
		// Its directory's entry: fsynced with the batch's directories
		// (syncAfter).
		c.stateDirs = append(c.stateDirs, filepath.Dir(name))
	}
	return st, nil
}

// mkState creates dir inside the state directory with its parents,
// calling made for each it creates, and the state directory's .gitignore
// when it creates the state directory's records/ directory.
func (c *Changes) mkState(dir string, made func(string)) error {
	records := filepath.Join(c.opt.StateDir, "records")
	created := false
	if err := statedir.CreateDirs(dir, func(d string) { created = created || d == records; made(d) }); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if created {
		ign := filepath.Join(c.opt.StateDir, ".gitignore")
		if _, err := statedir.Lstat(ign); errors.Is(err, fs.ErrNotExist) {
			return statedir.WriteNew(ign, []byte(stateIgnore))
		}
	}
	return nil
}

// parseCache is parseCache within c's bounds: a stat cache naming more
// paths than Options.MaxPaths is ignored.
func (c *Changes) parseCache(data []byte) *statCache {
	sc := parseCache(data)
	if sc != nil && c.opt.MaxPaths > 0 && len(sc.files) > c.opt.MaxPaths {
		return nil
	}
	return sc
}
