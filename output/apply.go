package output

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Result counts what Apply did.
type Result struct {
	Added, Updated, Removed, Unchanged, Adopted int
	DirsCreated, DirsRemoved                    int
	TempsRemoved                                int // left by an interrupted build
}

// writers is how many files Apply writes at once; fsync latency, not CPU,
// bounds a first build.
const writers = 8

// Apply carries out the plan. If the plan has any problem it returns a
// *ProblemError and writes nothing. Otherwise, holding a lock that
// serializes builds of the same root, and refusing if another build
// changed the ownership record since Plan, it:
//
//  1. marks the ownership record incomplete, listing every path it may
//     write with both its old and new content, so a build killed at any
//     point leaves a record that still owns everything on disk;
//  2. removes temporary files left by an interrupted build;
//  3. creates missing directories and writes each added or updated file
//     to a temporary file in its directory, fsyncs it and renames it over
//     the old one;
//  4. removes the files it wrote earlier and no longer produces, and the
//     directories it created that are no longer needed and are empty;
//  5. writes the complete record.
//
// Apply is meant to be called once, soon after Plan. The disk is not
// inspected again between Plan and Apply: a file changed by someone else
// in between may be overwritten. Every operation stays inside the root
// regardless.
func (c *Changes) Apply() (Result, error) {
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

	unlock, err := lockRecord(c.opt.StateDir, c.abs)
	if err != nil {
		return res, err
	}
	defer unlock()
	// Under the lock, the record must be the one the plan was made with.
	cur, exists, err := loadRecord(c.opt.StateDir, c.abs)
	if err != nil {
		return res, err
	}
	if exists != c.recExists || exists && !bytes.Equal(cur.marshal(), c.rec.marshal()) {
		return res, fmt.Errorf("%s: another build wrote this output since it was planned; run the build again", c.Root)
	}

	if mutate {
		intent := c.intent()
		if err := saveRecord(c.opt.StateDir, intent, durable); err != nil {
			return res, err
		}
	}
	r, _, err := c.openRoot(true)
	if err == nil && r == nil {
		err = c.Err() // the root changed since Plan
	}
	if err != nil {
		return res, err
	}
	defer r.Close()

	for _, p := range c.temps {
		if err := r.Remove(osPath(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return res, err
		}
		res.TempsRemoved++
	}
	for _, d := range c.mkdirs {
		if err := r.Mkdir(osPath(d), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return res, err
		}
		res.DirsCreated++
	}
	touched := map[string]bool{}
	if err := c.write(r, &res, touched); err != nil {
		return res, err
	}
	for _, ch := range c.List {
		if ch.Kind != Remove {
			continue
		}
		if err := r.Remove(osPath(ch.Path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return res, err
		}
		touched[parent(ch.Path)] = true
		res.Removed++
	}
	res.DirsRemoved = c.pruneDirs(r, touched)
	if durable {
		for _, d := range slices.Sorted(func(yield func(string) bool) {
			for d := range touched {
				if !yield(d) {
					return
				}
			}
		}) {
			if err := syncDir(r, osPath(d)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return res, err
			}
		}
	}
	if mutate || !c.recExists || !bytes.Equal(c.next.marshal(), c.rec.marshal()) {
		if err := saveRecord(c.opt.StateDir, c.next, durable); err != nil {
			return res, err
		}
	}
	return res, nil
}

// intent is the record written before the first change: everything the old
// record owns, every directory about to be created, and for each path about
// to be written its current and its new content.
func (c *Changes) intent() *record {
	in := newRecord(c.abs)
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
	return in
}

// write adds and updates files with a few concurrent writers, each taking
// a group of files of one directory at a time.
func (c *Changes) write(r *os.Root, res *Result, touched map[string]bool) error {
	byPath := map[string]*Change{}
	var paths []string
	for i := range c.List {
		ch := &c.List[i]
		if ch.Kind != Add && ch.Kind != Update {
			continue
		}
		byPath[ch.Path] = ch
		paths = append(paths, ch.Path)
		touched[parent(ch.Path)] = true
		if ch.Kind == Add {
			res.Added++
		} else {
			res.Updated++
		}
	}
	work := make(chan []string)
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	for range writers {
		wg.Go(func() {
			for g := range work {
				err := c.writeGroup(r, g, byPath)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
			}
		})
	}
	for _, g := range groupByDir(paths) {
		mu.Lock()
		failed := len(errs) > 0
		mu.Unlock()
		if failed {
			break
		}
		work <- g
	}
	close(work)
	wg.Wait()
	return errors.Join(errs...)
}

// writeGroup writes the files of one directory group through one handle on
// that directory.
func (c *Changes) writeGroup(r *os.Root, g []string, byPath map[string]*Change) error {
	dr, err := openDir(r, parent(g[0]))
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(c.Root, osPath(parent(g[0]))), err)
	}
	defer closeDir(r, dr)
	for _, p := range g {
		if err := c.writeOne(dr, byPath[p]); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(c.Root, osPath(p)), err)
		}
	}
	return nil
}

func (c *Changes) writeOne(dr *os.Root, ch *Change) error {
	name := path.Base(ch.Path)
	if ch.New.Link != "" {
		return linkAtomic(dr, name, ch.New.Link)
	}
	perm := fs.FileMode(0o644)
	if ch.Old != nil && ch.Old.Link == "" && ch.oldPerm != 0 {
		perm = ch.oldPerm
	}
	return writeAtomic(dr, name, ch.New.Data, perm, !c.opt.NoSync)
}

// pruneDirs removes the directories discgen created that no tree path
// needs any more, deepest first, when they are empty. A directory that
// still holds someone else's file stays, and stays discgen's, so a later
// build removes it once it is empty.
func (c *Changes) pruneDirs(r *os.Root, touched map[string]bool) int {
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
	n := 0
	for _, d := range cands {
		fi, err := r.Lstat(osPath(d))
		switch {
		case errors.Is(err, fs.ErrNotExist), err == nil && !fi.IsDir():
			delete(c.next.dirs, d)
			continue
		case err != nil:
			continue
		}
		if r.Remove(osPath(d)) == nil {
			delete(c.next.dirs, d)
			touched[parent(d)] = true
			n++
		}
	}
	return n
}
