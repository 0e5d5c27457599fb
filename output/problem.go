package output

import (
	"cmp"
	"slices"
	"strings"
)

// ProblemKind classifies a Problem so callers can choose a hint or an exit
// status.
type ProblemKind int

const (
	// Symlink: a symlink discgen did not create sits on an output path.
	Symlink ProblemKind = iota + 1
	// Foreign: a file discgen did not write is where an output goes, with
	// different content.
	Foreign
	// Modified: a file discgen wrote was changed by someone else since.
	Modified
	// NotDirectory: something other than a directory is where an output
	// needs a directory.
	NotDirectory
	// NotRegular: a directory, pipe, device or socket is where an output
	// file goes.
	NotRegular
	// BadPath: the tree itself is invalid (bad path, link target leaving
	// the root, a path that is both a file and a directory).
	BadPath
	// BadState: the state directory is unusable for this root.
	BadState
	// IOError: the output could not be inspected.
	IOError
)

func (k ProblemKind) String() string {
	switch k {
	case Symlink:
		return "symlink"
	case Foreign:
		return "foreign file"
	case Modified:
		return "modified file"
	case NotDirectory:
		return "not a directory"
	case NotRegular:
		return "not a regular file"
	case BadPath:
		return "bad path"
	case BadState:
		return "bad state"
	case IOError:
		return "i/o error"
	}
	return "problem"
}

// Problem is one reason a plan cannot be applied.
type Problem struct {
	Kind ProblemKind
	// Path is the slash path relative to the root ("" for the root itself).
	Path string
	// File is the path on disk: the root joined with Path.
	File    string
	Message string // lowercase, no final period
	Hint    string // what to do next; may be empty
}

func (p Problem) String() string { return p.File + ": " + p.Message }

// ProblemError lists every problem found in a plan. Apply returns it, having
// written nothing, when the plan has any problem.
type ProblemError struct {
	Root     string
	Problems []Problem // sorted by path, then kind
}

func (e *ProblemError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Hints returns the distinct hints of the problems, in order.
func (e *ProblemError) Hints() []string {
	var hs []string
	for _, p := range e.Problems {
		if p.Hint != "" && !slices.Contains(hs, p.Hint) {
			hs = append(hs, p.Hint)
		}
	}
	return hs
}

func (c *Changes) problem(p string, k ProblemKind, msg, hint string) {
	c.Problems = append(c.Problems, Problem{Kind: k, Path: p, File: c.file(p), Message: msg, Hint: hint})
}

func sortProblems(ps []Problem) []Problem {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Message, b.Message))
	})
	return slices.CompactFunc(ps, func(a, b Problem) bool { return a == b })
}
