package lint

import (
	"fmt"
	"maps"
	"net/url"
	"slices"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/tdmrep"
)

// Codes of the licence and reservation findings.
const (
	CodeLicenseRelative = "L001" // License value not an absolute http(s) URL
	CodeLicenseRepeated = "L002" // more than one License line
	CodeLicenseInGroup  = "L003" // License line inside a group
	CodeTDMRep          = "T001" // tdmrep.json departs from the report
)

// robotsLicenses lints the RSL 1.0 License lines of a robots.txt
// (rslstandard.org): each an absolute URL, global (in no group, before
// a group's rules or after them: robots.LicenseLine.Grouped), and one of
// them. Lines from cut on (0: none), which robots.Lint did not check, are
// not checked here either.
func robotsLicenses(data []byte, cut int) []diag.Diagnostic {
	var out []diag.Diagnostic
	// As robots.Lint, at most robots.MaxListed of each code, and values
	// cut to robots.MaxQuoted octets.
	type dropped struct {
		sev     diag.Severity
		n, line int
	}
	counts := map[string]int{}
	over := map[string]*dropped{}
	add := func(line int, sev diag.Severity, code, format string, args ...any) {
		if counts[code]++; counts[code] > robots.MaxListed {
			if over[code] == nil {
				over[code] = &dropped{sev: sev, line: line}
			}
			over[code].n++
			return
		}
		for i, a := range args {
			if s, ok := a.(string); ok && len(s) > robots.MaxQuoted {
				args[i] = s[:robots.MaxQuoted] + "..."
			}
		}
		out = append(out, diag.Diagnostic{Pos: diag.Pos{Line: line, Col: 1}, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	ls := robots.LicensesBefore(data, cut)
	for i, l := range ls {
		if u, err := url.Parse(l.Value); err != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			add(l.Num, diag.Error, CodeLicenseRelative, "License %q is not an absolute http(s) URL: RSL 1.0 readers need the licence's full URL, with scheme and host", l.Value)
		}
		if l.Grouped {
			// Before a group's rules or after them: RFC 9309 reads a
			// group up to the next User-agent line.
			add(l.Num, diag.Warning, CodeLicenseInGroup, "License is inside a group: RSL 1.0 makes it global, but a reader may take it for this group's crawlers alone; put it after the last group, a blank line between (a License line before the first User-agent line is in no group either, but Ruby's webrobots cannot parse the file then)")
		}
		if i > 0 {
			add(l.Num, diag.Warning, CodeLicenseRepeated, "a second License line (the first is line %d): a reader that takes one licence may take either; give the site's licence once", ls[0].Num)
		}
	}
	for _, code := range slices.Sorted(maps.Keys(over)) {
		d := over[code]
		out = append(out, diag.Diagnostic{Pos: diag.Pos{Line: d.line, Col: 1}, Severity: d.sev, Code: code,
			Message: fmt.Sprintf("%d more %s findings are not listed, the first of them on this line (lint lists %d of each code)", d.n, code, robots.MaxListed)})
	}
	return out
}

// tdmRep lints a hand-written /.well-known/tdmrep.json against the W3C
// TDMRep final report (2024-05-10): tdmrep.Parse's problems.
func tdmRep(data []byte) []diag.Diagnostic {
	var out []diag.Diagnostic
	_, probs := tdmrep.Parse(data)
	for _, p := range probs {
		sev := diag.Error
		if p.Warning {
			sev = diag.Warning
		}
		out = append(out, diag.Diagnostic{Pos: diag.Pos{Line: p.Line, Col: p.Col}, Severity: sev, Code: CodeTDMRep, Message: p.Message})
	}
	return out
}
