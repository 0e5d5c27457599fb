package main

import (
	"io"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/robots"
)

// maxLintFile bounds what lint reads: well past the 500 KiB a crawler
// parses, so that an oversized file is reported rather than refused.
const maxLintFile = 32 << 20

func runLint(args []string, stdout, stderr io.Writer) error {
	var format string
	fs := newFlags("lint", lintUsage, stdout)
	fs.StringVar(&format, "format", "text", "")
	if err := parseFlags(fs, args); err != nil {
		return helpOK(err)
	}
	if fs.NArg() == 0 {
		return usagef("lint: give at least one file")
	}
	if err := checkFormat(format, "text", "json", "github"); err != nil {
		return err
	}
	var list diag.List
	for _, name := range fs.Args() {
		data, err := limited.ReadFile(name, maxLintFile)
		if err != nil {
			list.Errorf(diag.Pos{File: name}, "", "cannot read: %v", err)
			continue
		}
		for _, f := range robots.Lint(data) {
			d := diag.Diagnostic{Pos: diag.Pos{File: name}, Severity: f.Severity, Code: f.Code, Message: f.Message}
			if f.Line > 0 {
				d.Line, d.Col = f.Line, 1
			}
			list.Add(d)
		}
	}
	list.Sort()
	w := stderr
	if format == "json" {
		w = stdout
	}
	printDiags(w, format, list)
	if list.HasErrors() {
		return errFailed
	}
	return nil
}
