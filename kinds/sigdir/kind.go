package sigdir

import (
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
)

// Kind is /.well-known/http-message-signatures-directory, from
// well_known.signatures_directory: a source file copied once it passes
// its check. Directory is the one value of it.
type Kind struct{ kit.SourceFile }

// Directory returns the key directory kind.
func Directory() Kind { return Kind{kit.SourceAt("well_known.signatures_directory")} }

// NewValue returns a new empty source path (kit.Owner).
func (Kind) NewValue() any { return new(string) }

func (Kind) Name() string      { return "http-message-signatures-directory" }
func (Kind) Key() string       { return "well_known.signatures_directory" }
func (Kind) Path() string      { return ".well-known/http-message-signatures-directory" }
func (Kind) MediaType() string { return MediaType }

// CheckShape checks a copy by shape, its dates unjudged.
func (Kind) CheckShape(data []byte) []kit.JSONProblem { return CheckDirectory(data) }

// CheckShapeAt checks a copy, its keys' expiry against now.
func (Kind) CheckShapeAt(data []byte, now time.Time) []kit.JSONProblem {
	return CheckDirectoryAt(data, now)
}

// Lint lints a hand-written copy by shape.
func (Kind) Lint(data []byte) []diag.Diagnostic {
	return kit.JSONDiagnostics(CheckDirectory(data), kit.CodeJSON)
}

// Consumer names who fetches the directory: the protocol draft's
// verifiers follow no redirect, so verify fails one.
func (Kind) Consumer() string { return "a Web Bot Auth verifier" }

// LintAt lints a hand-written copy, its keys' expiry against now.
func (Kind) LintAt(data []byte, now time.Time) []diag.Diagnostic {
	return kit.JSONDiagnostics(CheckDirectoryAt(data, now), kit.CodeJSON)
}
