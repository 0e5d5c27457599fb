package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/discgen/discgen/build"
	"github.com/discgen/discgen/output"
	"github.com/spf13/pflag"
)

type buildFlags struct {
	file, out, env, now, state, format string
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

	res := build.Run(build.Options{Manifest: f.file, Env: f.env, Now: now, RobotsSymlink: f.link, Jobs: f.jobs})
	printDiags(stderr, f.format, res.Diags)
	if res.Site == nil {
		return failed
	}
	outs := []*build.Output{res.Site}
	outs = append(outs, res.Tenants...)
	bad := res.FailedTenants > 0
	stale := false
	for _, o := range outs {
		root, within, show := o.Root, o.Within, filepath.Dir(o.Manifest)
		if root == "" {
			root, show = f.out, f.out
		}
		opt := output.Options{StateDir: f.state, Replace: f.replace, Within: within}
		ch, err := output.Plan(root, o.Tree, opt)
		if err != nil {
			reportProblem(stderr, err)
			bad = true
			continue
		}
		switch {
		case f.check:
			if !ch.Empty() {
				stale = true
				ch.UnifiedDiff(stdout)
			}
			if err := ch.Err(); err != nil {
				reportProblem(stderr, err)
				bad = true
			}
		case f.dryRun:
			for _, c := range ch.List {
				if c.Kind != output.Unchanged {
					fmt.Fprintf(stdout, "%s %s\n", c.Kind, filepath.Join(show, filepath.FromSlash(c.Path)))
				}
			}
			if err := ch.Err(); err != nil {
				reportProblem(stderr, err)
				bad = true
			}
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
		return failed
	}
	return nil
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
