package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/discgen/discgen/confined"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
	"github.com/discgen/discgen/validate"
)

// Mode says what Run does with each rendered tree.
type Mode int

const (
	// Write plans and applies every output (discgen build).
	Write Mode = iota
	// Check plans every output and reports its changes without writing
	// (discgen build --check).
	Check
	// DryRun is Check, for a listing rather than a diff.
	DryRun
	// Render renders and reports each tree without looking at the disk
	// where it would go (discgen validate, tests).
	Render
)

// Options says what to publish.
type Options struct {
	// Manifest is the site manifest's path, as the user gave it; messages
	// name files relative to it.
	Manifest string
	// Env selects an environment of the manifest.
	Env string
	// Now is the time security.txt dates resolve against.
	Now time.Time
	// RobotsSymlink makes autodisc/robots.txt a symlink to /robots.txt.
	RobotsSymlink bool
	// Jobs bounds how many tenants are in work at once. By default it is
	// 64, or fewer where the host's limits say so (sizing.go: the CPUs,
	// the thread and memory limits). In Write mode the workers plan, and
	// their plans are applied in batches of up to 64 with one flush to
	// disk (syncfs) per batch on Linux, two elsewhere.
	Jobs int
	// Memory is the budget, in bytes, of what the manifests in work may
	// hold (default 256 MiB, or less where the host's limits or the Go
	// runtime's soft memory limit say so): a worker takes a manifest's
	// estimated cost from it before parsing, and waits for room.
	Memory int64

	Mode Mode
	// Out is the site's output directory (-o).
	Out string
	// StateDir holds the ownership records (--state).
	StateDir string
	// Replace takes over foreign and modified files (--replace).
	Replace bool
	// Server lists the server configuration kinds to write with the site,
	// and ServerDir where the separate snippets go.
	Server    []serverconf.Kind
	ServerDir string

	// Tenants, when not empty, builds only these tenant manifests (paths
	// as the user gave them), each checked against the delegation whose
	// glob matches it; the site's own tree is left alone.
	Tenants []string
	// Shard and Shards select the Shard-th (from 1) of Shards stable
	// partitions of the tenants; the site is built in shard 1 only. Zero
	// Shards builds everything.
	Shard, Shards int
	// TenantOwner gives every file and directory written in a tenant's
	// directory the owner of that directory (for a build run as root).
	TenantOwner bool
	// Version is the discgen version: a new version rebuilds every tenant.
	Version string
	// Unsigned renders security.txt without its signature, so callers that
	// need only robots.txt (check -f) do not need the signing key.
	Unsigned bool

	// Found, when set, is told how many tenants the walk has found so
	// far, as it finds each, and once more with complete true when it has
	// found them all, for a progress display. It is called from the walk,
	// not under report's lock.
	Found func(n int, complete bool)

	// journals are the journals the plans own what they name from: all
	// of them for a check or a dry run, and for a build the dead ones
	// Recover could not merge while another build applied a batch.
	journals *output.Journals
}

// Status is how a unit of work ended.
type Status int

const (
	Built     Status = iota // written (or, in Check and DryRun modes, planned)
	Unchanged               // nothing to write
	Refused                 // invalid, hostile or not writable: a reason is in Diags
	Skipped                 // could not be looked at (permission denied): a reason is in Diags
)

func (s Status) String() string {
	return [...]string{"built", "unchanged", "refused", "skipped"}[s]
}

// Kind says what a Unit is.
type Kind int

const (
	Site   Kind = iota // the site's own tree, in Options.Out
	Server             // the separate server snippets, in Options.ServerDir
	Tenant             // one tenant
)

func (k Kind) String() string { return [...]string{"site", "server", "tenant"}[k] }

// Unit is one finished unit of work, reported as soon as it ends.
type Unit struct {
	Kind Kind
	// Manifest is the manifest the unit comes from, as messages show it.
	Manifest string
	// Dir is the directory it is written to, as messages show it.
	Dir string
	// Space is the URL-path space of the authority ("" when not known).
	Space  string
	Status Status
	// Diags holds the unit's errors and warnings, sorted.
	Diags diag.List
	// Notes are warnings about the run rather than the manifest (what a
	// --server kind cannot express), printed as discgen: warning: lines.
	Notes []string
	// Problem is why the output could not be written (an
	// *output.ProblemError, usually), or nil.
	Problem error
	// Changes is the plan, in Check and DryRun modes (nil when there is
	// none); Result is what Apply did, in Write mode.
	Changes *output.Changes
	Result  output.Result
	// Tree is the rendered tree, in Render mode.
	Tree tree.Tree
}

// Summary counts the units of a run.
type Summary struct {
	// SiteOK is false when the site manifest is invalid: nothing else
	// was done.
	SiteOK bool
	// Count is the number of units that ended with each Status.
	Count [4]int
	// Stale is set in Check mode when some output would change.
	Stale bool
	// Failed is set when anything was refused, skipped or not written,
	// or an error outside any unit was reported.
	Failed bool
}

// Run publishes the site manifest and its tenants, calling report once for
// each unit as it ends, from one goroutine at a time. Diagnostics outside
// any unit (the site manifest's, a tenants glob that cannot be walked) are
// reported as a unit of Kind Site.
//
// The pipeline, per tenant, on a pool of Options.Jobs workers:
//
//	discover  walk each tenants glob from its fixed prefix, one component
//	          at a time, never through a symlink; lstat the manifest
//	key       hash the discgen version, the delegation, the site URL and
//	          the manifest's size, mtime, ctime and inode
//	load      open without following or waiting, fstat, read (bounded)
//	validate  the space comes from the directory; path must agree
//	render    the tenant's tree
//	plan      compare with the disk through the directory opened in the walk
//	write     apply, through the same directory, in batches of up to 64
//	          tenants sharing one journal and one flush to disk
//	          (output.ApplyAll)
//
// Nothing is kept per tenant once it is reported.
func Run(opt Options, report func(*Unit)) Summary {
	var sum Summary
	size, err := sizeBuild(opt)
	if err != nil {
		sum.Failed = true
		report(&Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Status: Refused, Problem: err})
		return sum
	}
	var mu sync.Mutex
	emit := func(u *Unit) {
		mu.Lock()
		defer mu.Unlock()
		u.Diags.Sort()
		sum.Count[u.Status]++
		if u.Status >= Refused || u.Problem != nil || u.Diags.HasErrors() {
			sum.Failed = true
		}
		if u.Changes != nil && !u.Changes.Empty() && opt.Mode == Check {
			sum.Stale = true
		}
		report(u)
		// A plan that is only shown holds directory handles: with many
		// tenants they must not wait for the garbage collector.
		if u.Changes != nil {
			u.Changes.Close()
		}
	}

	s, diags := LoadSite(opt)
	if s == nil {
		sum.Failed = true
		report(&Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Status: Refused, Diags: diags})
		return sum
	}
	sum.SiteOK = true
	if opt.Mode == Check || opt.Mode == DryRun {
		// What a killed build left is counted as the next build will
		// count it, without recovering: a check writes nothing.
		j, err := output.ReadJournals(opt.StateDir)
		if err != nil {
			diags.Warnf(diag.Pos{File: opt.Manifest}, "", "%v: files a running or interrupted build left may be reported as not discgen's", err)
		}
		if j.Roots() > 0 {
			diags.Warnf(diag.Pos{File: opt.Manifest}, "", "the state directory %s holds the journal of a build that is running or was interrupted, naming %d output roots: what it may have written there is counted as discgen's, as the next build will once it recovers the journal", opt.StateDir, j.Roots())
		}
		opt.journals = j
	}
	if opt.Mode == Write {
		// What a killed build left is owned again before anything is
		// planned: merged into the records, or, while another build is
		// applying a batch, owned by the plans through the journals.
		_, j, err := output.Recover(opt.StateDir)
		if err != nil {
			sum.Failed = true
			report(&Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Status: Refused, Problem: err})
			return sum
		}
		opt.journals = j
	}
	dels, derrs := s.delegations()
	diags.Append(derrs)
	if len(opt.Tenants) == 0 && (opt.Shards == 0 || opt.Shard == 1) {
		if len(opt.Server) == 0 {
			diags.Append(s.serverOnly())
		}
		s.publish(opt, diags, emit)
	} else if len(diags) > 0 {
		emit(&Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Status: Unchanged, Diags: diags})
	}
	p := &pipeline{opt: opt, site: s, emit: emit, size: size, euid: os.Geteuid()}
	if opt.Mode == Write {
		p.sharedJournal = output.SharedJournal(opt.StateDir)
	}
	p.run(dels)
	if opt.Mode == Write {
		// The last records written reach the disk, and their journals
		// go.
		if err := output.Flush(); err != nil {
			sum.Failed = true
			report(&Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Status: Skipped, Problem: err})
		}
	}
	return sum
}

// SiteDoc is a loaded, valid site manifest and its rendered tree.
type SiteDoc struct {
	Doc  *manifest.Doc[manifest.Site]
	Tree tree.Tree
	URL  *url.URL
	// Access is what --server output refuses and marks noindex.
	Access serverconf.Access
	// dir is the manifest's directory; tenants globs are relative to it.
	dir  string
	self confined.Info // the site manifest, which no glob makes a tenant
}

// LoadSite loads, validates and renders the site manifest alone. It
// returns nil when the manifest is invalid, with every diagnostic.
func LoadSite(opt Options) (*SiteDoc, diag.List) {
	var diags diag.List
	data, err := limited.ReadFile(opt.Manifest, manifest.MaxBytes)
	if err != nil {
		diags.Errorf(diag.Pos{File: opt.Manifest}, "", "cannot read manifest: %v", err)
		return nil, diags
	}
	doc, errs := manifest.LoadSite(opt.Manifest, data, opt.Env)
	diags.Append(errs)
	if doc == nil {
		diags.Sort()
		return nil, diags
	}
	vopt := validate.Options{Now: opt.Now}
	if diags.Append(validate.Site(doc, vopt)); diags.HasErrors() {
		diags.Sort()
		return nil, diags
	}
	dir := filepath.Dir(opt.Manifest)
	s := &SiteDoc{Doc: doc, dir: dir}
	if len(opt.Tenants) == 0 && (opt.Shards == 0 || opt.Shard == 1) {
		t, errs := generate.Site(doc, generate.Options{Now: opt.Now, Dir: dir, RobotsSymlink: opt.RobotsSymlink, Unsigned: opt.Unsigned})
		if diags.Append(errs); diags.HasErrors() {
			diags.Sort()
			return nil, diags
		}
		s.Tree = t
		access, errs := generate.SiteAccess(doc)
		diags.Append(errs)
		s.Access = access
		s.Access.Tenants = s.tenantSpaces()
	}
	s.URL, _ = url.Parse(doc.Value.Site.URL)
	s.self = confined.StatPath(opt.Manifest)
	diags.Sort()
	return s, diags
}

// tenantSpaces returns the delegations whose tenants a glob finds, for
// the --server rules of their autodisc files. A delegation refused here
// gets no rule; Run reports why.
func (s *SiteDoc) tenantSpaces() []serverconf.TenantSpace {
	dels, _ := s.delegations()
	var out []serverconf.TenantSpace
	for _, d := range dels {
		glob := path.Join(append([]string{filepath.ToSlash(d.pat.prefix)}, d.pat.segs...)...)
		out = append(out, serverconf.TenantSpace{Space: d.space.String(), Glob: glob})
	}
	return out
}

// serverOnly warns of the manifest's keys that take effect only through
// --server configuration, for a build that writes none: without it,
// noindex and enforce would do nothing, silently.
func (s *SiteDoc) serverOnly() diag.List {
	var l diag.List
	pos := s.Doc.Pos
	if s.Access.Noindex {
		l.Warnf(pos.Of("noindex"), "noindex", "noindex is sent by web server configuration (X-Robots-Tag: noindex), and this build writes none: add --server with your server's kind")
	}
	for i, g := range s.Doc.Value.Agents {
		if g.Enforce {
			path := manifest.Index("agents", i) + ".enforce"
			l.Warnf(pos.Of(path), path, "enforce refuses crawlers through web server configuration, and this build writes none: add --server with your server's kind")
			break
		}
	}
	return l
}

// publish writes (or checks) the site's tree and its server configuration.
func (s *SiteDoc) publish(opt Options, diags diag.List, emit func(*Unit)) {
	u := &Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Diags: diags}
	t := s.Tree
	var sep tree.Tree
	if len(opt.Server) > 0 {
		public, separate, err := serverconf.RenderAccess(t, opt.Server, s.Access)
		if err != nil {
			u.Diags.Errorf(diag.Pos{File: opt.Manifest}, "", "--server: %v", err)
			u.Status = Refused
			emit(u)
			return
		}
		t = make(tree.Tree, len(s.Tree)+len(public))
		for p, e := range s.Tree {
			t[p] = e
		}
		for p, e := range public {
			t[p] = e
		}
		sep = separate
		for _, w := range serverconf.Warnings(opt.Server, s.Access) {
			u.Notes = append(u.Notes, w)
		}
	}
	publishRoot(opt, u, opt.Out, t)
	emit(u)
	if len(sep) > 0 {
		v := &Unit{Kind: Server, Dir: opt.ServerDir}
		publishRoot(opt, v, opt.ServerDir, sep)
		emit(v)
	}
}

// publishRoot writes (or checks) t into root for u, unless a build finds
// root as the last build with the same tree left it: then output.Fresh
// (a stat per output, no read) settles u as Unchanged, as a tenant's are
// skipped. A site with thousands of inline delegatees would otherwise read
// and hash every output on every build. Only a build skips on its word:
// --check and --dry-run compare the bytes whatever the state directory
// holds.
func publishRoot(opt Options, u *Unit, root string, t tree.Tree) {
	key := treeKey(opt, t)
	if opt.Mode == Write {
		if ok, err := output.Fresh(root, output.Options{StateDir: opt.StateDir, Key: key}); ok && err == nil {
			u.Status = Unchanged
			u.Result.Unchanged = len(t)
			return
		}
	}
	finish(opt, u, t, func(o output.Options) (*output.Changes, error) {
		if testHookPlanSite != nil && root == opt.Out {
			testHookPlanSite(root)
		}
		o.Key = key
		return output.Plan(root, t, o)
	})
}

// testHookPlanSite, when set by a test, runs before the site's tree is
// planned against the disk.
var testHookPlanSite func(root string)

// treeKey fingerprints what a root gets: every path with its bytes or
// link, discgen's version and --replace.
func treeKey(opt Options, t tree.Tree) string {
	h := sha256.New()
	fmt.Fprintf(h, "tree 1\n%s\n%t\n", opt.Version, opt.Replace)
	for _, p := range t.Paths() {
		e := t[p]
		fmt.Fprintf(h, "%d %s %d %s\n", len(p), p, len(e.Link), e.Link)
		fmt.Fprintf(h, "%d\n", len(e.Data))
		h.Write(e.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// finish plans (and in Write mode applies) one tree, setting the unit's
// status.
func finish(opt Options, u *Unit, t tree.Tree, plan func(output.Options) (*output.Changes, error)) {
	if opt.Mode == Render {
		u.Tree = t
		u.Status = Built
		return
	}
	ch, err := plan(output.Options{StateDir: opt.StateDir, Replace: opt.Replace, Journals: opt.journals})
	if err != nil {
		u.Problem = err
		u.Status = Refused
		return
	}
	if opt.Mode != Write {
		u.Changes = ch
		u.Problem = ch.Err()
		switch {
		case u.Problem != nil:
			u.Status = Refused
		case ch.Empty():
			u.Status = Unchanged
		default:
			u.Status = Built
		}
		return
	}
	r, err := ch.Apply()
	settle(u, r, err)
}

// settle sets a unit's status from what Apply did.
func settle(u *Unit, r output.Result, err error) {
	u.Result = r
	switch {
	case err != nil:
		u.Problem = err
		u.Status = Refused
	case r.Added+r.Updated+r.Removed+r.Adopted == 0:
		u.Status = Unchanged
	default:
		u.Status = Built
	}
}

// defaultJobs is the most workers a build starts unless Options.Jobs
// says otherwise.
const defaultJobs = 64

// errNoDelegation is reported for a --tenant file no glob matches.
var errNoDelegation = errors.New("no delegation's tenants glob matches this file")

// delegations collects the site's delegations that have a tenants glob,
// refusing (with an error at the tenants key) those whose glob cannot be
// walked or cannot fill the delegation's wildcards.
func (s *SiteDoc) delegations() ([]*delegation, diag.List) {
	var out []*delegation
	var diags diag.List
	doc := s.Doc
	for i, d := range doc.Value.Delegations {
		if d.Tenants == "" {
			continue
		}
		key := manifest.Key(manifest.Index("delegations", i), "tenants")
		pos := doc.Pos.Of(key)
		space, err := pathspace.Parse(pathspace.Root, d.Path)
		if err != nil {
			continue // validation has reported it
		}
		pat, err := parsePattern(s.dir, d.Tenants)
		if err != nil {
			diags.Errorf(pos, key, "%v", err)
			continue
		}
		if want := countStars(d.Path); pat.stars != want {
			diags.Errorf(pos, key, "%q has %d '*' but the delegation path %q has %d: each '*' the glob matches fills the path's '*' in the same place, so they must be as many; no tenant of this delegation is built", d.Tenants, pat.stars, d.Path, want)
			continue
		}
		nd := &delegation{
			index: i, key: key, path: d.Path, space: space, pat: pat,
			grant:  validate.Grant(validate.AllFiles(), d.Only, d.Except),
			limits: limitsOf(d, i),
		}
		nd.summary = fmt.Sprintf("%q %q %q %q %s", d.Path, d.Only, d.Except, d.Tenants, nd.limits)
		// Two globs whose tenant directories can coincide or nest would
		// write one tree over another: the later one is refused.
		clash := false
		for _, o := range out {
			if dirsCanMeet(o.pat, pat) {
				diags.Errorf(pos, key, "the directories %q matches can be those of %s (%q), or hold them; a directory holds the tenant of one delegation", d.Tenants, o.key, o.pat.raw)
				clash = true
				break
			}
		}
		if !clash {
			out = append(out, nd)
		}
	}
	return out, diags
}

func countStars(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '*' {
			n++
		}
	}
	return n
}
