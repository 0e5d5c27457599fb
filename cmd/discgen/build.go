package main

import (
	"errors"
	"fmt"
	"github.com/discgen/discgen/internal/cli"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/gcpolicy"
	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/publish"
	"github.com/discgen/discgen/serverconf"
	"github.com/spf13/pflag"
)

type buildFlags struct {
	file, out, env, now, state, format  string
	server, serverDir, shard, progress  string
	shardIndex                          string
	tenants                             []string
	check, dryRun, replace, link        bool
	tenantOwner, provision, unprovision bool
	jobs                                int
}

func buildCommand(fs *pflag.FlagSet) runner {
	var f buildFlags
	f.define(fs)
	return f.run
}

func (f *buildFlags) define(fs *pflag.FlagSet) {
	fs.StringVarP(&f.file, "file", "f", "site.yaml", "the site manifest (default site.yaml)")
	fs.StringVarP(&f.out, "output", "o", "public", "the output directory (default public)")
	fs.StringVar(&f.env, "env", "", "apply the manifest's environments.NAME")
	fs.BoolVar(&f.check, "check", false, "write nothing; print a unified diff of what would change and exit 1 if anything would")
	fs.BoolVar(&f.dryRun, "dry-run", false, "write nothing; list what would change")
	fs.StringVar(&f.now, "now", "", "the time security.txt dates resolve against: RFC 3339, a date, or @UNIXSECONDS (default: $SOURCE_DATE_EPOCH, else the clock)")
	fs.StringVar(&f.state, "state", "", "where discgen records which files it wrote (default .discgen beside the manifest); never inside the output directory or a tenant's directory (the build is refused)")
	fs.BoolVar(&f.replace, "replace", false, "take over files discgen did not write")
	fs.BoolVar(&f.link, "robots-symlink", false, "make autodisc/robots.txt a symlink to /robots.txt instead of a copy")
	fs.StringVar(&f.server, "server", "", "also write web server configuration that sends the right Content-Type and caching headers: any of headers (_headers for Netlify and Cloudflare Pages) and htaccess (.htaccess for Apache), both into the output directory, and nginx and caddy (snippets to include), into --server-dir; comma-separated. Groups with enforce: true are refused (403) where they are disallowed (not by _headers), and noindex: true adds X-Robots-Tag: noindex")
	fs.StringVar(&f.serverDir, "server-dir", "", "where nginx and caddy snippets go (default server beside the manifest); never inside the output")
	fs.IntVar(&f.jobs, "jobs", 0, "tenants in work at once (default 64, or fewer where the host's CPU, thread or memory limits say so; writes are flushed in batches of 64)")
	fs.StringArrayVar(&f.tenants, "tenant", nil, "build only these tenant manifests (each checked against the delegation whose glob matches it); the site's own tree is not touched")
	fs.StringVar(&f.shard, "shard", "", "build the K-th of N stable partitions of the tenants (the site in shard 1 only)")
	fs.StringVar(&f.shardIndex, "shard-index", "", "the same counted from 0, for a Kubernetes Indexed Job: $(JOB_COMPLETION_INDEX)/N")
	fs.BoolVar(&f.tenantOwner, "tenant-owner", false, "give every file and directory written in a tenant's directory to that directory's owner, and the tenant's state, so that the owner's own --tenant build can rebuild it (run as root)")
	fs.BoolVar(&f.provision, "provision", false, "with --tenant and --tenant-owner, run as root: make each tenant's state and give it to the owner of its directory, and build nothing (a control panel's account creation: the manifest need not exist yet)")
	fs.BoolVar(&f.unprovision, "unprovision", false, "with --tenant and --tenant-owner, run as root: remove each tenant's state once its directory is gone (a control panel's account removal), and build nothing")
	fs.StringVar(&f.format, "format", "text", "text, github (annotations), or json: one document on stdout naming every output and tenant with its directory, space, status and diagnostics")
	fs.StringVar(&f.progress, "progress", "auto", "with tenants: bar (one status line on stderr, redrawn: counts, rate, time left; only refused and skipped tenants printed), lines (a line per built tenant on stdout), or auto (default: bar when stderr is a terminal and the format is text)")
	cli.SetArgs(fs, "file", "FILE", "output", "DIR", "env", "NAME", "now", "TIME", "state", "DIR", "server", "KINDS", "server-dir", "DIR", "jobs", "N", "tenant", "FILE...", "shard", "K/N", "shard-index", "I/N", "format", "FORMAT", "progress", "MODE")
}

func (f *buildFlags) run(e *call, fs *pflag.FlagSet) error {
	stdout, stderr := e.stdout, e.stderr
	if fs.NArg() > 0 && len(f.tenants) == 0 {
		return usagef("build: unexpected argument %q", fs.Arg(0))
	}
	// --tenant a.yaml b.yaml: the files after the first are arguments.
	f.tenants = append(f.tenants, fs.Args()...)
	if f.check && f.dryRun {
		return usagef("build: --check and --dry-run do not go together")
	}
	if err := checkFormat(f.format, formats["build"]...); err != nil {
		return err
	}
	now, err := parseNow(f.now)
	if err != nil {
		return err
	}
	shard, shards, err := parseShard(f.shard)
	if err != nil {
		return err
	}
	if f.shardIndex != "" {
		if f.shard != "" {
			return usagef("build: --shard and --shard-index do not go together")
		}
		if shard, shards, err = parseShardIndex(f.shardIndex); err != nil {
			return err
		}
	}
	if f.state == "" {
		f.state = filepath.Join(filepath.Dir(f.file), ".discgen")
	}
	kinds, err := serverconf.ParseKinds(f.server)
	if err != nil {
		return usagef("--server: %v", err)
	}
	if f.serverDir == "" {
		f.serverDir = filepath.Join(filepath.Dir(f.file), "server")
	}

	mode := publish.Write
	switch {
	case f.check:
		mode = publish.Check
	case f.dryRun:
		mode = publish.DryRun
	}
	opt := publish.Options{
		Manifest: f.file, Env: f.env, Now: now, RobotsSymlink: f.link, Jobs: f.jobs,
		Mode: mode, Out: f.out, StateDir: f.state, Replace: f.replace,
		Server: kinds, ServerDir: f.serverDir,
		Tenants: f.tenants, Shard: shard, Shards: shards, TenantOwner: f.tenantOwner,
		Version: cli.BuildID(cli.Version(releaseVersion)), Limits: e.limits, FitProcs: true, Collector: gcpolicy.NewTenants(),
	}
	if err := opt.Check(); err != nil {
		return usagef("build: %v", err)
	}
	if f.provision || f.unprovision {
		return f.runProvision(opt, stdout, stderr)
	}
	bar, err := wantBar(f.progress, f.format, stderr)
	if err != nil {
		return err
	}
	p := &unitPrinter{format: f.format, mode: mode, out: f.out, named: len(f.tenants) > 0, stdout: stdout, stderr: stderr}
	if bar {
		p.bar = newProgressBar(stderr)
		opt.Found = p.bar.Found
	}
	p.begin()
	sum := publish.Run(opt, p.unit)
	p.end(sum)
	switch {
	case !sum.SiteOK:
		hintMissingManifest(stderr, f.file)
		return errFailed
	case sum.Stale:
		return &hintError{errors.New("output is stale"), []string{"run 'discgen build' without --check and commit the result"}}
	case sum.Failed:
		return errFailed
	}
	return nil
}

// parseShard reads --shard K/N.
func parseShard(s string) (k, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, usagef("--shard %q: want K/N with 1 <= K <= N, such as 1/4", s)
	}
	return k, n, nil
}

// parseShardIndex reads --shard-index I/N, the I-th of N partitions counted
// from 0 as a Kubernetes Indexed Job numbers its pods, and returns it as
// --shard's K/N.
func parseShardIndex(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, usagef("--shard-index %q: want I/N with 0 <= I < N, such as 0/4", s)
	}
	return i + 1, n, nil
}

// unitPrinter prints each unit of a build as it ends: its diagnostics and
// what was written on stderr and stdout in text and github formats, or one
// element of a JSON array on stdout, streamed, in json format. Refused and
// skipped tenants are named on stderr in every format.
type unitPrinter struct {
	format         string
	mode           publish.Mode
	out            string // the output directory, for the check's line
	stdout, stderr io.Writer
	json           *publish.JSONStream // in json format
	tenants        bool
	// counts are the tenants' statuses; failed lists the refused and the
	// skipped tenants, for the end of a build at scale.
	counts [4]int
	failed [4][]string
	// named is set for a --tenant build. Without it, the tenants refused
	// because they belong to other users (a build not run as root) are
	// counted in notOwner and said once, at the end.
	named    bool
	notOwner []string
	notOpen  []string // skipped: this user may not open their directories
	// bar, when set, stands for the built and unchanged tenants
	// (--progress bar): only what needs attention is printed, above it.
	bar *publish.Progress
}

func (p *unitPrinter) begin() {
	if p.format == "json" {
		p.json = publish.NewJSONStream(p.stdout)
	}
}

func (p *unitPrinter) unit(u *publish.Unit) {
	if u.Kind == publish.Tenant && (u.NotOwner || u.NotOpen) && !p.named && p.format != "json" {
		p.tenants = true
		p.counts[u.Status]++
		if u.NotOpen {
			p.notOpen = append(p.notOpen, diag.OneLine(u.Dir))
		} else {
			p.notOwner = append(p.notOwner, diag.OneLine(u.Dir))
		}
		if p.bar != nil {
			p.bar.Count(u.Status)
		}
		return
	}
	if u.Kind == publish.Tenant {
		p.tenants = true
		p.counts[u.Status]++
		if u.Status >= publish.Refused {
			p.failed[u.Status] = append(p.failed[u.Status], diag.OneLine(u.Dir)+diag.OneLine(spaceNote(u.Space)))
		}
	}
	if p.bar == nil {
		p.print(u)
		return
	}
	quiet := u.Kind == publish.Tenant && u.Status <= publish.Unchanged && len(u.Diags) == 0 &&
		len(u.Notes) == 0 && u.Problem == nil && (u.Changes == nil || u.Changes.Empty())
	if !quiet {
		p.bar.Above(func() { p.print(u) })
	}
	if u.Kind == publish.Tenant {
		p.bar.Count(u.Status)
	}
}

// print prints one unit as it ended.
func (p *unitPrinter) print(u *publish.Unit) {
	if p.format == "json" {
		p.jsonUnit(u)
	} else {
		u.Diags.Write(p.stderr, p.format)
		for _, n := range u.Notes {
			fmt.Fprintf(p.stderr, "discgen: warning: %s\n", diag.OneLine(n))
		}
		if u.Problem != nil {
			reportProblem(p.stderr, p.format, u.Problem)
		}
		if p.format == "github" && p.mode == publish.Check && u.Changes != nil && !u.Changes.Empty() {
			publish.StaleDiags(u.Dir, u.Changes).WriteGitHub(p.stderr)
		}
		p.textUnit(u)
	}
	if u.Kind == publish.Tenant && u.Status >= publish.Refused {
		fmt.Fprintf(p.stderr, "discgen: error: tenant %s%s %s\n", diag.OneLine(u.Dir), diag.OneLine(spaceNote(u.Space)), u.StatusText())
	}
}

func spaceNote(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func (p *unitPrinter) textUnit(u *publish.Unit) {
	ch := u.Changes
	switch p.mode {
	case publish.Check:
		// The diff shows files a build would refuse to take over too.
		if ch != nil && (!ch.Empty() || len(ch.Problems) > 0) {
			fmt.Fprintf(p.stdout, "== %s\n", diag.OneLine(u.Dir))
			ch.UnifiedDiff(p.stdout)
		}
	case publish.DryRun:
		if ch != nil {
			ch.WriteList(p.stdout, diag.OneLine(u.Dir))
		}
	case publish.Write:
		if p.bar != nil && u.Kind == publish.Tenant {
			break // the status line counts it
		}
		if u.Status == publish.Built || (u.Kind != publish.Tenant && u.Status == publish.Unchanged) {
			r := u.Result
			// An adopted file was already there with the bytes discgen
			// writes (a clone without its state directory): the build
			// only recorded it, so it is counted apart from the added.
			adopted := ""
			if r.Adopted > 0 {
				adopted = fmt.Sprintf(", %d adopted", r.Adopted)
			}
			fmt.Fprintf(p.stdout, "%s: %d added, %d updated, %d removed, %d unchanged%s\n",
				diag.OneLine(u.Dir), r.Added, r.Updated, r.Removed, r.Unchanged, adopted)
		}
	}
}

func (p *unitPrinter) jsonUnit(u *publish.Unit) {
	p.json.Unit(u)
	if p.mode == publish.Check && u.Changes != nil && !u.Changes.Empty() {
		// The diff is a result too; in json it goes to stderr, so that
		// stdout stays one document.
		fmt.Fprintf(p.stderr, "== %s\n", u.Dir)
		u.Changes.UnifiedDiff(p.stderr)
	}
}

func (p *unitPrinter) end(sum publish.Summary) {
	if p.json != nil {
		p.json.End(sum)
		return
	}
	if p.bar != nil {
		p.bar.Finish()
	}
	if p.tenants && p.mode == publish.Write {
		t := p.counts
		fmt.Fprintf(p.stdout, "tenants: %s built, %s unchanged, %s refused, %s skipped\n",
			publish.Thousands(t[publish.Built]), publish.Thousands(t[publish.Unchanged]), publish.Thousands(t[publish.Refused]), publish.Thousands(t[publish.Skipped]))
	}
	if n := len(p.notOwner); n > 0 {
		slices.Sort(p.notOwner)
		whose := "their directories belong to other users"
		if n == 1 {
			whose = "its directory belongs to another user"
		}
		fmt.Fprintf(p.stderr, "discgen: error: %s refused: %s (%s), and a build not run as root (uid %d) writes only its own user's tenants; run the full build as root with --tenant-owner\n",
			plural(n, "tenant"), whose, listSome(p.notOwner, 3), os.Geteuid())
	}
	if n := len(p.notOpen); n > 0 {
		slices.Sort(p.notOpen)
		whose := "their directories (%s): they belong to other users"
		if n == 1 {
			whose = "its directory (%s): it belongs to another user"
		}
		fmt.Fprintf(p.stderr, "discgen: error: %s skipped: this user (uid %d) may not open "+whose+", and a build not run as root writes only its own user's tenants; run the full build as root with --tenant-owner\n",
			plural(n, "tenant"), os.Geteuid(), listSome(p.notOpen, 3))
	}
	// At scale the refused and skipped tenants scrolled away (or sat above
	// the status line): they are named again where the build ends.
	if p.bar != nil || p.counts[publish.Built]+p.counts[publish.Unchanged]+p.counts[publish.Refused]+p.counts[publish.Skipped] > listAgainAbove {
		for _, st := range []publish.Status{publish.Refused, publish.Skipped} {
			if names := p.failed[st]; len(names) > 0 {
				fmt.Fprintf(p.stderr, "discgen: error: %s %s: %s\n", plural(len(names), "tenant"), st, listSome(names, maxListed))
			}
		}
	}
	// A check that finds nothing to change says so.
	if p.format == "text" && p.mode == publish.Check && sum.SiteOK && !sum.Stale && !sum.Failed {
		fmt.Fprintf(p.stdout, "%s: up to date\n", diag.OneLine(p.out))
	}
}

// listAgainAbove is the number of tenants past which the refused and
// skipped ones are listed again at the end; maxListed bounds that list.
const listAgainAbove, maxListed = 50, 20

// plural writes "1 tenant" or "2 tenants", with commas.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return publish.Thousands(n) + " " + noun + "s"
}

// listSome joins the first max names, and says how many more there are.
func listSome(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %s more", publish.Thousands(len(names)-max))
}

// reportProblem prints why an output root cannot be written.
func reportProblem(stderr io.Writer, format string, err error) {
	var pe *output.ProblemError
	if !errors.As(err, &pe) {
		report(stderr, err)
		return
	}
	if format == "github" {
		publish.ProblemDiags(pe).WriteGitHub(stderr)
		return
	}
	for _, p := range pe.Problems {
		fmt.Fprintf(stderr, "discgen: error: %s\n", diag.OneLine(fmt.Sprint(p)))
	}
	for _, h := range append(publish.SiteGeneratorHints(pe), pe.Hints()...) {
		fmt.Fprintf(stderr, "discgen: hint: %s\n", h)
	}
}

// runProvision is build --provision: each tenant's state made and given
// to its owner (publish.Provision), one line a tenant; and --unprovision,
// each removed tenant's state removed (publish.Unprovision).
func (f *buildFlags) runProvision(opt publish.Options, stdout, stderr io.Writer) error {
	if len(f.tenants) == 0 || !f.tenantOwner || f.check || f.dryRun || f.shard != "" || f.shardIndex != "" || (f.provision && f.unprovision) {
		return usagef("build: --provision or --unprovision goes with --tenant FILE... and --tenant-owner alone")
	}
	provision := publish.Provision
	if f.unprovision {
		provision = publish.Unprovision
	}
	res, diags := provision(opt)
	diags.WriteText(stderr)
	if diags.HasErrors() {
		return errFailed
	}
	failed := false
	for _, r := range res {
		switch {
		case errors.Is(r.Err, publish.ErrNoDelegation):
			fmt.Fprintf(stderr, "%s: error: %v (%s)\n", r.File, r.Err, f.file)
		case r.Err != nil:
			fmt.Fprintf(stderr, "%s: error: %v\n", r.Dir, r.Err)
		case f.unprovision && r.Removed:
			fmt.Fprintf(stdout, "%s: state removed\n", r.Dir)
			continue
		case f.unprovision:
			fmt.Fprintf(stdout, "%s: no state to remove\n", r.Dir)
			continue
		default:
			fmt.Fprintf(stdout, "%s: state provisioned for uid %d\n", r.Dir, r.UID)
			continue
		}
		failed = true
	}
	if failed {
		return errFailed
	}
	return nil
}
