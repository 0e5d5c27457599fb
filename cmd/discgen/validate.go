package main

import (
	"io"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/publish"
)

func runValidate(args []string, stdout, stderr io.Writer) error {
	var file, env, format, nowFlag string
	fs := newFlags("validate", validateUsage, stdout)
	fs.StringVarP(&file, "file", "f", "site.yaml", "")
	fs.StringVar(&env, "env", "", "")
	fs.StringVar(&format, "format", "text", "")
	fs.StringVar(&nowFlag, "now", "", "")
	if err := parseFlags(fs, args); err != nil {
		return helpOK(err)
	}
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
	sum := publish.Run(publish.Options{Manifest: file, Env: env, Now: now, Mode: publish.Render, Limits: hostLimits}, func(u *publish.Unit) {
		diags.Append(u.Diags)
	})
	diags.Sort()
	// json is a result, so it goes to stdout; the other formats are
	// messages.
	w := stderr
	if format == "json" {
		w = stdout
	}
	printDiags(w, format, diags)
	if sum.Failed || diags.HasErrors() {
		hintMissingManifest(stderr, file)
		return errFailed
	}
	return nil
}
