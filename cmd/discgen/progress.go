package main

import (
	"github.com/discgen/discgen/publish"
	"io"
	"os"

	"golang.org/x/term"
)

// Progress of a build with tenants, --progress:
//
//	lines  one line per tenant built, on stdout (what pipes and logs get)
//	bar    one status line on stderr, redrawn in place: counts by status,
//	       rate and time left; only tenants that need attention (refused,
//	       skipped) are printed, above it
//	auto   bar when stderr is a terminal and the format is text, else lines
//
// At a million tenants the lines form is a million lines; the bar is one.
const progressModes = "auto, bar or lines"

// progressValues are the --progress values, for completion.
var progressValues = []string{"auto", "bar", "lines"}

// wantBar decides --progress for a text build: bar or lines.
func wantBar(mode, format string, stderr io.Writer) (bool, error) {
	switch mode {
	case "lines":
		return false, nil
	case "bar":
		return format == "text", nil
	case "auto", "":
		f, ok := stderr.(*os.File)
		return format == "text" && ok && term.IsTerminal(int(f.Fd())), nil
	}
	return false, usagef("--progress %q: want %s", mode, progressModes)
}

// newProgressBar returns the status line drawn on stderr, as wide as the
// terminal.
func newProgressBar(w io.Writer) *publish.Progress {
	width := 0
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			width = cols
		}
	}
	return publish.NewProgress(w, width)
}
