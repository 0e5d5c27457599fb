package main

import (
	"github.com/discgen/discgen/internal/cli"
	"github.com/spf13/pflag"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/gcpolicy"
	"github.com/discgen/discgen/publish"
)

func validateCommand(fs *pflag.FlagSet) runner {
	var file, env, format, nowFlag, out string
	fs.StringVarP(&file, "file", "f", "site.yaml", "the site manifest (default site.yaml)")
	fs.StringVar(&env, "env", "", "apply the manifest's environments.NAME")
	fs.StringVar(&format, "format", "text", "text (default), json, or github (workflow annotations: ::error file=...,line=...::...)")
	fs.StringVar(&nowFlag, "now", "", "as for build")
	fs.StringVarP(&out, "output", "o", "", "also check, in the output tree DIR, each sitemap robots.txt names (the built one, or DIR/robots.txt when the manifest builds none) that is on the site's host and in DIR: a sitemap, or an index listing no index, within the sitemaps.org limits (50,000 URLs, 50 MB uncompressed)")
	cli.SetArgs(fs, "file", "FILE", "env", "NAME", "format", "FORMAT", "now", "TIME", "output", "DIR")
	return func(e *call, fs *pflag.FlagSet) error {
		stdout, stderr := e.stdout, e.stderr
		if fs.NArg() > 0 {
			return usagef("validate: unexpected argument %q", fs.Arg(0))
		}
		if err := checkFormat(format, formats["validate"]...); err != nil {
			return err
		}
		now, err := parseNow(nowFlag)
		if err != nil {
			return err
		}
		// Every tenant is checked; only diagnostics are kept.
		var diags diag.List
		sum := publish.Run(publish.Options{Manifest: file, Env: env, Now: now, Mode: publish.Render, Limits: e.limits, FitProcs: true, Collector: gcpolicy.NewTenants()}, func(u *publish.Unit) {
			diags.Append(u.Diags)
		})
		if out != "" && !sum.Failed && !diags.HasErrors() {
			diags.Append(publish.CheckSitemaps(publish.Options{Manifest: file, Env: env, Now: now}, out))
		}
		diags.Sort()
		// json is a result, so it goes to stdout; the other formats are
		// messages.
		w := stderr
		if format == "json" {
			w = stdout
		}
		diags.Write(w, format)
		if sum.Failed || diags.HasErrors() {
			hintMissingManifest(stderr, file)
			return errFailed
		}
		return nil
	}
}
