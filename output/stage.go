package output

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sync"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/output/internal/record"
)

// Staging: the first half of Apply's writes, before the flush. A root's
// temporary files left by an interrupted build are removed, missing
// directories created, and every added or updated file written to a
// temporary name in its own directory (.htdiscgen-XXXXXXXXXXXXXXXX.tmp,
// mode 0000 until published), by a few writers at once in a large tree.

// Temporary files are named ".htdiscgen-" + 16 hex digits + ".tmp" and
// live in the directory of the file they replace (a rename publishes
// them, so they must be on its filesystem, and inside the root). A build
// killed before its renames leaves them in a directory a web server
// publishes until the next build removes them, so they are kept from
// being served two ways:
//
//   - Mode 0000 from creation (on Unix): no process but root can open
//     them, so a server whose workers are not root (nginx's and Apache's
//     never are; Caddy as a system service is not either) answers 403
//     whatever its configuration. On Linux the file gets its mode on its
//     open descriptor right before its rename, so only a kill in that
//     instant leaves a readable one; a file closed once written (beyond
//     Writer.heldMax open at once, and everywhere outside Linux) gets it then.
//   - A name beginning ".ht", which Apache's stock configuration refuses
//     (httpd.conf: <Files ".ht*"> Require all denied; Debian's
//     apache2.conf: <FilesMatch "^\.ht">), even to a reader that could
//     open the file. nginx and Caddy refuse no name by default (not even
//     dotfiles): for them the mode is what counts.
//
// Before this scheme they were named ".discgen-" + 16 hex digits + ".tmp";
// records of earlier builds may still list such names, which are removed
// the same way. Both forms are record's (record.TempPrefix,
// record.IsTempName): a record lists a build's temporary files.

func tempName() string { return record.TempPrefix + record.RandomHex() + record.TempSuffix }

// pending is one file written to its temporary name and not yet published.
type pending struct {
	ch      *Change
	tmp     string        // base name of the temporary file
	created bool          // the temporary file exists
	f       confined.File // the temporary file, kept open until its rename
	held    bool          // f is open
	heldBy  *Writer       // the Writer that counts f while it is open
	perm    fs.FileMode
	renamed bool
	stat    confined.Info
	statOK  bool
}

// maxHeld bounds the written files a Writer keeps open until their
// rename; see Writer.heldMax.
const maxHeld = 512

func (pd *pending) release() {
	if pd.held {
		pd.f.Close()
		pd.held = false
		pd.heldBy.held.Add(-1)
	}
}

// stage does everything between the journal and the first flush:
// temporary files of an interrupted build, directories and temporary
// files.
func (a *applying) stage() {
	c := a.c
	for _, p := range c.temps {
		if dr, err := c.r.WriteDir(parent(p)); err == nil {
			if dr.Remove(path.Base(p)) == nil {
				a.res.TempsRemoved++
			}
			c.r.Done(dr)
		}
	}
	for _, d := range c.mkdirs {
		if err := c.mkdir(d); err != nil {
			a.fail(err)
			return
		}
		a.res.DirsCreated++
	}
	for _, pd := range a.todo {
		a.touched[parent(pd.ch.Path)] = true
	}
	if err := c.writeTemps(a.todo); err != nil {
		a.fail(err)
	}
}

// byDir groups the pending files by directory, in order of directory,
// at most size in a group (0: no bound).
func byDir(todo []*pending, size int) [][]*pending {
	return byParent(todo, func(pd *pending) string { return pd.ch.Path }, size)
}

// mkdir creates the slash directory d, whose parent exists, and gives it
// to Options.Owner.
func (c *Changes) mkdir(d string) error {
	pr, err := c.r.WriteDir(parent(d))
	if err == nil {
		if o := c.opt.Owner; o != nil {
			// Chowned through the descriptor of what was created,
			// never by name: the owner may write the directory
			// it is in.
			err = pr.MkdirOwned(path.Base(d), o.UID, o.GID)
		} else {
			err = pr.Mkdir(path.Base(d))
		}
		c.r.Done(pr)
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("%s: cannot create directory: %w", c.file(d), confined.UnwrapPath(err))
	}
	return nil
}

// writeTemps writes every pending file to its temporary name, a
// directory's files (up to writeGroup of them) through one open of it.
func (c *Changes) writeTemps(todo []*pending) error {
	groups := byDir(todo, writeGroup)
	return c.parallel(len(todo), len(groups), func(i int) error {
		g := groups[i]
		d := parent(g[0].ch.Path)
		dr, err := c.r.WriteDir(d)
		if err != nil {
			return fmt.Errorf("%s: %w", c.file(d), confined.UnwrapPath(err))
		}
		defer c.r.Done(dr)
		for _, pd := range g {
			if err := c.writeTemp(dr, pd); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeGroup bounds the files of one directory written by one writer, so
// that a large directory is still written by several at once.
const writeGroup = 64

// parallel runs do(0) to do(n-1) with a few concurrent workers when the
// files involved are many (size), in order on one goroutine otherwise. It
// stops handing out work after the first error and returns every error.
// A panic in a worker is an error of the root's (see bug.go); on the
// caller's goroutine, it is the caller's to recover.
func (c *Changes) parallel(size, n int, do func(i int) error) error {
	if size <= fewToWrite {
		for i := range n {
			if err := do(i); err != nil {
				return err
			}
		}
		return nil
	}
	work := make(chan int)
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	for range writers {
		wg.Go(func() {
			for i := range work {
				if err := c.protect(do, i); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		mu.Lock()
		failed := len(errs) > 0
		mu.Unlock()
		if failed {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	return errors.Join(errs...)
}

// protect runs do(i) on a worker of parallel, and returns a panic in it
// as the root's error.
func (c *Changes) protect(do func(i int) error, i int) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = bugError(c.Root, v)
		}
	}()
	return do(i)
}

// writeTemp writes one file (or symlink) to its temporary name. A
// regular file stays open until its rename when confined.KeepOpen allows, for the
// stat the cache keeps.
func (c *Changes) writeTemp(dr confined.WriteDir, pd *pending) error {
	ch := pd.ch
	fail := func(err error) error {
		return fmt.Errorf("%s: cannot write: %w", c.file(ch.Path), confined.UnwrapPath(err))
	}
	if ch.New.Link != "" {
		// Given to the owner through a descriptor of the symlink
		// made, never by name (see mkdir).
		var err error
		if o := c.opt.Owner; o != nil {
			err = dr.SymlinkOwned(ch.New.Link, pd.tmp, o.UID, o.GID)
		} else {
			err = dr.Symlink(ch.New.Link, pd.tmp)
		}
		if err != nil {
			if !errors.Is(err, fs.ErrExist) {
				pd.created = true // made, then replaced: removed as a temp
			}
			return fail(err)
		}
		pd.created = true
		return fail2(c.opt.hooks.hook("write", ch.Path), fail)
	}
	pd.perm = fs.FileMode(0o644)
	if ch.Old != nil && ch.Old.Link == "" && ch.oldPerm != 0 {
		pd.perm = ch.oldPerm
	}
	f, err := dr.Create(pd.tmp, confined.TempPerm(pd.perm))
	if err != nil {
		return fail(err)
	}
	pd.created = true
	err = f.Write(ch.New.Data)
	if err == nil {
		err = c.opt.hooks.hook("write", ch.Path)
	}
	if o := c.opt.Owner; err == nil && o != nil {
		err = f.Chown(o.UID, o.GID)
	}
	if err == nil && !c.opt.NoSync {
		err = f.Writeback()
	}
	if w := c.w; err == nil && confined.KeepOpen && w.held.Add(1) <= w.heldMax {
		pd.f, pd.held, pd.heldBy = f, true, w
		return nil
	}
	if confined.KeepOpen && err == nil {
		c.w.held.Add(-1)
	}
	if err == nil {
		// Closed now: give it its mode before publishing.
		_, err = f.Stat(pd.perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

func fail2(err error, fail func(error) error) error {
	if err != nil {
		return fail(err)
	}
	return nil
}

// dropTemps removes the temporary files not yet published, after a
// failure.
func (c *Changes) dropTemps(todo []*pending) {
	for _, g := range byDir(todo, 0) {
		dr, err := c.r.WriteDir(parent(g[0].ch.Path))
		for _, pd := range g {
			pd.release()
			if err == nil && pd.created && !pd.renamed {
				dr.Remove(pd.tmp)
			}
		}
		if err == nil {
			c.r.Done(dr)
		}
	}
}
