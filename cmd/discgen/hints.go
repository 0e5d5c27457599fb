package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"

	"github.com/discgen/discgen/internal/editdist"
)

// closestCommand returns the command name s most likely misspells, or ""
// (editdist.Closest).
func closestCommand(s string) string {
	names := append([]string{"version", "help"}, commandNames()...)
	slices.Sort(names)
	return editdist.Closest(s, names)
}

func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	return names
}

// hintMissingManifest suggests discgen init when the manifest does not
// exist (the error itself is already reported as a diagnostic).
func hintMissingManifest(stderr io.Writer, file string) {
	if _, err := os.Stat(file); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	fmt.Fprintf(stderr, "discgen: hint: no manifest at %s: run 'discgen init' to write a starter one, or name yours with -f\n", file)
}
