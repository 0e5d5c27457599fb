package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/discgen/discgen/autodisc"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/limited"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/wellknown"
)

// maxLintFile bounds what lint reads: well past the 500 KiB a crawler
// parses, so that an oversized file is reported rather than refused.
const maxLintFile = 32 << 20

// maxKeyFile bounds the public key file of lint --key.
const maxKeyFile = 1 << 20

func isSecurityTxt(name string) bool { return filepath.Base(name) == "security.txt" }

func runLint(args []string, stdout, stderr io.Writer) error {
	var format, nowFlag, keyFile string
	fs := newFlags("lint", lintUsage, stdout)
	fs.StringVar(&format, "format", "text", "")
	fs.StringVar(&nowFlag, "now", "", "")
	fs.StringVar(&keyFile, "key", "", "")
	if err := parseFlags(fs, args); err != nil {
		return helpOK(err)
	}
	if fs.NArg() == 0 {
		return usagef("lint: give at least one file")
	}
	if err := checkFormat(format, "text", "json", "github"); err != nil {
		return err
	}
	now, err := parseNow(nowFlag)
	if err != nil {
		return err
	}
	var pubKey []byte
	if keyFile != "" {
		if !slices.ContainsFunc(fs.Args(), isSecurityTxt) {
			return usagef("lint: --key verifies security.txt files; none was given")
		}
		if pubKey, err = limited.ReadFile(keyFile, maxKeyFile); err != nil {
			return fmt.Errorf("--key %s: cannot read: %v", keyFile, err)
		}
	}
	var list diag.List
	for _, name := range fs.Args() {
		data, err := limited.ReadFile(name, maxLintFile)
		if err != nil {
			list.Errorf(diag.Pos{File: name}, "", "cannot read: %v", err)
			continue
		}
		for _, d := range lintFile(name, data, now, pubKey) {
			d.File = name
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

// lintFile picks the checks by the file's name: security.txt (RFC 9116),
// the autodisc files of seed 000, and robots.txt for any other name.
func lintFile(name string, data []byte, now time.Time, pubKey []byte) []diag.Diagnostic {
	switch base := filepath.Base(name); base {
	case "security.txt":
		return wellknown.LintSecurityTxtKey(data, now, pubKey)
	case "index.txt", "subdirectories.txt", "icons.txt", "description.txt", "feeds.txt":
		return autodisc.Lint(base, data)
	}
	var out []diag.Diagnostic
	for _, f := range robots.Lint(data) {
		d := diag.Diagnostic{Severity: f.Severity, Code: f.Code, Message: f.Message}
		if f.Line > 0 {
			d.Line, d.Col = f.Line, 1
		}
		out = append(out, d)
	}
	return out
}
