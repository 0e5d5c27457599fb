package output

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

// Result counts what Apply did.
type Result struct {
	Added, Updated, Removed, Unchanged, Adopted int
	DirsCreated, DirsRemoved                    int
	TempsRemoved                                int // left by an interrupted build
}

// writers is how many files Apply writes at once in a large tree; a small
// one is written by one goroutine.
const (
	writers     = 8
	fewToWrite  = 64
	defaultWait = 10 * time.Second
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

// isTempName reports whether name has the form of discgen's temporary
// files. Only those listed in an interrupted build's record are removed.
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

// testHook, when set by a test, is called before each step of Apply on a
// file ("write" once its temporary file holds the bytes, "rename" before
// publishing it); an error it returns fails that step.
var testHook func(step, p string) error

func hook(step, p string) error {
	if testHook == nil {
		return nil
	}
	return testHook(step, p)
}

// pending is one file written to its temporary name and not yet published.
type pending struct {
	ch       *Change
	dir      *os.Root // the file's directory
	tmp      string   // base name of the temporary file
	created  bool     // the temporary file exists
	perm     fs.FileMode
	renamed  bool
	stat     fileStat
	statOK   bool
	writeErr error
}

// Apply carries out the plan. If the plan has any problem it returns a
// *ProblemError and writes nothing. Otherwise, holding the output root's
// lock, and refusing if the ownership record or a planned path changed
// since Plan, it:
//
//  1. marks the ownership record incomplete, listing every path it may
//     write with both its old and new content and every temporary file it
//     will create, so a build killed at any point leaves a record that
//     still owns everything on disk;
//  2. removes the temporary files an interrupted build recorded;
//  3. creates missing directories and writes each added or updated file
//     to its temporary name, asking the kernel to start writeback;
//  4. flushes the filesystem once (syncfs), then renames every temporary
//     file over its target, each directory's index.txt last;
//  5. removes the files it wrote earlier and no longer produces, and the
//     directories it created that are no longer needed and are empty;
//  6. flushes once more, so that the renames are on disk before the
//     record that describes them, and writes the complete record and the
//     machine-local stat cache (each only when its bytes change).
//
// If writing any temporary file fails (a full disk), nothing is
// published and the temporary files are removed. Apply is meant to be
// called once, soon after Plan; it closes the plan's directory handles.
// Every operation stays inside the root.
func (c *Changes) Apply() (Result, error) {
	defer c.Close()
	var res Result
	if err := c.Err(); err != nil {
		return res, err
	}
	var mutate bool
	for _, ch := range c.List {
		switch ch.Kind {
		case Unchanged:
			res.Unchanged++
		case Adopt:
			res.Adopted++
		default:
			mutate = true
		}
	}
	mutate = mutate || len(c.mkdirs) > 0 || len(c.temps) > 0 || c.rootMissing
	durable := !c.opt.NoSync
	if !mutate && len(c.pruneCandidates()) == 0 && c.recExists && c.v1 == "" && bytes.Equal(c.next.marshal(), c.rec.marshal()) {
		// Nothing to change: no lock, and at most the stat cache to
		// refresh.
		return res, c.finish(false, nil)
	}

	if c.r == nil {
		r, _, err := c.openRoot(true)
		if err == nil && r == nil {
			err = c.Err() // the root changed since Plan
		}
		if err != nil {
			return res, err
		}
		c.r = r
	}
	lock, err := c.lock()
	if err != nil {
		return res, err
	}
	defer lock.Close()
	if err := c.checkRecord(); err != nil {
		return res, err
	}
	if mutate {
		if err := c.checkDisk(); err != nil {
			return res, err
		}
	}

	var todo []*pending
	for i := range c.List {
		if ch := &c.List[i]; ch.Kind == Add || ch.Kind == Update {
			todo = append(todo, &pending{ch: ch, tmp: tempName()})
			if ch.Kind == Add {
				res.Added++
			} else {
				res.Updated++
			}
		}
	}
	if mutate {
		// The record goes to disk with the files' data at the first
		// flush; on another filesystem it is synced on its own.
		sameFS := c.stateOnRootFS(lock)
		if _, err := c.writeState(c.recordFile(".rec"), c.intent(todo).marshal(), durable && !sameFS, false, false); err != nil {
			return res, err
		}
	}
	for _, p := range c.temps {
		dr, err := c.dir(parent(p))
		if err == nil && dr.Remove(path.Base(p)) == nil {
			res.TempsRemoved++
		}
	}
	for _, d := range c.mkdirs {
		if err := c.mkdir(d); err != nil {
			return res, err
		}
		res.DirsCreated++
	}
	touched := map[string]bool{}
	for _, pd := range todo {
		touched[parent(pd.ch.Path)] = true
		if pd.dir, err = c.dir(parent(pd.ch.Path)); err != nil {
			return res, fmt.Errorf("%s: %w", c.file(parent(pd.ch.Path)), unwrapPath(err))
		}
	}
	if err := c.writeTemps(todo); err != nil {
		c.dropTemps(todo)
		return res, err
	}
	if durable && (len(todo) > 0 || len(c.mkdirs) > 0) {
		if err := c.flush(lock, touched); err != nil {
			c.dropTemps(todo)
			return res, err
		}
	}
	// Each directory's index.txt is published after every file it lists.
	slices.SortStableFunc(todo, func(a, b *pending) int {
		return cmp.Compare(isIndex(a.ch.Path), isIndex(b.ch.Path))
	})
	for _, pd := range todo {
		if err := c.publish(pd); err != nil {
			c.dropTemps(todo)
			return res, err
		}
	}
	for _, ch := range c.List {
		if ch.Kind != Remove {
			continue
		}
		dr, err := c.dir(parent(ch.Path))
		if err == nil {
			err = dr.Remove(path.Base(ch.Path))
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return res, fmt.Errorf("%s: cannot remove: %w", c.file(ch.Path), unwrapPath(err))
		}
		touched[parent(ch.Path)] = true
		res.Removed++
	}
	res.DirsRemoved = c.pruneDirs(touched)
	if durable && mutate {
		if err := c.flush(lock, touched); err != nil {
			return res, err
		}
	}
	return res, c.finish(mutate, todo)
}

// finish writes the complete record, when it changed, and the stat cache.
func (c *Changes) finish(mutate bool, todo []*pending) error {
	recStat := c.recStat
	if next := c.next.marshal(); mutate || !c.recExists || !bytes.Equal(next, c.rec.marshal()) {
		st, err := c.writeState(c.recordFile(".rec"), next, false, false, true)
		if err != nil {
			return err
		}
		recStat = st
	}
	if c.v1 != "" {
		if err := os.Remove(c.v1); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("state directory: %w", err)
		}
	}
	stats := map[string]fileStat{}
	for _, pd := range todo {
		if pd.statOK {
			stats[pd.ch.Path] = pd.stat
		}
	}
	for p := range c.next.files {
		if _, ok := stats[p]; !ok {
			st, ok := c.stats[p]
			if !ok {
				return nil // not every output was seen: no cache
			}
			stats[p] = st
		}
	}
	return c.saveCache(recStat, stats)
}

// lock opens the output root itself and takes its lock, so that builds of
// one root never interleave whatever state directory each uses. It waits
// up to Options.LockWait for another build to finish.
func (c *Changes) lock() (*os.File, error) {
	f, err := c.r.Open(".")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Root, unwrapPath(err))
	}
	wait := cmp.Or(c.opt.LockWait, defaultWait)
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		busy, err := tryLock(f)
		switch {
		case err != nil:
			f.Close()
			return nil, fmt.Errorf("%s: cannot lock the output root: %w", c.Root, err)
		case !busy:
			return f, nil
		case time.Now().After(deadline):
			f.Close()
			return nil, fmt.Errorf("%s: another build is writing this output root (still locked after %v); run the build again when it has finished", c.Root, wait)
		}
		time.Sleep(delay)
	}
}

// checkRecord refuses a plan whose record another build changed since.
func (c *Changes) checkRecord() error {
	fi, err := os.Lstat(c.recordFile(".rec"))
	switch {
	case errors.Is(err, fs.ErrNotExist) && !c.recExists:
		return nil
	case err == nil && c.recExists && statOf(fi).same(c.recStat):
		return nil
	}
	return fmt.Errorf("%s: another build wrote this output since it was planned; run the build again", c.Root)
}

// checkDisk refuses a plan when a path it inspected changed since, so
// that a build planned before another one (with another state
// directory) finished cannot mix its files into the other's.
func (c *Changes) checkDisk() error {
	var paths []string
	for _, ch := range c.List {
		paths = append(paths, ch.Path)
	}
	for _, g := range groupByDir(paths) {
		dr, err := c.dir(parent(g[0]))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a missing directory holds nothing yet
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.file(parent(g[0])), unwrapPath(err))
		}
		for _, p := range g {
			fi, err := dr.Lstat(path.Base(p))
			st, seen := c.stats[p]
			switch {
			case errors.Is(err, fs.ErrNotExist) && !seen:
				continue
			case err == nil && seen && statOf(fi).same(st):
				continue
			}
			return fmt.Errorf("%s: changed on disk since this build planned it (another build may be writing the output root); run the build again", c.file(p))
		}
	}
	return nil
}

// stateOnRootFS reports whether the state directory lies on the output
// root's filesystem, so that one flush covers both.
func (c *Changes) stateOnRootFS(lock *os.File) bool {
	rfi, err := lock.Stat()
	if err != nil {
		return false
	}
	rs := statOf(rfi)
	dev, ok := stateDev.Load(c.opt.StateDir)
	if !ok {
		sfi, err := os.Stat(c.opt.StateDir)
		if err != nil {
			return false
		}
		dev = statOf(sfi).dev
		stateDev.Store(c.opt.StateDir, dev)
	}
	return rs.dev != 0 && rs.dev == dev.(uint64)
}

// stateDev memoizes the device of each state directory for the process.
var stateDev sync.Map

// flush makes the writes so far durable: one syncfs on Linux; elsewhere
// one fsync per touched directory (files were synced as written).
func (c *Changes) flush(lock *os.File, touched map[string]bool) error {
	var dirs []*os.Root
	for _, d := range slices.Sorted(func(yield func(string) bool) {
		for d := range touched {
			if !yield(d) {
				return
			}
		}
	}) {
		if dr, err := c.dir(d); err == nil {
			dirs = append(dirs, dr)
		}
	}
	if err := flushFS(lock, dirs); err != nil {
		return fmt.Errorf("%s: cannot flush to disk: %w", c.Root, err)
	}
	return nil
}

// mkdir creates the slash directory d, whose parent exists, and gives it
// to Options.Owner.
func (c *Changes) mkdir(d string) error {
	pr, err := c.dir(parent(d))
	if err == nil {
		err = pr.Mkdir(path.Base(d), 0o755)
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
		if err == nil && c.opt.Owner != nil {
			err = pr.Lchown(path.Base(d), c.opt.Owner.UID, c.opt.Owner.GID)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: cannot create directory: %w", c.file(d), unwrapPath(err))
	}
	return nil
}

// intent is the record written before the first change: everything the old
// record owns, every directory about to be created, for each path about to
// be written its current and its new content, and the temporary files.
func (c *Changes) intent(todo []*pending) *record {
	in := newRecord(c.name)
	in.complete = false
	for p, ss := range c.rec.files {
		in.files[p] = slices.Clone(ss)
	}
	for d := range c.rec.dirs {
		in.dirs[d] = true
	}
	for _, d := range c.mkdirs {
		in.dirs[d] = true
	}
	for _, ch := range c.List {
		if ch.New != nil {
			in.addSum(ch.Path, entrySum(*ch.New))
		}
		if s, ok := c.cur[ch.Path]; ok {
			in.addSum(ch.Path, s)
		}
	}
	// Temporary files an earlier interrupted build left stay listed
	// until this build has removed them.
	in.temps = slices.Clone(c.temps)
	for _, pd := range todo {
		in.temps = append(in.temps, path.Join(parent(pd.ch.Path), pd.tmp))
	}
	return in
}

// writeTemps writes every pending file to its temporary name, with a few
// concurrent writers for a large tree.
func (c *Changes) writeTemps(todo []*pending) error {
	if len(todo) <= fewToWrite {
		for _, pd := range todo {
			if err := c.writeTemp(pd); err != nil {
				return err
			}
		}
		return nil
	}
	work := make(chan *pending)
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	for range writers {
		wg.Go(func() {
			for pd := range work {
				if err := c.writeTemp(pd); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for _, pd := range todo {
		mu.Lock()
		failed := len(errs) > 0
		mu.Unlock()
		if failed {
			break
		}
		work <- pd
	}
	close(work)
	wg.Wait()
	return errors.Join(errs...)
}

// writeTemp writes one file (or symlink) to its temporary name.
func (c *Changes) writeTemp(pd *pending) error {
	ch, dr := pd.ch, pd.dir
	fail := func(err error) error {
		return fmt.Errorf("%s: cannot write: %w", c.file(ch.Path), unwrapPath(err))
	}
	if ch.New.Link != "" {
		if err := dr.Symlink(ch.New.Link, pd.tmp); err != nil {
			return fail(err)
		}
		pd.created = true
		if o := c.opt.Owner; o != nil {
			if err := dr.Lchown(pd.tmp, o.UID, o.GID); err != nil {
				return fail(err)
			}
		}
		return fail2(hook("write", ch.Path), fail)
	}
	pd.perm = fs.FileMode(0o644)
	if ch.Old != nil && ch.Old.Link == "" && ch.oldPerm != 0 {
		pd.perm = ch.oldPerm
	}
	f, err := dr.OpenFile(pd.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, pd.perm)
	if err != nil {
		return fail(err)
	}
	pd.created = true
	_, err = f.Write(ch.New.Data)
	if err == nil {
		err = hook("write", ch.Path)
	}
	if o := c.opt.Owner; err == nil && o != nil {
		err = f.Chown(o.UID, o.GID)
	}
	if err == nil && !c.opt.NoSync {
		err = startWriteback(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// isIndex is 1 for an autodisc index.txt, which lists the files beside it,
// and 0 for any other path.
func isIndex(p string) int {
	if path.Base(p) == "index.txt" {
		return 1
	}
	return 0
}

func fail2(err error, fail func(error) error) error {
	if err != nil {
		return fail(err)
	}
	return nil
}

// publish renames a temporary file over its target, then takes the stat
// the cache keeps (the rename changes the change time). The umask may
// have narrowed the mode at creation; the file gets exactly its mode.
func (c *Changes) publish(pd *pending) error {
	ch, dr, name := pd.ch, pd.dir, path.Base(pd.ch.Path)
	err := hook("rename", ch.Path)
	if err == nil {
		err = dr.Rename(pd.tmp, name)
	}
	if err != nil {
		return fmt.Errorf("%s: cannot publish: %w", c.file(ch.Path), unwrapPath(err))
	}
	pd.renamed = true
	fi, err := dr.Lstat(name)
	if err == nil && ch.New.Link == "" && fi.Mode().Perm() != pd.perm {
		if err = dr.Chmod(name, pd.perm); err == nil {
			fi, err = dr.Lstat(name)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", c.file(ch.Path), unwrapPath(err))
	}
	pd.stat, pd.statOK = statOf(fi), true
	return nil
}

// dropTemps removes the temporary files not yet published, after a
// failure.
func (c *Changes) dropTemps(todo []*pending) {
	for _, pd := range todo {
		if pd.created && !pd.renamed {
			pd.dir.Remove(pd.tmp)
		}
	}
}

// pruneDirs removes the directories discgen created that no tree path
// needs any more, deepest first, when they are empty. A directory that
// still holds someone else's file stays, and stays discgen's, so a later
// build removes it once it is empty.
func (c *Changes) pruneDirs(touched map[string]bool) int {
	cands := c.pruneCandidates()
	n := 0
	for _, d := range cands {
		pr, err := c.dir(parent(d))
		if err != nil {
			continue
		}
		fi, err := pr.Lstat(path.Base(d))
		switch {
		case errors.Is(err, fs.ErrNotExist), err == nil && !fi.IsDir():
			delete(c.next.dirs, d)
			continue
		case err != nil:
			continue
		}
		if h, ok := c.handles[d]; ok {
			h.Close()
			delete(c.handles, d)
		}
		if pr.Remove(path.Base(d)) == nil {
			delete(c.next.dirs, d)
			touched[parent(d)] = true
			n++
		}
	}
	return n
}

// pruneCandidates lists the directories discgen created that no tree path
// needs any more, deepest first.
func (c *Changes) pruneCandidates() []string {
	needed := map[string]bool{}
	for p := range c.t {
		for d := parent(p); d != ""; d = parent(d) {
			needed[d] = true
		}
	}
	var cands []string
	for d := range c.next.dirs {
		if !needed[d] {
			cands = append(cands, d)
		}
	}
	// Reverse lexical order puts every directory before its parent.
	slices.SortFunc(cands, func(a, b string) int { return strings.Compare(b, a) })
	return cands
}
