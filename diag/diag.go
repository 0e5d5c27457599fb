// Package diag holds positioned diagnostics: the errors and warnings that
// discgen reports about a manifest or a checked file.
//
// Every diagnostic prints in one grammar, shared by all commands:
//
//	FILE:LINE:COL: PATH: MESSAGE            an error
//	FILE:LINE:COL: warning: PATH: MESSAGE   a warning
//
// A diagnostic with a stable code (lint findings) shows it before the path:
// robots.txt:3:1: warning: R001: unknown directive.
//
// PATH is the manifest path of the offending value (agents[2].names[0]) and is
// left out when a diagnostic concerns a whole file. LINE and COL are 1-based;
// a zero line means the position is unknown and LINE:COL is left out.
package diag

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Severity says whether a diagnostic fails the command.
type Severity int

const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Pos is a position in an input file.
type Pos struct {
	File string
	Line int // 1-based; 0 means unknown
	Col  int // 1-based
}

func (p Pos) String() string {
	switch {
	case p.File == "" && p.Line == 0:
		return ""
	case p.Line == 0:
		return p.File
	default:
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
}

// At returns the position in file of byte offset off of data, its
// contents: the line counted by "\n", the column in characters (an invalid
// byte counts as one). An offset past the end is the end.
func At(file string, data []byte, off int) Pos {
	off = min(max(off, 0), len(data))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return Pos{File: file, Line: 1 + bytes.Count(data[:off], []byte("\n")), Col: 1 + utf8.RuneCount(data[start:off])}
}

// Diagnostic is one finding.
type Diagnostic struct {
	Pos
	Severity Severity
	Path     string // manifest path, such as agents[2].names[0]; may be empty
	Code     string // stable identifier for machine consumers; may be empty
	Message  string
}

func (d Diagnostic) String() string {
	var b strings.Builder
	if s := d.Pos.String(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	if d.Severity == Warning {
		b.WriteString("warning: ")
	}
	if d.Code != "" {
		b.WriteString(d.Code)
		b.WriteString(": ")
	}
	if d.Path != "" {
		b.WriteString(d.Path)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// List is an ordered collection of diagnostics. The zero value is ready to use.
type List []Diagnostic

// Add appends a diagnostic.
func (l *List) Add(d Diagnostic) { *l = append(*l, d) }

// Errorf appends an error at pos.
func (l *List) Errorf(pos Pos, path, format string, args ...any) {
	l.Add(Diagnostic{Pos: pos, Severity: Error, Path: path, Message: fmt.Sprintf(format, args...)})
}

// Warnf appends a warning at pos.
func (l *List) Warnf(pos Pos, path, format string, args ...any) {
	l.Add(Diagnostic{Pos: pos, Severity: Warning, Path: path, Message: fmt.Sprintf(format, args...)})
}

// Linef appends a diagnostic with a code at a line of the file being
// checked (column 1), or about the whole file when line is 0. Lints of a
// file read by line report this way; the caller sets the file's name.
func (l *List) Linef(sev Severity, line int, code, format string, args ...any) {
	d := Diagnostic{Severity: sev, Code: code, Message: fmt.Sprintf(format, args...)}
	if line > 0 {
		d.Line, d.Col = line, 1
	}
	l.Add(d)
}

// Append appends all of other.
func (l *List) Append(other List) { *l = append(*l, other...) }

// Sort orders the list by file, line, column, then severity (errors first),
// path and message, and drops exact duplicates.
func (l *List) Sort() {
	slices.SortStableFunc(*l, compare)
	*l = slices.CompactFunc(*l, func(a, b Diagnostic) bool { return a == b })
}

func compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Col, b.Col),
		cmp.Compare(a.Severity, b.Severity),
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.Message, b.Message),
	)
}

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Severity == Error })
}

// Errors returns only the errors.
func (l List) Errors() List {
	return slices.DeleteFunc(slices.Clone(l), func(d Diagnostic) bool { return d.Severity != Error })
}

// Warnings returns only the warnings.
func (l List) Warnings() List {
	return slices.DeleteFunc(slices.Clone(l), func(d Diagnostic) bool { return d.Severity != Warning })
}
