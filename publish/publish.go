package publish

import (
	"errors"
	"os"
	"sync"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/hostlimits"
	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
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
	// disk (syncfs) per batch on Linux; a batch of few files, and every
	// batch elsewhere, fsyncs what it wrote instead (docs/output-design.md).
	Jobs int
	// Memory is the budget, in bytes, of what the manifests in work may
	// hold (default 256 MiB, or less where the host's limits or the Go
	// runtime's soft memory limit say so): a worker takes a manifest's
	// estimated cost from it before parsing, and waits for room.
	Memory int64
	// Collector, when set, follows the memory the tenants in work hold
	// (gcpolicy.Tenants in discgen).
	Collector Collector
	// Limits, when set, are the host's limits as the caller read them
	// (hostlimits.Read) at start-up; when nil the build reads them.
	Limits *hostlimits.Limits
	// FitProcs lets the build lower GOMAXPROCS, for the whole process,
	// where the host's thread limit leaves too few threads for one per
	// CPU (sizing.go). Without it GOMAXPROCS is left as it is, and a build
	// that fits only on fewer is refused, naming the limit.
	FitProcs bool

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
	// directory the owner and group of that directory (for a build run
	// as root). A build run by the tenant's own user gives the group
	// only when the user is in it, and otherwise leaves the group the
	// system gives.
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
	// writer applies every plan of a build, the site's and the tenants'
	// batches, and flushes them at its end.
	writer *output.Writer
	// hooks are a test's (hooks.go).
	hooks *hooks
}

// Collector is told what a build's tenants in work may hold beyond their
// workers' set-aside shares, so that a garbage collector policy can
// follow it: Start as the tenants' workers start, Hold with the memory
// budget the large manifests (and states) in work have taken, each time
// it changes, and Done once the workers have stopped.
type Collector interface {
	Start()
	Hold(bytes int64)
	Done()
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

// StatusText is the unit's status as messages and JSON give it: the
// Status's word, or "not provisioned" for a tenant whose state root has
// not made yet (a Skipped one).
func (u *Unit) StatusText() string {
	if u.NotProvisioned {
		return "not provisioned"
	}
	return u.Status.String()
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
	// NotOwner is set on a tenant refused only because its directory
	// belongs to another user than the one a build not run as root runs
	// as; Diags says so too.
	NotOwner bool
	// NotProvisioned is set on a tenant skipped because a build not run
	// as root may not make its state, which root has not made yet (on its
	// first build, or build --provision): its status reads "not
	// provisioned" (StatusText), and it is counted among the skipped.
	NotProvisioned bool
	// NotOpen is set on a tenant skipped only because a full build not
	// run as root may not open its directory (permission denied): another
	// user's, on a host whose homes are closed to others; Diags says so
	// too.
	NotOpen bool
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
//	          (output.Writer.ApplyAll)
//
// Nothing is kept per tenant once it is reported.
func Run(opt Options, report func(*Unit)) Summary {
	var sum Summary
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

	// Every unit goes through emit, the site's early refusals too, so
	// that each is counted and its diagnostics sorted.
	size, err := sizeBuild(opt)
	if err != nil {
		emit(&Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Status: Refused, Problem: err})
		return sum
	}
	s, diags := LoadSite(opt)
	if s == nil {
		emit(&Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Status: Refused, Diags: diags})
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
	dels, derrs := s.delegations()
	if l := stateInTenants(opt, s, dels); len(l) > 0 {
		emit(&Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Status: Refused, Diags: l})
		return sum
	}
	if opt.Mode == Write {
		opt.writer = output.NewWriter()
		defer opt.writer.Close()
		// What a killed build left is owned again before anything is
		// planned: merged into the records, or, while another build is
		// applying a batch, owned by the plans through the journals.
		_, j, err := output.RecoverWithin(opt.StateDir, recoverBounds(dels, size))
		var nr *output.NotRecovered
		if errors.As(err, &nr) {
			// One root's state (a tenant holding its lock, or an
			// unusable record) stops that root alone: its intent
			// stays in the journal, and the root waits its turn.
			for _, e := range nr.Errs {
				diags.Warnf(diag.Pos{File: opt.Manifest}, "", "%v: what an interrupted build left for it stays in the journal until it can be recovered", e)
			}
			err = nil
		}
		if err != nil {
			emit(&Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Status: Refused, Problem: err})
			return sum
		}
		opt.journals = j
	}
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
	if opt.Mode != Render {
		// A check reads the verdicts a build keeps where that build
		// journals.
		p.sharedJournal = output.SharedJournal(opt.StateDir)
	}
	p.run(dels)
	if opt.Mode == Write {
		// The last records written reach the disk, and their journals
		// go.
		if err := opt.writer.Flush(); err != nil {
			sum.Failed = true
			// Not a unit of its own (the site was counted when it
			// ended): reported past emit, and not counted again.
			report(&Unit{Kind: Site, Manifest: opt.Manifest, Dir: opt.Out, Space: "/", Status: Skipped, Problem: err})
		}
	}
	return sum
}
