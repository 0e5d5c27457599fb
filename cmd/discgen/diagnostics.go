package main

import (
	"io"
	"strings"

	"github.com/discgen/discgen/diag"
)

// printDiags writes diagnostics in the chosen format: text (the diag
// grammar), json (one document), or github (workflow commands, which
// GitHub Actions shows as annotations at file and line).
func printDiags(w io.Writer, format string, list diag.List) {
	switch format {
	case "json":
		list.WriteJSON(w)
	case "github":
		list.WriteGitHub(w)
	default:
		list.WriteText(w)
	}
}

func checkFormat(f string, allowed ...string) error {
	for _, a := range allowed {
		if f == a {
			return nil
		}
	}
	return usagef("--format %q: use %s", f, strings.Join(allowed, ", "))
}
