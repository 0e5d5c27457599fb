package securitytxt

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/discgen/discgen/cleartext"
	"github.com/discgen/discgen/diag"
)

// Lint codes for an existing security.txt, stable: tools may match on them.
const (
	CodeRule     = "S001" // a rule of RFC 9116 that CheckFile reports
	CodeNotField = "S002" // a line that is neither a field, a comment nor blank
	CodeExpires  = "S003" // Expires missing, repeated, or not an RFC 3339 time
	CodeSigned   = "S004" // an OpenPGP-signed file: the signature is not checked
	CodeBadSig   = "S005" // the signature does not verify with the key given, or the file is not signed
	CodeRepeated = "S006" // a field the IANA registry allows once, given again
)

// fieldKeys maps the names of the fields of IANA's registry (lower case)
// to the snake_case names CheckFile reports findings under.
var fieldKeys = func() map[string]string {
	m := map[string]string{}
	for _, f := range Registry().Fields {
		m[strings.ToLower(f.Name)] = fieldKey(f.Name)
	}
	return m
}()

// IsField reports whether name, in any case, is a field of IANA's
// security.txt Fields registry (RFC 9116's and those registered since:
// CSAF, Bug-Bounty).
func IsField(name string) bool {
	_, ok := fieldKeys[strings.ToLower(name)]
	return ok
}

// LintFile checks an existing security.txt (RFC 9116) as of now.
// Diagnostics carry a line (0 for the whole file) and a code but no file
// name, which the caller sets. Fields the registry does not hold are
// extensions and are left alone; one the registry allows once is an error
// the second time (S006).
func LintFile(data []byte, now time.Time) []diag.Diagnostic {
	return LintFileKey(data, now, nil)
}

// securityLines is what readSecurityTxt reads: the fields, the line of
// each ("contact[1]" and "contact" -> line), the lines of every Expires,
// and whether the file is signed.
type securityLines struct {
	s       File
	lines   map[string]int
	expires []int
	signed  bool
	first   map[string]int // the line of a field the registry allows once
}

// readSecurityTxt reads the fields of a security.txt, reporting through
// add the lines that are not fields and, when no key is given, that a
// signature goes unchecked.
func readSecurityTxt(data []byte, keyGiven bool, add func(sev diag.Severity, line int, code, format string, args ...any)) securityLines {
	r := securityLines{lines: map[string]int{}, first: map[string]int{}}
	s, lines := &r.s, r.lines
	for i, raw := range strings.Split(strings.TrimPrefix(string(data), "\ufeff"), "\n") {
		n, line := i+1, strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		switch {
		case line == "-----BEGIN PGP SIGNED MESSAGE-----":
			r.signed = true
			if !keyGiven {
				add(diag.Warning, n, CodeSigned, "the file is signed; its signature is not checked (give the public key with --key)")
			}
			continue
		case r.signed && strings.HasPrefix(line, "Hash:"), line == "", strings.HasPrefix(line, "#"):
			continue
		}
		if line == "-----BEGIN PGP SIGNATURE-----" {
			break // the rest is the signature
		}
		if r.signed {
			line = strings.TrimPrefix(line, "- ") // dash-escaped (RFC 4880 section 7.1)
		}
		name, value, ok := strings.Cut(line, ":")
		key := fieldKeys[strings.ToLower(strings.TrimSpace(name))]
		value = strings.TrimSpace(value)
		switch {
		case !ok || strings.ContainsAny(strings.TrimSpace(name), " \t"):
			add(diag.Error, n, CodeNotField, "%q is not a field line (Field: value), a comment or a blank line", line)
			continue
		case key == "":
			continue
		}
		if f, _ := Registry().Field(strings.TrimSpace(name)); !f.Multiple && key != "expires" {
			if first, again := r.first[key]; again {
				add(diag.Error, n, CodeRepeated, "%s is given again (first on line %d); the IANA security.txt Fields registry allows it once", f.Name, first)
				continue
			}
			r.first[key] = n
		}
		var list *[]string
		switch key {
		case "bug_bounty":
			lines[key] = n
			switch strings.ToLower(value) {
			case "true", "false":
				b := strings.EqualFold(value, "true")
				s.BugBounty = &b
			default:
				add(diag.Error, n, CodeRule, "bug_bounty: %q is not True or False (the values the IANA security.txt Fields registry gives Bug-Bounty)", value)
			}
			continue
		case "expires":
			r.expires = append(r.expires, n)
			if s.Expires == "" {
				s.Expires = value
				lines["expires"] = n
			}
			continue
		case "preferred_languages":
			for _, tag := range strings.Split(value, ",") {
				lines[key+"["+strconv.Itoa(len(s.PreferredLanguages))+"]"] = n
				s.PreferredLanguages = append(s.PreferredLanguages, strings.TrimSpace(tag))
			}
			if _, ok := lines[key]; !ok {
				lines[key] = n
			}
			continue
		case "contact":
			list = &s.Contact
		case "encryption":
			list = &s.Encryption
		case "acknowledgments":
			list = &s.Acknowledgments
		case "canonical":
			list = &s.Canonical
		case "policy":
			list = &s.Policy
		case "hiring":
			list = &s.Hiring
		case "csaf":
			list = &s.CSAF
		}
		lines[key+"["+strconv.Itoa(len(*list))+"]"] = n
		if _, ok := lines[key]; !ok {
			lines[key] = n
		}
		*list = append(*list, value)
	}
	return r
}

// LintFileKey is LintFile that also verifies the file's
// OpenPGP cleartext signature (RFC 9116 section 2.3) against pubKey, a
// public key as gpg --export writes it (armored or not), when pubKey is not
// nil. A signature made by another key, a file changed after signing, and
// an unsigned file are errors (S005); without pubKey a signed file draws
// the S004 warning that its signature is not checked.
func LintFileKey(data []byte, now time.Time, pubKey []byte) []diag.Diagnostic {
	var out diag.List
	add := out.Linef
	r := readSecurityTxt(data, pubKey != nil, add)
	s, lines, expiresLines, signed := r.s, r.lines, r.expires, r.signed

	if pubKey != nil {
		if msg := verify(data, pubKey, now); msg != "" {
			add(diag.Error, 0, CodeBadSig, "%s", msg)
		}
	}
	if signed {
		// Lines outside the signed part are not covered by the signature,
		// yet a reader may take them as fields.
		sev, code := diag.Warning, CodeSigned
		if pubKey != nil {
			sev, code = diag.Error, CodeBadSig
		}
		for _, n := range unsignedLines(data) {
			add(sev, n, code, "this line is outside the signed part of the file: the signature does not cover it")
		}
	}
	switch {
	case len(expiresLines) > 1:
		for _, n := range expiresLines[1:] {
			add(diag.Error, n, CodeExpires, "Expires is given again (first on line %d); RFC 9116 section 2.5.5 allows exactly one", expiresLines[0])
		}
	case len(expiresLines) == 1:
		if _, err := time.Parse(time.RFC3339, s.Expires); err != nil {
			add(diag.Error, expiresLines[0], CodeExpires, "Expires %q must be an RFC 3339 time such as 2027-01-01T00:00:00Z (RFC 9116 section 2.5.5)", s.Expires)
			s.Expires = "" // reported; the checks below would repeat it
		}
	}
	for _, f := range CheckFile(s, now) {
		if f.Field == "expires" && s.Expires == "" && len(expiresLines) > 0 {
			continue
		}
		sev := diag.Error
		if f.Warning {
			sev = diag.Warning
		}
		n := lines[f.Field]
		if n == 0 {
			n = lines[strings.SplitN(f.Field, "[", 2)[0]]
		}
		add(sev, n, CodeRule, "%s: %s", f.Field, f.Message)
	}
	return out
}

// verify says why data's signature does not verify with pubKey, or "".
func verify(data, pubKey []byte, now time.Time) string {
	_, err := cleartext.Verify(data, pubKey, now)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, cleartext.ErrNotSigned):
		return "the file is not signed, but a key to verify it was given"
	}
	return "signature not valid: " + err.Error()
}

// unsignedLines returns the numbers of the non-blank lines of a signed file
// that lie before its "-----BEGIN PGP SIGNED MESSAGE-----" line or after
// its "-----END PGP SIGNATURE-----" line.
func unsignedLines(data []byte) []int {
	var out []int
	state := 0 // 0 before the signed message, 1 inside, 2 after the signature
	for i, raw := range strings.Split(strings.TrimPrefix(string(data), "\ufeff"), "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case state == 0 && line == "-----BEGIN PGP SIGNED MESSAGE-----":
			state = 1
		case state == 1 && line == "-----END PGP SIGNATURE-----":
			state = 2
		case state != 1 && line != "":
			out = append(out, i+1)
		}
	}
	return out
}
