package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/output"
)

// GitHub Actions annotations for what is not a manifest diagnostic: stale
// output found by build --check and the problems that stop a write. Each
// names the file on disk, so the annotation sits on that file: a stale
// file's on the first line that differs.

// printStaleGitHub writes one error annotation per file that build --check
// found stale under the root shown as show.
func printStaleGitHub(w io.Writer, show string, ch *output.Changes) {
	for _, c := range ch.List {
		var what string
		switch c.Kind {
		case output.Add:
			what = "missing: discgen build would write it"
		case output.Update:
			what = "stale: discgen build would rewrite it"
		case output.Remove:
			what = "stale: discgen no longer produces it and discgen build would remove it"
		default:
			continue
		}
		file := filepath.Join(show, filepath.FromSlash(c.Path))
		line, after := c.FirstLine()
		switch {
		case line > 0 && after:
			what = fmt.Sprintf("stale after line %d: discgen build would rewrite it", line)
		case line > 0:
			what = fmt.Sprintf("stale from line %d: discgen build would rewrite it", line)
		}
		diag.Annotate(w, "error", file, line, 1, what+"; run discgen build and commit the result")
	}
}

// printProblemsGitHub writes one error annotation per problem, its hint
// (and the site generator's, for robots.txt) on a second line.
func printProblemsGitHub(w io.Writer, pe *output.ProblemError) {
	extra := siteGeneratorHints(pe)
	for _, p := range pe.Problems {
		msg := p.Message
		if p.Path == "robots.txt" {
			for _, h := range extra {
				msg += "\nhint: " + h
			}
		}
		if p.Hint != "" {
			msg += "\nhint: " + p.Hint
		}
		diag.Annotate(w, "error", p.File, 0, 0, msg)
	}
}
