package sigdir

import (
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Kind is /.well-known/http-message-signatures-directory, from
// well_known.signatures_directory: a source file copied once it passes
// its check.
type Kind struct{}

func (Kind) Name() string      { return "http-message-signatures-directory" }
func (Kind) Key() string       { return "well_known.signatures_directory" }
func (Kind) Path() string      { return ".well-known/http-message-signatures-directory" }
func (Kind) MediaType() string { return MediaType }

func (k Kind) Given(site *manifest.Site) bool { _, ok := k.Source(site); return ok }

// Check finds nothing in the manifest's value, a path that validate
// checks as it checks every source; the file is checked when it is read
// (CheckShapeAt).
func (Kind) Check(*manifest.Site, kit.Build) []kit.Finding { return nil }

// Render returns no file: the file is the source, copied (Source).
func (Kind) Render(*manifest.Site, kit.Build) ([]byte, bool) { return nil, false }

// Source returns the file's path relative to the manifest.
func (Kind) Source(site *manifest.Site) (string, bool) {
	if site.WellKnown == nil || site.WellKnown.SignaturesDirectory == "" {
		return "", false
	}
	return site.WellKnown.SignaturesDirectory, true
}

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
