package main

import (
	"io"

	"github.com/discgen/discgen/build"
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
	if err := checkFormat(format, "text", "json", "github"); err != nil {
		return err
	}
	now, err := parseNow(nowFlag)
	if err != nil {
		return err
	}
	res := build.Run(build.Options{Manifest: file, Env: env, Now: now})
	// json is a result, so it goes to stdout; the other formats are
	// messages.
	w := stderr
	if format == "json" {
		w = stdout
	}
	printDiags(w, format, res.Diags)
	if res.Diags.HasErrors() {
		hintMissingManifest(stderr, file)
		return errFailed
	}
	return nil
}
