package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/discgen/discgen/build"
	"github.com/discgen/discgen/output"
	"github.com/discgen/discgen/serverconf"
	"github.com/spf13/pflag"
)

type buildFlags struct {
	file, out, env, now, state, format string
	server, serverDir                  string
	check, dryRun, replace, link       bool
	jobs                               int
}

func runBuild(args []string, stdout, stderr io.Writer) error {
	var f buildFlags
	fs := f.flagSet(stdout)
	if err := parseFlags(fs, args); err != nil {
		return helpOK(err)
	}
	return f.run(fs, stdout, stderr)
}

func (f *buildFlags) flagSet(stdout io.Writer) *pflag.FlagSet {
	fs := newFlags("build", buildUsage, stdout)
	fs.StringVarP(&f.file, "file", "f", "site.yaml", "")
	fs.StringVarP(&f.out, "output", "o", "public", "")
	fs.StringVar(&f.env, "env", "", "")
	fs.BoolVar(&f.check, "check", false, "")
	fs.BoolVar(&f.dryRun, "dry-run", false, "")
	fs.StringVar(&f.now, "now", "", "")
	fs.StringVar(&f.state, "state", "", "")
	fs.BoolVar(&f.replace, "replace", false, "")
	fs.BoolVar(&f.link, "robots-symlink", false, "")
	fs.IntVar(&f.jobs, "jobs", 0, "")
	fs.StringVar(&f.format, "format", "text", "")
	fs.StringVar(&f.server, "server", "", "")
	fs.StringVar(&f.serverDir, "server-dir", "", "")
	return fs
}

func (f *buildFlags) run(fs *pflag.FlagSet, stdout, stderr io.Writer) error {
	if fs.NArg() > 0 {
		return usagef("build: unexpected argument %q", fs.Arg(0))
	}
	if f.check && f.dryRun {
		return usagef("build: --check and --dry-run do not go together")
	}
	if err := checkFormat(f.format, "text", "json", "github"); err != nil {
		return err
	}
	now, err := parseNow(f.now)
	if err != nil {
		return err
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
	if len(kinds) > 0 && inside(f.serverDir, f.out) {
		return usagef("--server-dir %s is inside the output directory %s; server configuration never goes into the published tree", f.serverDir, f.out)
	}

	res := build.Run(build.Options{Manifest: f.file, Env: f.env, Now: now, RobotsSymlink: f.link, Jobs: f.jobs})
	printDiags(stderr, f.format, res.Diags)
	if res.Site == nil {
		return errFailed
	}
	outs := []*build.Output{res.Site}
	if len(kinds) > 0 {
		sep, err := withServerConfig(res.Site, kinds, f.serverDir)
		if err != nil {
			return err
		}
		if sep != nil {
			outs = append(outs, sep)
		}
	}
	outs = append(outs, res.Tenants...)
	// Errors outside any tenant (an unreadable tenants glob) fail the
	// build too, after every valid output is written.
	bad := res.FailedTenants > 0 || res.Diags.HasErrors()
	stale := false
	for _, o := range outs {
		root, show := f.label(o)
		opt := output.Options{StateDir: f.state, Replace: f.replace, Within: o.Within}
		ch, err := output.Plan(root, o.Tree, opt)
		if err != nil {
			reportProblem(stderr, err)
			bad = true
			continue
		}
		switch {
		case f.check:
			// The diff shows files a build would refuse to take over too.
			if !ch.Empty() || len(ch.Problems) > 0 {
				stale = stale || !ch.Empty()
				if len(outs) > 1 {
					// Diff paths are relative to each root: say which.
					fmt.Fprintf(stdout, "== %s\n", show)
				}
				ch.UnifiedDiff(stdout)
			}
			if err := ch.Err(); err != nil {
				reportProblem(stderr, err)
				bad = true
			}
			ch.Close()
		case f.dryRun:
			ch.WriteList(stdout, show)
			if err := ch.Err(); err != nil {
				reportProblem(stderr, err)
				bad = true
			}
			ch.Close()
		default:
			r, err := ch.Apply()
			if err != nil {
				reportProblem(stderr, err)
				bad = true
				continue
			}
			fmt.Fprintf(stdout, "%s: %d added, %d updated, %d removed, %d unchanged\n",
				show, r.Added+r.Adopted, r.Updated, r.Removed, r.Unchanged)
		}
	}
	switch {
	case stale:
		return &hintError{errors.New("output is stale"), []string{"run 'discgen build' without --check and commit the result"}}
	case bad:
		return errFailed
	}
	return nil
}

// withServerConfig adds the in-tree server files (_headers, .htaccess) to
// the site's tree and returns the separate snippets (nginx, Caddy) as an
// output of their own, or nil when none were asked for.
func withServerConfig(site *build.Output, kinds []serverconf.Kind, dir string) (*build.Output, error) {
	public, separate, err := serverconf.Render(site.Tree, kinds)
	if err != nil {
		return nil, fmt.Errorf("--server: %v", err)
	}
	for p, e := range public {
		site.Tree[p] = e
	}
	if len(separate) == 0 {
		return nil, nil
	}
	return &build.Output{Root: dir, Tree: separate}, nil
}

// label returns the directory an output is written to and how messages
// name it: the -o directory for the site, a tenant's directory as its
// manifest path was found, the --server-dir for server snippets.
func (f *buildFlags) label(o *build.Output) (root, show string) {
	switch {
	case o.Root == "":
		return f.out, f.out
	case o.Manifest != "":
		return o.Root, filepath.Dir(o.Manifest)
	}
	return o.Root, o.Root
}

// inside reports whether dir is out or below it.
func inside(dir, out string) bool {
	d, err1 := filepath.Abs(dir)
	o, err2 := filepath.Abs(out)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(o, d)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// helpOK turns the -h signal into success.
func helpOK(err error) error {
	if errors.Is(err, errHelp) {
		return nil
	}
	return err
}

// reportProblem prints why an output root cannot be written.
func reportProblem(stderr io.Writer, err error) {
	var pe *output.ProblemError
	if !errors.As(err, &pe) {
		report(stderr, err)
		return
	}
	for _, p := range pe.Problems {
		fmt.Fprintf(stderr, "discgen: error: %s\n", p)
	}
	for _, h := range pe.Hints() {
		fmt.Fprintf(stderr, "discgen: hint: %s\n", h)
	}
}
