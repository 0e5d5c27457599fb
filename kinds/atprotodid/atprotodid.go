// Package atprotodid is the kind of /.well-known/atproto-did, the AT
// Protocol "Handle" specification's HTTPS well-known method
// (https://atproto.com/specs/handle): the DID as the whole body, served
// as text/plain. Resolvers trim white space "for best compatibility", so
// the body is the DID alone, with no line break. The manifest's
// well_known.atproto_did gives it.
package atprotodid

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Code is the lint code of an atproto-did that is not a DID alone.
const Code = "J002"

// didPLC is a did:plc identifier: 24 characters of base32 (a-z, 2-7).
// didWeb is a did:web identifier: a host name, with an optional port
// written %3A, and optional path segments after ":".
var (
	didPLC = lazyre.New(`^did:plc:[a-z2-7]{24}$`)
	didWeb = lazyre.New(`^did:web:[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(%3[Aa][0-9]+)?(:[A-Za-z0-9._~%-]+)*$`)
)

// CheckAtprotoDID checks the DID of atproto-did: did:plc (the method most
// accounts have) or did:web, the two the AT Protocol supports.
// CheckDID checks the DID of atproto-did: did:plc (the method most
// accounts have) or did:web, the two the AT Protocol supports.
func CheckDID(s string) string {
	switch {
	case s != strings.TrimSpace(s) || strings.ContainsAny(s, " \t\r\n"):
		return fmt.Sprintf("%q holds white space: the file is the DID alone", s)
	case strings.HasPrefix(s, "did:plc:"):
		if !didPLC.MatchString(s) {
			return fmt.Sprintf("%q is not a did:plc identifier: did:plc: and 24 characters of a-z and 2-7", s)
		}
	case strings.HasPrefix(s, "did:web:"):
		if !didWeb.MatchString(s) {
			return fmt.Sprintf("%q is not a did:web identifier: did:web: and a lower-case host name", s)
		}
	default:
		return fmt.Sprintf("%q is not a DID the AT Protocol supports: did:plc:... or did:web:...", s)
	}
	return ""
}

// LintFile checks a hand-written atproto-did: the DID alone. A final
// line break is a warning (resolvers trim it, but the AT Protocol handle
// specification asks for the DID).
func LintFile(data []byte) []diag.Diagnostic {
	s := string(data)
	trimmed := strings.TrimRight(s, "\r\n")
	var out []diag.Diagnostic
	if msg := CheckDID(trimmed); msg != "" {
		out = append(out, diag.Diagnostic{Pos: diag.Pos{Line: 1, Col: 1}, Severity: diag.Error, Code: Code, Message: msg})
	} else if trimmed != s {
		out = append(out, diag.Diagnostic{Pos: diag.Pos{Line: 1, Col: len(trimmed) + 1}, Severity: diag.Warning, Code: Code, Message: "a line break after the DID: resolvers trim it, but the file should be the DID alone"})
	}
	return out
}

// Kind is atproto-did.
type Kind struct{}

// value returns the manifest's well_known.atproto_did, a string, "" for none.
func value(site *manifest.Site) string {
	if s := kit.Value[string](site, Kind{}.Key()); s != nil {
		return *s
	}
	return ""
}

// NewValue returns a new empty well_known.atproto_did (kit.Owner).
func (Kind) NewValue() any { return new(string) }

func (Kind) Name() string                   { return "atproto-did" }
func (Kind) Key() string                    { return "well_known.atproto_did" }
func (Kind) Path() string                   { return ".well-known/atproto-did" }
func (Kind) MediaType() string              { return "text/plain; charset=utf-8" }
func (Kind) Given(site *manifest.Site) bool { return value(site) != "" }

func (Kind) Check(site *manifest.Site, _ kit.Build) []kit.Finding {
	if s := value(site); s != "" {
		if msg := CheckDID(s); msg != "" {
			return []kit.Finding{{Message: msg}}
		}
	}
	return nil
}

// Render returns the file: the DID, nothing more.
func (Kind) Render(site *manifest.Site, _ kit.Build) ([]byte, bool) {
	s := value(site)
	return []byte(s), s != ""
}

// Lint lints a hand-written copy (LintFile).
func (Kind) Lint(data []byte) []diag.Diagnostic { return LintFile(data) }

// Import sets well_known.atproto_did from a copy that is a DID alone,
// and reports whether it did.
func (Kind) Import(site *manifest.Site, data []byte, _ func(int, string, ...any)) bool {
	if CheckDID(string(data)) != "" {
		return false
	}
	did := string(data)
	kit.SetValue(site, Kind{}.Key(), &did)
	return true
}
