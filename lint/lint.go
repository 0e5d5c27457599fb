// Package lint checks an existing discovery file: it decides what kind of
// file it is, by its content where the content tells, and runs that kind's
// checks (robots.Lint, securitytxt.LintFileKey, autodisc.Lint).
//
// A file is often saved under another name than the one it is served at
// (a signed security.txt kept as sec.txt, a robots.txt as staging.txt), so
// its name alone is a poor guide. The rules, in order:
//
//  1. A kind given by the caller (discgen lint --type) wins.
//  2. An autodisc file (index.txt, icons.txt, description.txt, feeds.txt,
//     subdirectories.txt) is known by its name: those formats are lists of
//     paths, URLs or text, with nothing in them to tell one from another.
//     So are the files of design section 13 (wellknownfiles.go): ads.txt,
//     app-ads.txt, apple-app-site-association, assetlinks.json, gpc.json,
//     traffic-advice and atproto-did.
//  3. A file that begins an OpenPGP signed message, or holds more RFC 9116
//     field lines (Contact, Expires, ...) than robots.txt lines (User-agent,
//     Allow, Disallow, Sitemap, ...: the fields robots.Lint knows), is a
//     security.txt; one with more robots.txt lines is a robots.txt.
//  4. Otherwise the name decides: security.txt, or robots.txt for any other.
//
// When a file named robots.txt or security.txt reads as the other, it is
// linted by its content and a warning says so: the name is where it would
// be served, and a crawler would read it by that name.
package lint

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/discgen/discgen/autodisc"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/kinds/securitytxt"
	"github.com/discgen/discgen/robots"
)

// Kind is what a file is linted as. Its values are the names the files are
// served at.
type Kind string

const (
	Robots         Kind = "robots.txt"
	SecurityTxt    Kind = "security.txt"
	Index          Kind = "index.txt"
	Icons          Kind = "icons.txt"
	Description    Kind = "description.txt"
	Feeds          Kind = "feeds.txt"
	Subdirectories Kind = "subdirectories.txt"
	TDMRep         Kind = "tdmrep.json" // /.well-known/tdmrep.json (rights.go)
)

// Kinds returns every kind, in the order usage text names them. The list
// is the caller's to change.
func Kinds() []Kind { return slices.Clone(kinds) }

var kinds = append([]Kind{Robots, SecurityTxt, Index, Icons, Description, Feeds, Subdirectories, TDMRep}, sectionKinds...)

// ParseKind returns the kind named s, or false.
func ParseKind(s string) (Kind, bool) {
	k := Kind(s)
	return k, slices.Contains(kinds, k)
}

func (k Kind) autodisc() bool { return k != Robots && k != SecurityTxt && !sectionKind(k) }

// sniffBytes bounds how much of a file Detect reads: enough for every
// field line of a real security.txt and the first groups of a robots.txt.
const sniffBytes = 64 << 10

// Detect returns the kind of the file named name holding data, by rules 2
// to 4 of the package documentation.
func Detect(name string, data []byte) Kind {
	base := Kind(filepath.Base(name))
	if k, ok := ParseKind(string(base)); ok && k.autodisc() {
		return k
	}
	if k, ok := sectionByName(name); ok {
		return k
	}
	if len(data) > sniffBytes {
		data = data[:sniffBytes]
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("-----BEGIN PGP SIGNED MESSAGE-----")) {
		return SecurityTxt
	}
	var sec, rob int
	for line := range bytes.Lines(data) {
		key, _, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		switch k := strings.TrimSpace(string(key)); {
		case securitytxt.IsField(k):
			sec++
		case robots.KnownField(k):
			rob++
		}
	}
	switch {
	case sec > rob:
		return SecurityTxt
	case rob > sec:
		return Robots
	case base == SecurityTxt:
		return SecurityTxt
	}
	return Robots
}

// Options are what a file's checks need beyond its bytes.
type Options struct {
	// Now is the time security.txt's Expires and a key directory's exp
	// are checked against.
	Now time.Time
	// Key, when not nil, is the OpenPGP public key a security.txt's
	// signature must verify with.
	Key []byte
}

// Mismatch returns the warning for a file named robots.txt or security.txt
// that Detect read as another kind, and whether there is one.
func Mismatch(name string, detected Kind) (diag.Diagnostic, bool) {
	base := Kind(filepath.Base(name))
	if base != Robots && base != SecurityTxt || base == detected {
		return diag.Diagnostic{}, false
	}
	return diag.Diagnostic{Severity: diag.Warning, Message: fmt.Sprintf(
		"the file is named %s but reads as %s, so it is linted as %s (--type %s lints it by its name)", base, detected, detected, base)}, true
}

// File lints data as kind. Diagnostics carry lines but no file name,
// which the caller sets.
func File(data []byte, kind Kind, opt Options) []diag.Diagnostic {
	if d, ok := lintSection(data, kind, opt.Now); ok {
		return d
	}
	var out []diag.Diagnostic
	switch kind {
	case SecurityTxt:
		return append(out, securitytxt.LintFileKey(data, opt.Now, opt.Key)...)
	case Robots:
		cut := 0 // the first line robots.Lint did not check
		for _, f := range robots.Lint(data) {
			d := diag.Diagnostic{Severity: f.Severity, Code: f.Code, Message: f.Message}
			if f.Line > 0 {
				d.Line, d.Col = f.Line, 1
			}
			if f.Code == robots.CodeTooManyLines {
				cut = f.Line
			}
			out = append(out, d)
		}
		return append(out, robotsLicenses(data, cut)...)
	case TDMRep:
		return tdmRep(data)
	}
	return append(out, autodisc.Lint(string(kind), data)...)
}
