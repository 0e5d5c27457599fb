package main

import (
	"cmp"
	"context"
	"fmt"
	"github.com/discgen/discgen/internal/cli"
	"github.com/spf13/pflag"
	"strings"
	"time"

	"github.com/discgen/discgen/internal/connectto"
	"github.com/discgen/discgen/sitebuild"
	"github.com/discgen/discgen/verify"
)

func verifyCommand(fs *pflag.FlagSet) runner {
	var file, env, now, format string
	var tenants bool
	var jobs int
	var timeout time.Duration
	var redirects, connectTo, resolve []string
	fs.StringVarP(&file, "file", "f", "site.yaml", "the site manifest (default site.yaml)")
	fs.StringVar(&env, "env", "", "apply the manifest's environments.NAME")
	fs.BoolVar(&tenants, "tenants", false, "check the tenants' autodisc files too")
	fs.StringVar(&now, "now", "", "as for build; also the time security.txt must not have expired by")
	fs.StringVar(&format, "format", "text", "text (default), json, or github (annotations)")
	fs.DurationVar(&timeout, "timeout", 15*time.Second, "per file (default 15s)")
	fs.IntVar(&jobs, "jobs", 4, "fetches at once (default 4)")
	fs.StringArrayVar(&redirects, "allow-redirect", nil, "follow redirects to ORIGIN too (scheme://host[:port], repeatable), such as the www. origin of an apex site")
	fs.StringArrayVar(&connectTo, "connect-to", nil, "connect to HOST2:PORT2 for requests to HOST1:PORT1, keeping the URL's host name (as curl's; repeatable)")
	fs.StringArrayVar(&resolve, "resolve", nil, "connect to ADDRESS for requests to HOST:PORT (as curl's; repeatable)")
	cli.SetArgs(fs, "file", "FILE", "env", "NAME", "now", "TIME", "format", "FORMAT", "timeout", "D", "jobs", "N", "allow-redirect", "ORIGIN",
		"connect-to", "HOST1:PORT1:HOST2:PORT2", "resolve", "HOST:PORT:ADDRESS")
	return func(e *call, fs *pflag.FlagSet) error {
		stdout, stderr := e.stdout, e.stderr
		if fs.NArg() > 1 {
			return usagef("verify: give at most one URL")
		}
		if err := checkFormat(format, formats["verify"]...); err != nil {
			return err
		}
		if jobs < 1 || jobs > 32 {
			return usagef("verify: --jobs %d: use 1 to 32", jobs)
		}
		for _, o := range redirects {
			if !verify.IsOrigin(o) {
				return usagef("verify: --allow-redirect %q is not an origin such as https://www.example.org/", o)
			}
		}
		rules, err := connectto.Rules(connectTo, resolve)
		if err != nil {
			return usagef("verify: %v", err)
		}
		t, err := parseNow(now)
		if err != nil {
			return err
		}
		site, diags := sitebuild.Build(sitebuild.Options{Manifest: file, Env: env, Now: t, Tenants: tenants, FitProcs: true})
		diags.Errors().WriteText(stderr)
		if site == nil {
			return errFailed
		}
		opt := verify.Options{Now: t, Timeout: timeout, Parallel: jobs, RedirectOrigins: redirects, Client: connectto.Client(nil, rules)}
		if fs.NArg() == 1 {
			if !verify.IsOrigin(fs.Arg(0)) {
				return usagef("verify: %q is not an origin such as https://staging.example.org/", fs.Arg(0))
			}
			opt.Origin, opt.Staging = fs.Arg(0), true
		}
		rs, err := site.Verify(context.Background(), opt)
		if err != nil {
			return err
		}
		verify.Write(stdout, format, rs)
		for _, r := range rs {
			if !r.OK() {
				fmt.Fprintf(stderr, "discgen: error: %s: %s\n", r.URL, strings.Join(r.Problems, "; "))
			}
		}
		if n := verify.Failed(rs); n > 0 {
			fmt.Fprintf(stderr, "discgen: error: %d of %d files served from %s differ from the build or fail a check\n", n, len(rs), cmp.Or(opt.Origin, site.Doc.Value.Site.URL))
			return errFailed
		}
		return nil
	}
}
