package main

import (
	"errors"
	"fmt"
	"github.com/discgen/discgen/internal/cli"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/discgen/discgen/internal/gcpolicy"
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
	p := &publish.Printer{Format: f.format, Mode: mode, Out: f.out, Named: len(f.tenants) > 0, Stdout: stdout, Stderr: stderr}
	if bar {
		p.Bar = newProgressBar(stderr)
		opt.Found = p.Bar.Found
	}
	p.Begin()
	sum := publish.Run(opt, p.Unit)
	p.End(sum)
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
