package output

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/statedir"
	"github.com/discgen/discgen/output/internal/record"
	"github.com/discgen/discgen/tree"
)

// Options control Plan and Apply.
type Options struct {
	// StateDir holds the ownership records (required). It must not lie
	// inside the output root. The CLI's default is .discgen/ beside the
	// manifest.
	StateDir string
	// FormerStateDir, when set, is a state directory that held the
	// root's record before StateDir did (the build's own, for a root
	// given a state directory of its own by RootStateDir). Its record is
	// read when StateDir holds none, and Apply writes it to StateDir.
	FormerStateDir string
	// JournalDir, when set, is the state directory whose journal holds
	// the root's intent during Apply instead of StateDir's: the build's
	// own, shared by a batch of roots that each keep their record in a
	// state directory of their own, so that the batch writes one journal,
	// not one for each root. Apply still holds StateDir's journal
	// directory locked while it checks and writes the record: exclusive,
	// as the root's lock, for a root's own state directory. Such a build
	// also keeps its verdicts (SaveRefusal) there, not in StateDir.
	JournalDir string
	// Replace takes over files discgen did not write, or that were changed
	// since it wrote them: they are overwritten when the tree produces
	// them and removed when it no longer does. Symlinks discgen did not
	// create are refused even then.
	Replace bool
	// Within, when set, is a trusted directory the root must lie in (for
	// a tenant, its home directory). The root is then opened through an
	// os.Root at Within, so a symlink on the way from Within to the root,
	// such as public_html -> /etc, cannot lead outside Within.
	Within string
	// NoSync skips every flush to disk. Replacement stays atomic for a
	// killed process, but not across a power loss.
	NoSync bool

	// Dir, when set, is the output root already opened by the caller
	// (confined, without following symlinks); root is then only the name
	// used in messages and Within is ignored. Plan, Apply and Fresh work
	// through it and never re-open the root by path, nor close Dir.
	Dir *os.Root
	// Record is the portable name the root's ownership record is stored
	// under in StateDir, such as "site" or a tenant directory relative to
	// the fixed prefix of its glob. It must be relative, without control
	// characters. Empty means the root relative to StateDir's parent
	// ("public" for public/ beside .discgen/).
	Record string
	// Key is the caller's opaque fingerprint of everything the tree
	// depends on (manifest bytes or stat, flags, discgen's version). It is
	// kept in the machine-local stat cache beside the record; Fresh
	// compares it. Empty disables Fresh.
	Key string
	// Owner, when set, is given every file, symlink and directory Apply
	// creates (chown through the root, without following symlinks). Nil
	// leaves them to the user running discgen.
	Owner *Owner
	// Journals, when set, are the journals of builds running or killed,
	// read by ReadJournals: the plan owns what they name for the root, as
	// it will once a build has recovered them. For plans that are not
	// applied, such as a check or a dry run; a build recovers instead,
	// and plans with the dead journals Recover returns when another
	// build's batch kept it from merging them.
	Journals *Journals
	// LockWait bounds how long Apply waits for another build of the same
	// output root (with the same state directory) to finish; 0 means 10
	// seconds. A lock another user can take is tried once, whatever
	// LockWait says.
	LockWait time.Duration
	// Superseded, when set, is called by Apply once it holds the root's
	// lock, before it writes anything: true means the inputs the tree
	// was made from changed since (a user saved the manifest again), so
	// a build that reads them later writes the root, or one already has.
	// Apply then leaves the root as it is and reports Result.Superseded,
	// rather than put an older tree over a newer one.
	Superseded func() bool
	// MaxPaths, when positive, bounds what the root's record may hold:
	// a record of more lines than MaxPaths after its header (files,
	// each content left of them, directories, temporary files) is
	// refused at the line past them, and one larger than MaxPaths KiB
	// is not read; a stat cache past the same bounds is ignored. For a
	// root whose record its owner writes (RootStateDir), set from what
	// the root may hold: reading and checking every path a record names
	// costs memory and a stat each, and the owner could name millions.
	MaxPaths int
	// Reserve, when set, is called before a record or stat cache larger
	// than 64 KiB is read, with the memory reading and parsing it takes,
	// in bytes; it may wait until the caller's memory budget has room,
	// and returns the function that gives the room back, called once
	// the file is parsed. A file that grew since it was reserved for is
	// then refused as too large.
	Reserve func(n int64) (release func())

	// root, when set, is the open root of the plan that Apply makes
	// again under the root's lock (replan). Plan works through it, as
	// through Dir, and the plan it replaces keeps it: a new plan that
	// fails closes only its directories. One that succeeds replaces the
	// old plan, root then unset, and closes the root as the old plan
	// would have.
	root *confined.Root
	// hooks are a test's (hooks.go).
	hooks *hooks
}

// open reports whether the root comes open (Dir, or the root of a plan
// made again): Plan does not look it up by path.
func (o *Options) open() bool { return o.Dir != nil || o.root != nil }

// Owner is a numeric user and group.
type Owner = confined.Owner

// Kind says what Apply does to one path.
type Kind int

const (
	Unchanged Kind = iota // discgen's file, same bytes: not touched
	Adopt                 // identical file discgen did not write: recorded, not touched
	Add                   // absent: written
	Update                // discgen's (or, with Replace, a foreign) file with other bytes: replaced
	Remove                // discgen's file no longer produced: removed
)

func (k Kind) String() string {
	return [...]string{"unchanged", "adopt", "add", "update", "remove"}[k]
}

// Change is the plan for one path.
type Change struct {
	Kind Kind
	Path string // slash path relative to the root
	// Old is what is on disk (nil for Add); New is what the tree produces
	// (nil for Remove).
	Old, New *tree.Entry
	oldLarge bool        // Old is too large to read; its Data is empty
	oldPerm  fs.FileMode // permission bits of the regular file replaced
}

// Changes is the result of Plan: what Apply would do to one output root.
type Changes struct {
	Root     string    // the root as given to Plan
	List     []Change  // every tree path without a problem, and every removal, by path
	Problems []Problem // reasons Apply refuses; see Err

	abs         string  // the root's absolute path, lexically
	w           *Writer // the Writer applying it, once it does
	name        string  // the record's portable name
	opt         Options
	t           tree.Tree
	rec         *record.Record // the record as found
	recExists   bool           // rec was read from a format 2 record
	recStat     confined.Info  // its stat when read
	v1          string         // OS path of a format 1 record taken over, if any
	cache       *record.StatCache
	cacheBytes  []byte
	next        *record.Record // the record after Apply
	cur         map[string]record.Sum
	stats       map[string]confined.Info // what Plan found at each inspected path
	mkdirs      []string                 // directories to create, parents first
	temps       []string                 // temporary files an interrupted build recorded
	rootMissing bool
	stateInside bool            // the state directory lies inside the root (a BadState problem)
	bad         map[string]bool // paths with a BadPath problem
	refused     []Change        // what Replace would do at Foreign and Modified paths

	r    *confined.Root // the root, while open; on Options.Dir when set
	held bool           // the caller holds the root open (FreshIn): no path of it is needed
	// syncEach: Apply's batch is made durable by an fsync of what it
	// wrote, not by a flush of the filesystem (syncEach).
	syncEach bool
	// stateDirs are the state directories whose entries Apply changed
	// writing a record durably, to fsync once the records are written.
	stateDirs []string
}

// Empty reports whether Apply would change no file: no Add, Update or Remove.
// Apply may still record adoptions and clean up after an interrupted build.
func (c *Changes) Empty() bool {
	for _, ch := range c.List {
		if ch.Kind >= Add {
			return false
		}
	}
	return true
}

// Owned reports whether the root's ownership record, as Plan found it,
// names a file discgen wrote there: false for a root it never wrote.
func (c *Changes) Owned() bool { return len(c.rec.Files) > 0 }

// Err returns a *ProblemError listing every problem, or nil.
func (c *Changes) Err() error {
	if len(c.Problems) == 0 {
		return nil
	}
	return &ProblemError{Root: c.Root, Problems: c.Problems}
}

// WriteList writes one line per change that Apply would make, "add PATH",
// "update PATH", "remove PATH" or "adopt PATH", for a dry run. Each path
// is joined to dir, the root as the reader knows it ("" for bare paths).
func (c *Changes) WriteList(w io.Writer, dir string) error {
	for _, ch := range c.List {
		if ch.Kind == Unchanged {
			continue
		}
		if _, err := fmt.Fprintf(w, "%s %s\n", ch.Kind, filepath.Join(dir, filepath.FromSlash(ch.Path))); err != nil {
			return err
		}
	}
	return nil
}

// maxCompare bounds how much of an existing file Plan reads to compare it:
// a larger file (bigger than the new bytes too) differs and is not
// discgen's.
const maxCompare = 64 << 20

// Plan compares the tree with what is under root and with discgen's
// ownership record for root, and returns the changes without writing
// anything. Problems are collected in Changes.Problems; the error is for
// failures to inspect at all.
func Plan(root string, t tree.Tree, opt Options) (*Changes, error) {
	if opt.StateDir == "" {
		return nil, errors.New("output: no state directory given")
	}
	c := &Changes{Root: root, opt: opt, t: t, cur: map[string]record.Sum{}, stats: map[string]confined.Info{}}
	if err := c.setName(); err != nil {
		return nil, err
	}
	// With Dir the caller keeps the state directory out of the root. A
	// plan made again (Options.root) checks it as the first plan did: its
	// problems replace the first plan's.
	if opt.Dir == nil {
		if err := c.setAbs(); err != nil {
			return nil, err
		}
		stateAbs, err := filepath.Abs(opt.StateDir)
		if err != nil {
			return nil, err
		}
		if within(stateAbs, c.abs) || within(statedir.Resolve(stateAbs), statedir.Resolve(c.abs)) {
			c.stateInside = true
			c.problem("", BadState, fmt.Sprintf("state directory %s lies inside the output root, where it would be published", opt.StateDir),
				"keep the state directory outside the output: discgen build --state DIR")
		}
	}
	if err := c.loadRecord(); err != nil {
		c.problem("", BadState, err.Error(), "delete the record; discgen then adopts files with identical bytes and reports the others")
		c.rec, c.recExists = record.New(c.name), false
	}
	opt.Journals.Apply(c.rec)
	if err := opt.Journals.Within(c.rec, c.recordFile(".rec"), opt.MaxPaths); err != nil {
		// What the journals leave for the root would take its record
		// past its bound, as Recover refused to merge it.
		c.problem("", BadState, err.Error(), "delete the record; discgen then adopts files with identical bytes and reports the others")
	}
	c.loadCache()
	c.checkTree()

	r, missing, err := c.openRoot(false, confined.Pin)
	if err != nil {
		return nil, err
	}
	c.r = r
	c.rootMissing = missing
	w := &walker{r: r, c: c, dirs: map[string]dirState{}}
	c.next = record.New(c.name)
	needed := map[string]bool{}
	var paths []string
	for _, p := range t.Paths() {
		if c.badPath(p) {
			continue
		}
		paths = append(paths, p)
		for d := parent(p); d != "" && !needed[d]; d = parent(d) {
			needed[d] = true
		}
	}
	for _, g := range groupByDir(paths) {
		if err := c.inspectGroup(w, g); err != nil {
			c.Close()
			return nil, err
		}
	}
	var stale []string
	for p := range c.rec.Files {
		if _, ok := t[p]; !ok {
			stale = append(stale, p)
		}
	}
	for _, g := range groupByDir(stale) {
		if err := c.inspectGroup(w, g); err != nil {
			c.Close()
			return nil, err
		}
	}
	// A plan waiting for its Apply holds no directory below the root.
	if c.r != nil {
		c.r.CloseDirs()
	}
	slices.SortFunc(c.List, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })

	for d := range needed {
		if w.dirs[d] == dirMissing {
			c.mkdirs = append(c.mkdirs, d)
		}
	}
	slices.Sort(c.mkdirs)
	for d := range c.rec.Dirs {
		if st, seen := w.dirs[d]; !seen || st == dirOK {
			c.next.Dirs[d] = true
		}
	}
	for _, d := range c.mkdirs {
		c.next.Dirs[d] = true
	}
	if !c.rec.Complete {
		c.temps = slices.Sorted(slices.Values(c.rec.Temps))
	}
	c.Problems = sortProblems(c.Problems)
	return c, nil
}

// Close releases the directory handles the plan holds. Apply closes them
// itself; a plan that is not applied may be closed early, or left to the
// garbage collector.
func (c *Changes) Close() {
	switch {
	case c.r == nil:
	case c.opt.root != nil:
		c.r.CloseDirs() // the root is the replaced plan's, which closes it
	default:
		c.r.Close()
	}
	c.r = nil
}
