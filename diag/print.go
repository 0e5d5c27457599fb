package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The three renderings of a list, as the command line prints them with
// --format text, json and github.

// Write writes the list in format: "json" (one document), "github"
// (workflow commands, which GitHub Actions shows as annotations at file
// and line) or "text" (the diagnostic grammar, for anything else).
func (l List) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		return l.WriteJSON(w)
	case "github":
		return l.WriteGitHub(w)
	}
	return l.WriteText(w)
}

// WriteText writes one line per diagnostic, in the grammar of String,
// each made one line by OneLine.
func (l List) WriteText(w io.Writer) error {
	for _, d := range l {
		if _, err := fmt.Fprintln(w, OneLine(d.String())); err != nil {
			return err
		}
	}
	return nil
}

// JSON is a diagnostic as --format json writes it.
type JSON struct {
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Severity string `json:"severity"`
	Path     string `json:"path,omitempty"`
	Code     string `json:"code,omitempty"`
	Message  string `json:"message"`
}

// JSON converts the list, never to nil: an empty list is [] in JSON.
func (l List) JSON() []JSON {
	out := []JSON{}
	for _, d := range l {
		out = append(out, JSON{d.File, d.Line, d.Col, d.Severity.String(), d.Path, d.Code, d.Message})
	}
	return out
}

// WriteJSON writes the list as one indented JSON document:
// {"valid": no error in it, "diagnostics": [...]}.
func (l List) WriteJSON(w io.Writer) error {
	out := struct {
		Valid       bool   `json:"valid"`
		Diagnostics []JSON `json:"diagnostics"`
	}{Valid: !l.HasErrors(), Diagnostics: l.JSON()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteGitHub writes each diagnostic as a GitHub Actions workflow
// command, which the runner shows as an annotation at its file and line.
func (l List) WriteGitHub(w io.Writer) error {
	for _, d := range l {
		msg := d.Message
		if d.Path != "" {
			msg = d.Path + ": " + msg
		}
		if d.Code != "" {
			msg = d.Code + ": " + msg
		}
		if err := Annotate(w, d.Severity.String(), d.File, d.Line, d.Col, msg); err != nil {
			return err
		}
	}
	return nil
}

// Annotate writes one GitHub Actions workflow command of the level
// ("error", "warning", "notice") on file, at line and col when line is
// positive, escaped as the runner reads it.
func Annotate(w io.Writer, level, file string, line, col int, msg string) error {
	props := "file=" + ghProp(file)
	if line > 0 {
		props += fmt.Sprintf(",line=%d,col=%d", line, col)
	}
	_, err := fmt.Fprintf(w, "::%s %s,title=discgen::%s\n", level, props, ghData(msg))
	return err
}

// ghData and ghProp escape workflow command text as the runner expects.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// OneLine escapes what could break a line of text output or change how
// it displays: line breaks, control characters and bidirectional
// controls, which a tenant's directory name (or any name discgen shows)
// may hold. A plain line is returned as it is.
func OneLine(s string) string {
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
