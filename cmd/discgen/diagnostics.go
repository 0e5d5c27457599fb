package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/diag"
)

// printDiags writes diagnostics in the chosen format: text (the diag
// grammar), json (one document), or github (workflow commands, which
// GitHub Actions shows as annotations at file and line).
func printDiags(w io.Writer, format string, list diag.List) {
	switch format {
	case "json":
		out := struct {
			Valid       bool       `json:"valid"`
			Diagnostics []jsonDiag `json:"diagnostics"`
		}{Valid: !list.HasErrors(), Diagnostics: jsonDiags(list)}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(out)
	case "github":
		for _, d := range list {
			props := []string{"file=" + ghProp(d.File)}
			if d.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", d.Line), fmt.Sprintf("col=%d", d.Col))
			}
			props = append(props, "title=discgen")
			msg := d.Message
			if d.Path != "" {
				msg = d.Path + ": " + msg
			}
			if d.Code != "" {
				msg = d.Code + ": " + msg
			}
			fmt.Fprintf(w, "::%s %s::%s\n", d.Severity, strings.Join(props, ","), ghData(msg))
		}
	default:
		for _, d := range list {
			fmt.Fprintln(w, oneLine(d.String()))
		}
	}
}

// oneLine escapes what could break a line of text output or change how
// it displays: line breaks, control characters and bidirectional
// controls, which a tenant's directory name (or any name discgen shows)
// may hold. A plain line is returned as it is.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, escaped) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if !escaped(r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r) // '\n', '\x1b', '\u202e'
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

func escaped(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x2028 || r == 0x2029 ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == utf8.RuneError
}

// jsonDiag is a diagnostic in --format json.
type jsonDiag struct {
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Severity string `json:"severity"`
	Path     string `json:"path,omitempty"`
	Code     string `json:"code,omitempty"`
	Message  string `json:"message"`
}

// jsonDiags converts a list, never to nil: an empty list is [] in JSON.
func jsonDiags(list diag.List) []jsonDiag {
	out := []jsonDiag{}
	for _, d := range list {
		out = append(out, jsonDiag{d.File, d.Line, d.Col, d.Severity.String(), d.Path, d.Code, d.Message})
	}
	return out
}

// ghData and ghProp escape workflow command text as the runner expects.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func checkFormat(f string, allowed ...string) error {
	for _, a := range allowed {
		if f == a {
			return nil
		}
	}
	return usagef("--format %q: use %s", f, strings.Join(allowed, ", "))
}
