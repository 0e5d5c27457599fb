// Package securitytxt is the kind of /.well-known/security.txt, RFC 9116.
//
// The fields are those of IANA's security.txt Fields registry as of the
// dated copy iana-fields.csv ([Registry]): RFC 9116's, CSAF and
// Bug-Bounty.
//
// The file is modelled by [File], checked by [CheckFile] and rendered by
// [RenderFile] (render.go); Expires may be a date or a duration from the
// build's time ([ResolveExpires], expires.go). Checks return kit.Finding
// values whose Field is a path relative to the manifest's
// well_known.security_txt block (contact[1], expires), so the caller can
// attach a position and print it in the shared diagnostic grammar. A
// hand-written copy is linted by [LintFile] (lint.go); [LintFileKey] also
// verifies a signed file's OpenPGP signature (see package cleartext). The
// build signs the rendered file with the key well_known.security_txt.sign
// names (the kind is a kit.Signer). The manifest's value is [Value],
// decoded at well_known.security_txt; import carries a copy back into it,
// with its comments (import.go).
package securitytxt
