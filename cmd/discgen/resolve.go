package main

import (
	"errors"
	"fmt"
	"github.com/discgen/discgen/internal/cli"
	"github.com/discgen/discgen/internal/confined"
	"github.com/spf13/pflag"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/discgen/discgen/autodisc"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/publish"
)

// runResolve reads the autodisc tree built into -o as a consumer would and
// prints the chain of authorities for a URL path, then each file's source.
//
// Text output, root first:
//
//	authority / (public/autodisc)
//	authority /~alice/ (public/~alice/autodisc)
//	description.txt  /~alice/
//	robots.txt  /  (excepted by /)
//	icons.txt  undefined (not delegated: only-list of /~alice/)
//
// Warnings about the files read go to stderr in the diagnostic grammar; with
// --format json they are part of the document instead.
func resolveCommand(fset *pflag.FlagSet) runner {
	var dir, format, file string
	fset.StringVarP(&dir, "output", "o", "public", "the built tree (default public)")
	fset.StringVarP(&file, "file", "f", "", "the site manifest: each tenant space is read from the directory its tenants glob finds, as the server serves it, not from the built tree")
	fset.StringVar(&format, "format", "text", "text (default) or json")
	cli.SetArgs(fset, "output", "DIR", "format", "FORMAT", "file", "FILE")
	return func(e *call, fset *pflag.FlagSet) error {
		stdout, stderr := e.stdout, e.stderr
		if err := checkFormat(format, formats["resolve"]...); err != nil {
			return err
		}
		if fset.NArg() != 1 {
			return usagef("resolve: give one URL path, such as /~alice/blog/post.html")
		}
		p, err := autodisc.URLPath(fset.Arg(0))
		if err != nil {
			return usagef("resolve: %v", err)
		}

		root, err := os.OpenRoot(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return noAutodisc(dir)
			}
			return fmt.Errorf("%s: %v", dir, confined.UnwrapPath(err))
		}
		defer root.Close()
		// os.Root keeps every read inside dir: a link in the tree cannot lead
		// the reader elsewhere (seed 000 section 6).
		fsys := limited.RootFS(root)
		at := func(rel string) string {
			if rel == "" {
				return ""
			}
			return filepath.Join(dir, filepath.FromSlash(rel))
		}
		if file != "" {
			now, err := parseNow("")
			if err != nil {
				return err
			}
			served, diags := publish.LoadServed(publish.Options{Manifest: file, Now: now}, dir, fsys)
			diags.WriteText(stderr)
			if served == nil {
				return errFailed
			}
			defer served.Close()
			fsys, at = served, served.Path
		}
		res, err := autodisc.Resolve(fsys, p)
		if errors.Is(err, autodisc.ErrNoAutodisc) {
			return noAutodisc(dir)
		}
		if err != nil {
			return err
		}

		if format == "json" {
			return res.WriteJSON(stdout, at)
		}
		if err := res.WriteText(stdout, at); err != nil {
			return err
		}
		for _, w := range res.Warnings {
			w.File = at(w.File)
			fmt.Fprintln(stderr, w.String())
		}
		return nil
	}
}

func noAutodisc(dir string) error {
	return &hintError{
		err:   fmt.Errorf("%s: no autodisc directory", filepath.Join(dir, "autodisc")),
		hints: []string{fmt.Sprintf("build the tree first: discgen build -o %s", dir), "or give the built tree with -o DIR"},
	}
}
