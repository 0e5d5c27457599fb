package main

import (
	"github.com/discgen/discgen/internal/cli"
	htmlreport "github.com/discgen/discgen/report"
	"github.com/spf13/pflag"

	"github.com/discgen/discgen/internal/atomicfile"
	"github.com/discgen/discgen/sitebuild"
)

func reportCommand(fs *pflag.FlagSet) runner {
	var file, out, env, now string
	var urls []string
	fs.StringVarP(&file, "file", "f", "site.yaml", "the site manifest (default site.yaml)")
	fs.StringVarP(&out, "output", "o", "", "where to write the page (- for stdout)")
	fs.StringVar(&env, "env", "", "apply the manifest's environments.NAME")
	fs.StringVar(&now, "now", "", "as for build")
	fs.StringArrayVar(&urls, "url", nil, "also ask about URL (a path or a URL on the site); repeat for several")
	cli.SetArgs(fs, "file", "FILE", "output", "FILE", "env", "NAME", "now", "TIME", "url", "URL")
	return func(e *call, fs *pflag.FlagSet) error {
		stdout, stderr := e.stdout, e.stderr
		switch {
		case fs.NArg() > 0:
			return usagef("report: unexpected argument %q", fs.Arg(0))
		case out == "":
			return usagef("report: give -o report.html (- for stdout)")
		}
		t, err := parseNow(now)
		if err != nil {
			return err
		}
		site, diags := sitebuild.Build(sitebuild.Options{Manifest: file, Env: env, Now: t, Tenants: true, FitProcs: true})
		diags.Errors().WriteText(stderr)
		if site == nil {
			return errFailed
		}
		page, err := htmlreport.Site(site, file, diags, urls, "built as of "+t.Format("2006-01-02 15:04 UTC"))
		if err != nil {
			return err
		}
		if out == "-" {
			_, err := stdout.Write(page)
			return err
		}
		return atomicfile.Write(out, page)
	}
}
