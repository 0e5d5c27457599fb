package main

import (
	"context"
	"fmt"
	"github.com/discgen/discgen/internal/cli"
	"github.com/discgen/discgen/internal/confined"
	"github.com/spf13/pflag"
	"os"
	"strings"

	"github.com/discgen/discgen/adopt"
	"github.com/discgen/discgen/internal/atomicfile"
	"github.com/discgen/discgen/internal/connectto"
)

func importCommand(fs *pflag.FlagSet) runner {
	var out, siteURL, now string
	var site, force bool
	var connectTo, resolve []string
	fs.StringVarP(&out, "output", "o", "-", "where to write the manifest (default: stdout)")
	fs.BoolVar(&force, "force", false, "replace an existing -o file")
	fs.BoolVar(&site, "site", false, "with a URL: fetch every discovery file, not only robots.txt")
	fs.StringVar(&siteURL, "site-url", "", "the manifest's site.url (default: the URL's origin, or the origin the files name)")
	fs.StringVar(&now, "now", "", "validate security.txt's Expires at TIME")
	fs.StringArrayVar(&connectTo, "connect-to", nil, "with a URL: connect to HOST2:PORT2 for requests to HOST1:PORT1, keeping the URL's host name (as curl's; repeatable)")
	fs.StringArrayVar(&resolve, "resolve", nil, "with a URL: connect to ADDRESS for requests to HOST:PORT (as curl's; repeatable)")
	cli.SetArgs(fs, "output", "FILE", "site-url", "URL", "now", "TIME", "connect-to", "HOST1:PORT1:HOST2:PORT2", "resolve", "HOST:PORT:ADDRESS")
	return func(e *call, fs *pflag.FlagSet) error {
		stdout, stderr := e.stdout, e.stderr
		if fs.NArg() != 1 {
			return usagef("import: give one robots.txt file, built directory or URL")
		}
		rules, err := connectto.Rules(connectTo, resolve)
		if err != nil {
			return usagef("import: %v", err)
		}
		t, err := parseNow(now)
		if err != nil {
			return err
		}
		if out != "-" && !force {
			if _, err := os.Lstat(out); err == nil {
				return &hintError{fmt.Errorf("%s exists", out), []string{"give another -o, or --force to replace it"}}
			}
		}
		in := fs.Arg(0)
		opt := adopt.Options{SiteURL: siteURL, Now: t, Name: out}
		if out == "-" {
			opt.Name = "<stdout>"
		}
		var res *adopt.Result
		switch fi, statErr := os.Stat(in); {
		case strings.HasPrefix(in, "http://") || strings.HasPrefix(in, "https://"):
			res, err = adopt.Fetch(context.Background(), in, adopt.FetchOptions{Site: site, Client: connectto.Client(nil, rules)}, opt)
		case statErr != nil:
			return fmt.Errorf("cannot read %s: %v", in, confined.UnwrapPath(statErr))
		case fi.IsDir():
			res, err = adopt.Dir(in, opt)
		default:
			var data []byte
			if err := e.roomToRead(in, adopt.MaxFile, "import of "+in); err != nil {
				return err
			}
			if data, err = adopt.ReadFile(in); err != nil {
				return fmt.Errorf("cannot read %s: %v", in, err)
			}
			if err := e.roomFor(adopt.Cost(data), "import of "+in); err != nil {
				return err
			}
			res, err = adopt.Robots(in, data, opt)
		}
		if err != nil {
			return err
		}
		res.Diags.WriteText(stderr)
		if out == "-" {
			stdout.Write(res.YAML)
		} else if err := atomicfile.Write(out, res.YAML); err != nil {
			return err
		}
		if res.Diags.HasErrors() {
			return &hintError{fmt.Errorf("the imported manifest does not validate"), []string{"fix the errors above in the manifest, then run discgen validate"}}
		}
		return nil
	}
}
