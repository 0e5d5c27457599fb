package publish

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/internal/bug"
	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/tree"
	"github.com/discgen/discgen/validate"
)

// pipeline runs the tenants of one site.
type pipeline struct {
	opt  Options
	site *SiteDoc
	emit func(*Unit)
	// plans, in Write mode, takes each tenant's plan to the batcher,
	// which applies it and reports the unit.
	plans chan *pending
	// stateParent is the absolute parent of the state directory ("" when
	// there is none), against which tenants' records are named.
	stateParent string
	size        sizing
	// heavy is the memory budget the manifests too large for the
	// workers' set-aside share draw on.
	heavy *budget
	// sharedJournal: the tenants' batches journal in the build's state
	// directory (output.SharedJournal), not each in the tenant's own.
	sharedJournal bool
	// euid is the build's effective user, -1 where there are none.
	euid int
}

// job is one tenant found by the walk, holding its directory open.
type job struct {
	d    *delegation
	dir  *confined.Dir // the tenant's directory, opened in the walk; nil when refused there
	rel  string        // the directory relative to the glob's prefix, slash-separated
	show string        // the directory as messages show it
	name string        // the manifest's file name
	caps []string      // what the glob's '*'s matched, in order
	info confined.Info // lstat of the manifest
	held bool          // a manifest held by name by a tenant's walk (tenantWalk)

	// Set when the walk itself ends the tenant; notOpen when only
	// because this user may not open a directory (Unit.NotOpen).
	status  Status
	reason  string
	notOpen bool

	// The directory's stat, taken once (dirStat).
	dirInfo   confined.Info
	dirErr    error
	dirStated bool

	// The output options of the manifest stat'ed as info (stateOptions):
	// its key and its state directory's name are hashes, asked for by
	// the freshness check, the refusal cache and the write.
	opts     *output.Options
	optsInfo confined.Info
}

func (j *job) manifestPath() string { return filepath.Join(j.show, j.name) }

// dirStat is the fstat of the tenant's directory, taken the first time it
// is asked for: its owner and identity serve several steps of the
// tenant's build (notOwn, the output options of each, the batch's
// identity), and an open directory stays the same one.
func (j *job) dirStat() (confined.Info, error) {
	if !j.dirStated {
		j.dirInfo, j.dirErr = j.dir.Stat()
		j.dirStated = true
	}
	return j.dirInfo, j.dirErr
}

// run walks every delegation's glob (or the --tenant files) and hands each
// tenant to a bounded pool of workers.
func (p *pipeline) run(dels []*delegation) {
	if p.opt.StateDir != "" {
		if abs, err := filepath.Abs(p.opt.StateDir); err == nil {
			p.stateParent = filepath.Dir(abs)
		}
	}
	work := make(chan *job)
	p.heavy = newBudget(max(p.size.budget-int64(p.size.jobs)*smallCost, p.size.budget/2))
	if c := p.opt.Collector; c != nil {
		c.Start()
		defer c.Done()
		p.heavy.held = c.Hold
	}
	var batchers sync.WaitGroup
	if p.opt.Mode == Write {
		p.plans = make(chan *pending)
		for range p.size.appliers {
			batchers.Go(func() { p.batcher(p.plans) })
		}
	}
	var wg sync.WaitGroup
	for range p.size.jobs {
		wg.Go(func() {
			for j := range work {
				p.tenant(j)
			}
		})
	}
	found := 0
	send := func(j *job) {
		if found++; p.opt.Found != nil {
			p.opt.Found(found, false)
		}
		work <- j
	}
	if len(p.opt.Tenants) > 0 {
		seen := map[string]bool{}
		for _, f := range p.opt.Tenants {
			// A file named twice is built once: two plans of one root
			// would race each other.
			if abs, err := filepath.Abs(f); err == nil {
				if seen[abs] {
					continue
				}
				seen[abs] = true
			}
			p.one(dels, f, send)
		}
	} else {
		for _, d := range dels {
			p.walk(d, send)
		}
	}
	if p.opt.Found != nil {
		p.opt.Found(found, true)
	}
	close(work)
	wg.Wait()
	if p.plans != nil {
		close(p.plans)
		batchers.Wait()
	}
}

// siteError reports a diagnostic outside any tenant.
func (p *pipeline) siteError(d *delegation, format string, args ...any) {
	var l diag.List
	pos := p.site.Doc.Pos.Of(d.key)
	l.Errorf(pos, d.key, format, args...)
	p.emit(&Unit{Kind: Site, Manifest: p.opt.Manifest, Dir: p.opt.Out, Space: "/", Status: Refused, Diags: l})
}

// walk finds the tenants of one delegation.
//
// A panic in the walk is a bug in discgen: it stops this glob's walk
// alone, with one message saying so; the tenants it found are built, the
// ones it had not reached are not (they are not known), and the other
// globs are walked.
func (p *pipeline) walk(d *delegation, send func(*job)) {
	defer func() {
		if v := recover(); v != nil {
			p.siteError(d, "the walk of %q stopped, and the tenants it had not reached are not built: %s", d.pat.raw, bug.Text(v))
		}
	}()
	top, err := confined.OpenTop(d.pat.prefix)
	if err != nil {
		if confined.IsAbsent(err) {
			p.siteWarn(d, "%q matches no tenant manifest: %s does not exist", d.pat.raw, d.pat.show)
			return
		}
		p.siteError(d, "cannot walk %q: %v", d.pat.raw, err)
		return
	}
	defer top.Close()
	segs := d.pat.segs
	w := &walker{p: p, d: d, segs: segs, send: send,
		nested: len(segs) > 2 && isMeta(segs[0]) && !allLiteral(segs[1:len(segs)-1])}
	w.level(top, "", 0, nil)
	if w.found == 0 {
		p.siteWarn(d, "%q matches no tenant manifest", d.pat.raw)
	}
}

func (p *pipeline) siteWarn(d *delegation, format string, args ...any) {
	var l diag.List
	l.Warnf(p.site.Doc.Pos.Of(d.key), d.key, format, args...)
	p.emit(&Unit{Kind: Site, Manifest: p.opt.Manifest, Dir: p.opt.Out, Space: "/", Status: Unchanged, Diags: l})
}

type walker struct {
	p    *pipeline
	d    *delegation
	segs []string // the pattern's components, or a --tenant file's
	send func(*job)
	// named is set for a --tenant file: a component that is missing is
	// reported, not passed over.
	named bool
	found int
	// nested is set when a component between the first and the last
	// holds a wildcard (home/*/sites/*/autodisc.yaml): one tenant may then
	// have several manifests, and what the walk finds below each entry
	// of the first component is held in t until that tenant's walk ends.
	nested bool
	t      *tenantWalk
}

// The walk's bounds. The first component of a tenants glob with a
// wildcard lists the directory that holds the tenants (/home, users/):
// the host's, read in full, batch entries at a time. Every directory
// below an entry it matched (users/alice and all below it) is that
// tenant's: whatever the owner of each, the walk reads there up to
// maxTenantEntries entries together and finds up to maxTenantManifests
// tenant manifests (or walk failures, each a unit); past either bound
// the tenant is refused in one line, and nothing of it is built.
const (
	// batch is how many directory entries are read at once: a directory
	// of a million homes is listed in pieces, never held whole.
	batch = 512
	// maxTenantEntries bounds the entries read in one tenant's
	// directories, together.
	maxTenantEntries = 4096
	// maxTenantManifests bounds the units found below one tenant.
	maxTenantManifests = 256
)

// tenantWalk is what the walk found below one entry of the glob's first
// component, when one tenant may have several manifests. A manifest is
// held by name, its directory not open: the directory is opened again,
// from the tenant's, once the whole tenant is known to be within the
// bounds.
type tenantWalk struct {
	rel     string // the tenant's directory below the prefix
	entries int    // read in the tenant's directories
	found   int    // units found, in any shard
	jobs    []*job // held, of this shard
	over    string // why the tenant is refused, once a bound is passed
}

// level matches component i of the pattern in dir (at rel below the
// prefix). A literal component is opened directly; only a wildcard one
// lists the directory.
func (w *walker) level(dir *confined.Dir, rel string, i int, caps []string) {
	seg := w.segs[i]
	if !isMeta(seg) {
		w.entry(dir, rel, i, seg, caps)
		return
	}
	last := i == len(w.segs)-1
	// Below component 0 the directory is a tenant's: its entries are
	// counted, with those of the tenant's other directories.
	own := i > 0
	read := new(int)
	if w.t != nil {
		read = &w.t.entries
	}
	// A wildcard last component: the first match, and how many, to
	// refuse two in one directory.
	var first string
	var firstCaps []string
	matches := 0
	for {
		n := batch
		if own {
			n = min(batch, maxTenantEntries+1-*read)
		}
		ents, err := dir.ReadDir(n)
		w.p.opt.hooks.atListed(w.show(rel), len(ents))
		if own {
			if *read += len(ents); *read > maxTenantEntries {
				w.crowded(rel)
				return
			}
		}
		for _, e := range ents {
			name := e.Name()
			c, ok := matchSeg(seg, name)
			if !ok {
				continue
			}
			all := append(caps[:len(caps):len(caps)], c...)
			if last {
				if w.isSite(dir, name) {
					continue
				}
				if matches++; matches == 1 {
					first, firstCaps = name, all
				}
				continue
			}
			if t := e.Type(); t != 0 && t&(fs.ModeDir|fs.ModeSymlink) == 0 {
				continue // a file where the pattern needs a directory
			}
			w.entry(dir, rel, i, name, all)
			if w.t != nil && w.t.over != "" {
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				w.failOpen(rel, "list", err)
			}
			break
		}
	}
	switch {
	case matches > 1:
		if w.p.opt.Shards > 0 && !inShard(rel, w.p.opt.Shard, w.p.opt.Shards) {
			return
		}
		w.fail(rel, Refused, fmt.Sprintf("%d files in %s match %q; a directory holds one tenant manifest", matches, w.show(rel), w.d.pat.raw))
	case matches == 1:
		w.entry(dir, rel, i, first, firstCaps)
	}
}

// crowded refuses the tenant one of whose directories, rel, took the
// entries read past maxTenantEntries.
func (w *walker) crowded(rel string) {
	if w.t != nil {
		w.t.over = fmt.Sprintf("the directories below %s hold more than %d entries together (the last read: %s), where the tenants glob %q looks for manifests; a tenant's are read up to %d: refused until they hold fewer", w.show(w.t.rel), maxTenantEntries, w.show(rel), w.d.pat.raw, maxTenantEntries)
		return
	}
	if w.p.opt.Shards > 0 && !inShard(rel, w.p.opt.Shard, w.p.opt.Shards) {
		return
	}
	w.fail(rel, Refused, fmt.Sprintf("%s holds more than %d entries, where the tenants glob %q looks for manifests; a tenant's directories are read up to %d: refused until it holds fewer", w.show(rel), maxTenantEntries, w.d.pat.raw, maxTenantEntries))
}

// hand passes a unit the walk found on, or, in a tenant's walk, holds it
// until that walk ends.
func (w *walker) hand(j *job) {
	t := w.t
	if t == nil {
		w.found++
		w.send(j)
		return
	}
	if t.over != "" {
		return
	}
	// Every shard counts every unit: they refuse the same tenants.
	if t.found++; t.found > maxTenantManifests {
		t.over = fmt.Sprintf("more than %d tenant manifests below %s match the tenants glob %q; a tenant has up to %d: refused until it has fewer", maxTenantManifests, w.show(t.rel), w.d.pat.raw, maxTenantManifests)
		return
	}
	if w.p.opt.Shards > 0 && !inShard(j.rel, w.p.opt.Shard, w.p.opt.Shards) {
		return
	}
	t.jobs = append(t.jobs, j)
}

// tenant walks the directories of the tenant at rel (top, the entry of
// the glob's first component), holding what it finds; then, when the
// tenant is within the walk's bounds, hands each unit on, opening each
// manifest's directory again from top. Past a bound, the tenant is
// refused in one line and nothing of it is handed on.
func (w *walker) tenant(top *confined.Dir, rel string, caps []string) {
	t := &tenantWalk{rel: rel}
	w.t = t
	w.level(top, rel, 1, caps)
	w.t = nil
	if t.over != "" {
		if w.p.opt.Shards > 0 && !inShard(rel, w.p.opt.Shard, w.p.opt.Shards) {
			return
		}
		w.fail(rel, Refused, t.over)
		return
	}
	for _, j := range t.jobs {
		if j.held {
			w.reopen(top, rel, j)
			continue
		}
		w.hand(j)
	}
}

// reopen opens the directory of j, a manifest held by a tenant's walk,
// from top (the tenant's directory, at rel), and hands the manifest on.
func (w *walker) reopen(top *confined.Dir, rel string, j *job) {
	sub, err := top.OpenPath(strings.TrimPrefix(j.rel, rel+"/"))
	switch {
	case err == nil:
	case confined.IsAbsent(err):
		return // gone since the walk found it
	case confined.IsSymlink(err):
		w.fail(j.rel, Refused, fmt.Sprintf("%s is a symlink; tenant directories are never followed through symlinks", w.show(j.rel)))
		return
	default:
		w.failOpen(j.rel, "open", err)
		return
	}
	defer sub.Close() // also when the walk panics
	w.manifest(sub, j.rel, j.name, j.caps)
}

// isSite reports whether name in dir is the site manifest, which no glob
// makes a tenant.
func (w *walker) isSite(dir *confined.Dir, name string) bool {
	fi, err := dir.Lstat(name)
	return err == nil && w.p.site.self.Is(fi)
}

// show is how messages name the directory rel below the prefix.
func (w *walker) show(rel string) string {
	return filepath.Join(w.d.pat.show, filepath.FromSlash(rel))
}

// fail reports a directory of the walk that cannot be a tenant's.
func (w *walker) fail(rel string, st Status, reason string) {
	w.hand(&job{d: w.d, rel: rel, show: w.show(rel), status: st, reason: reason})
}

// failOpen reports a directory of the walk that cannot be opened or
// listed (verb): skipped, and marked as not open to this user when a full
// build not run as root was denied it, so that the others' tenants are
// said once rather than each.
func (w *walker) failOpen(rel, verb string, err error) {
	j := &job{d: w.d, rel: rel, show: w.show(rel), status: Skipped, reason: fmt.Sprintf("cannot %s %s: %v", verb, w.show(rel), errText(err))}
	j.notOpen = !w.named && w.p.euid > 0 && errors.Is(err, fs.ErrPermission)
	w.hand(j)
}

// entry handles name, matched by component i, in dir.
func (w *walker) entry(dir *confined.Dir, rel string, i int, name string, caps []string) {
	segs := w.segs
	child := path.Join(rel, name)
	if i == len(segs)-1 {
		w.manifest(dir, rel, name, caps)
		return
	}
	// Once the rest of the pattern is literal, the tenant's directory is
	// known: a shard that does not hold it goes no further (but in a
	// tenant's walk, which every shard counts whole).
	if w.p.opt.Shards > 0 && w.t == nil && allLiteral(segs[i+1:len(segs)-1]) {
		tdir := path.Join(append([]string{child}, segs[i+1:len(segs)-1]...)...)
		if !inShard(tdir, w.p.opt.Shard, w.p.opt.Shards) {
			return
		}
	}
	// The directories left to the manifest are literal (home/public_html):
	// one open reaches the last of them. On any failure the walk goes a
	// component at a time, which tells which one failed and how.
	if last := len(segs) - 1; i+1 < last && allLiteral(segs[i+1:last]) {
		rest := path.Join(append([]string{name}, segs[i+1:last]...)...)
		if sub, err := dir.OpenPath(rest); err == nil {
			defer sub.Close()
			w.level(sub, path.Join(rel, rest), last, caps)
			return
		}
	}
	sub, err := dir.OpenDir(name)
	symlink := err != nil && confined.IsSymlink(err)
	if err != nil && confined.IsAbsent(err) {
		// O_DIRECTORY may report a symlink as "not a directory".
		fi, serr := dir.Lstat(name)
		symlink = serr == nil && fi.Mode&fs.ModeSymlink != 0
	}
	switch {
	case err == nil:
	case confined.IsAbsent(err) && !w.named && !symlink:
		return
	case symlink:
		w.fail(child, Refused, fmt.Sprintf("%s is a symlink; tenant directories are never followed through symlinks", w.show(child)))
		return
	default:
		w.failOpen(child, "open", err)
		return
	}
	defer sub.Close() // also when the walk panics
	if i == 0 && w.nested {
		w.tenant(sub, child, caps)
		return
	}
	w.level(sub, child, i+1, caps)
}

// manifest handles a file the last component matched in dir.
func (w *walker) manifest(dir *confined.Dir, rel, name string, caps []string) {
	if w.t != nil {
		// Held by name, in every shard (each counts it), unless absent.
		if _, err := dir.Lstat(name); err == nil || !confined.IsAbsent(err) {
			w.hand(&job{d: w.d, rel: rel, show: w.show(rel), name: name, caps: caps, held: true})
		}
		return
	}
	if w.p.opt.Shards > 0 && !inShard(rel, w.p.opt.Shard, w.p.opt.Shards) {
		return
	}
	fi, err := dir.Lstat(name)
	if err != nil {
		if confined.IsAbsent(err) && !w.named {
			return
		}
		w.hand(&job{d: w.d, rel: rel, show: w.show(rel), name: name, status: Skipped, reason: fmt.Sprintf("cannot stat %s: %v", filepath.Join(w.show(rel), name), errText(err))})
		return
	}
	if w.p.site.self.Is(fi) {
		return // the site manifest itself
	}
	w.p.opt.hooks.atStage("walk", w.show(rel))
	w.found++
	j := &job{d: w.d, rel: rel, show: w.show(rel), name: name, caps: caps, info: fi}
	if !fi.Mode.IsRegular() {
		j.status = Refused
		j.reason = fmt.Sprintf("%s is a %s, not a regular file; it is not read", j.manifestPath(), limited.TypeName(fi.Mode))
		if fi.Mode&fs.ModeSymlink != 0 {
			j.reason = fmt.Sprintf("%s is a symlink; a tenant manifest is never read through a symlink", j.manifestPath())
		}
		w.send(j)
		return
	}
	// The directory is not used again by the walk (it holds one
	// manifest): the job takes it, and closes it.
	j.dir = dir.Take()
	w.send(j)
}

func allLiteral(segs []string) bool {
	for _, s := range segs {
		if isMeta(s) {
			return false
		}
	}
	return true
}

// errText is an error's message without the path the caller already names.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// tenant runs one tenant from its manifest to disk and reports it.
func (p *pipeline) tenant(j *job) {
	u := &Unit{Kind: Tenant, Manifest: j.manifestPath(), Dir: j.show}
	var root *os.Root
	handed := false // the batcher reports the unit and closes its handles
	defer func() {
		if v := recover(); v != nil {
			refuseAsBug(u, bug.Text(v))
		}
		if handed {
			return
		}
		if root != nil {
			root.Close()
		}
		if j.dir != nil {
			j.dir.Close()
		}
		p.emit(u)
	}()
	pos := diag.Pos{File: u.Manifest}
	if j.status != Built || j.reason != "" {
		if j.name == "" {
			pos.File = j.show
			u.Manifest = ""
		}
		u.Status, u.NotOpen = j.status, j.notOpen
		u.Diags.Errorf(pos, "", "%s", j.reason)
		return
	}
	space, err := bindSpace(j.d.path, j.caps)
	if err != nil {
		u.Status = Refused
		u.Diags.Errorf(pos, "", "%v", err)
		return
	}
	u.Space = space.String()

	if reason := p.notOwn(j); reason != "" {
		u.Status = Refused
		u.NotOwner = true
		u.Diags.Errorf(pos, "", "%s", reason)
		return
	}
	p.opt.hooks.atWalked(j.show)
	fresh, r, err := p.fresh(j)
	if err != nil {
		u.Status = Skipped
		u.Diags.Errorf(pos, "", "cannot open %s: %v", j.show, errText(err))
		return
	}
	root = r
	if fresh {
		u.Status = Unchanged
		return
	}
	if list, ok := p.refusedBefore(j, root); ok {
		u.Status, u.Diags = Refused, list
		return
	}
	p.opt.hooks.atRead(j.show)
	p.opt.hooks.atStage("load", j.show)
	// The key, made when the tree is written, is of the file read.
	data, info, err := j.dir.ReadFile(j.name, j.info, int64(manifest.MaxBytes))
	j.info = info
	if err != nil {
		u.Status = Refused
		if confined.IsSymlink(err) {
			u.Diags.Errorf(pos, "", "%s became a symlink; a tenant manifest is never read through a symlink", u.Manifest)
		} else {
			u.Diags.Errorf(pos, "", "cannot read tenant manifest: %v", errText(err))
		}
		return
	}
	// The memory the manifest will hold is taken from the budget before
	// it is parsed, and given back once its tree is rendered.
	t, ok := p.renderWithin(j, u, root, space, data)
	if !ok {
		return
	}
	if p.opt.Mode == Render {
		u.Tree = t
		u.Status = Built
		return
	}
	handed = p.write(j, u, root, t)
}

// renderWithin renders with the manifest's cost taken from the memory
// budget, and given back however render ends.
func (p *pipeline) renderWithin(j *job, u *Unit, root *os.Root, space pathspace.Space, data []byte) (tree.Tree, bool) {
	cost := p.heavy.acquire(manifestCost(data))
	defer p.heavy.release(cost)
	return p.render(j, u, root, space, data)
}

// render loads, validates and renders a tenant's manifest, checking its
// limits; false when it is refused. From here a refusal depends only on
// what the tenant key covers, so it is remembered under that key.
func (p *pipeline) render(j *job, u *Unit, root *os.Root, space pathspace.Space, data []byte) (tree.Tree, bool) {
	refused := func() (tree.Tree, bool) {
		u.Status = Refused
		p.rememberRefusal(j, root, u.Diags)
		return nil, false
	}
	doc, errs := manifest.LoadTenant(u.Manifest, data)
	u.Diags.Append(errs)
	if doc == nil {
		return refused()
	}
	// Schema errors do not stop the semantic rules: the tenant hears of
	// every error at once.
	m, errs := validate.Tenant(doc, space, j.d.grant, validate.Options{Now: p.opt.Now, Site: p.site.URL, Delegation: j.d.space})
	if u.Diags.Append(errs); u.Diags.HasErrors() || m == nil {
		return refused()
	}
	if u.Diags.Append(preLimits(doc, j.d.limits, p.opt.Manifest)); u.Diags.HasErrors() {
		return refused()
	}
	p.opt.hooks.atStage("render", j.show)
	t, errs := generate.Tenant(m, p.site.URL)
	if u.Diags.Append(errs); u.Diags.HasErrors() {
		return refused()
	}
	if u.Diags.Append(checkLimits(doc, t, j.d.limits, p.opt.Manifest)); u.Diags.HasErrors() {
		return refused()
	}
	return t, true
}

// one finds the tenant manifest file (a --tenant argument): the first
// delegation whose glob matches it, then a walk down its literal path from
// the glob's prefix, confined exactly as in a full walk.
//
// A panic in the walk refuses the file as a bug in discgen, unless its
// tenant was found and handed on, and the other files are walked.
func (p *pipeline) one(dels []*delegation, file string, send func(*job)) {
	sent := false
	defer func() {
		if v := recover(); v != nil && !sent {
			u := &Unit{Kind: Tenant, Manifest: file, Dir: filepath.Dir(file)}
			refuseAsBug(u, bug.Text(v))
			p.emit(u)
		}
	}()
	hand := send
	send = func(j *job) { sent = true; hand(j) }
	abs, err := filepath.Abs(file)
	if err == nil {
		for _, d := range dels {
			comps, caps, ok := d.pat.matchFile(abs)
			if !ok {
				continue
			}
			top, err := confined.OpenTop(d.pat.prefix)
			if err != nil {
				send(&job{d: d, show: filepath.Dir(file), name: filepath.Base(file), status: Skipped, reason: fmt.Sprintf("cannot open %s: %v", d.pat.show, errText(err))})
				return
			}
			defer top.Close()
			w := &walker{p: p, d: d, segs: comps, send: send, named: true}
			w.level(top, "", 0, caps)
			return
		}
	}
	// The globs there are, so that the reader sees where tenants are
	// looked for; a few, then how many more.
	const shown = 4
	var globs []string
	for _, d := range dels {
		if len(globs) < shown {
			globs = append(globs, d.pat.raw)
		}
	}
	has := "has no tenants glob"
	if len(globs) > 0 {
		has = "has " + strings.Join(globs, ", ")
		if len(dels) > shown {
			has += fmt.Sprintf(" and %d more", len(dels)-shown)
		}
	}
	var l diag.List
	l.Errorf(diag.Pos{File: file}, "", "%v (%s %s)", errNoDelegation, p.opt.Manifest, has)
	p.emit(&Unit{Kind: Tenant, Manifest: file, Dir: filepath.Dir(file), Status: Refused, Diags: l})
}
