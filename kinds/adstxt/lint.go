package adstxt

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/kinds/kit"
)

// Codes of the ads.txt and app-ads.txt lint (LintFile).
const (
	CodeAdsLine         = "D001" // neither a record, a variable, a comment nor a blank line
	CodeAdsDomain       = "D002" // field #1, or a domain variable, is not a domain name
	CodeAdsAccount      = "D003" // field #2 is empty, not one token, or a placeholder
	CodeAdsRelationship = "D004" // field #3 is neither DIRECT nor RESELLER
	CodeAdsCert         = "D005" // field #4 is not a TAG-ID
	CodeAdsPlaceholder  = "D006" // the no-seller placeholder record beside other records
	CodeAdsCommented    = "D007" // a variable written in a comment, which no crawler reads
	CodeAdsVariable     = "D008" // a variable ads.txt 1.1 does not define, or one repeated
	CodeAdsValue        = "D009" // a variable's value cannot be read
	CodeAdsDuplicate    = "D010" // a record given twice
	CodeAdsNoRecord     = "D011" // no record, or only the placeholder
	CodeAdsText         = "D012" // not UTF-8 text, or a control character
	CodeAdsVarSpace     = "D013" // white space before a variable's name or around its "="
)

// commentedVariable matches a comment that holds a variable line.
var commentedVariable = lazyre.New(`(?i)^#\s*(contact|subdomain|inventorypartnerdomain|ownerdomain|managerdomain)\s*=`)

// LintFile checks an existing ads.txt or app-ads.txt line by line, by
// IAB Tech Lab ads.txt 1.1: each record's fields (a domain name, an
// account ID, DIRECT or RESELLER, a TAG-ID), each variable, and the file
// as a whole. Diagnostics carry a line and the column of the field, and a
// code, but no file name.
func LintFile(data []byte) []diag.Diagnostic {
	l := &adsLint{seen: map[string]int{}, managers: map[string]int{}}
	add := l.add
	if !utf8.Valid(data) {
		add(diag.Error, 0, 0, CodeAdsText, "the file is not UTF-8 text")
		return l.out
	}
	text := string(data)
	if strings.HasPrefix(text, "\ufeff") {
		add(diag.Warning, 1, 1, CodeAdsText, "the file starts with a byte order mark (U+FEFF), which some crawlers read as part of the first line")
		text = strings.TrimPrefix(text, "\ufeff")
	}
	for i, raw := range strings.Split(text, "\n") {
		n := i + 1
		raw = strings.TrimSuffix(raw, "\r")
		if j := strings.IndexFunc(raw, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }); j >= 0 {
			add(diag.Error, n, kit.Col(raw, j), CodeAdsText, "the control character %U", []rune(raw[j:])[0])
			l.broken++
			continue
		}
		line := raw
		if j := strings.IndexByte(line, '#'); j >= 0 {
			if commentedVariable.MatchString(strings.TrimSpace(line[j:])) {
				add(diag.Warning, n, kit.Col(raw, j), CodeAdsCommented, "%q is a variable in a comment, which no crawler reads: remove the \"#\"", strings.TrimSpace(line[j:]))
			}
			line = line[:j]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		eq, comma := strings.IndexByte(line, '='), strings.IndexByte(line, ',')
		if eq >= 0 && (comma < 0 || eq < comma) {
			l.variable(n, raw, line, eq)
			continue
		}
		l.record(n, raw, line)
	}
	switch {
	case l.placeholder > 0 && l.records > 1:
		add(diag.Error, l.placeholder, 1, CodeAdsPlaceholder, "the placeholder record (ads.txt 1.1 section 3.2.1) says no seller is authorized, but the file lists sellers: remove it")
	case l.placeholder > 0:
		add(diag.Warning, l.placeholder, 1, CodeAdsNoRecord, "the placeholder record: the file authorizes no seller (ads.txt 1.1 section 3.2.1)")
	case l.records == 0 && l.broken == 0:
		add(diag.Warning, 0, 0, CodeAdsNoRecord, "no record: a site that authorizes no seller writes the placeholder record %q (ads.txt 1.1 section 3.2.1)", Placeholder)
	}
	out := diag.List(l.out)
	out.Sort()
	return out
}

// adsLint is LintFile's state as it reads the lines.
type adsLint struct {
	out []diag.Diagnostic
	// records counts the record lines, the placeholder's among them;
	// placeholder is its line; broken counts the lines already reported
	// as neither a record nor a variable.
	records, placeholder, broken int
	seen                         map[string]int // a seller's first line
	owner                        int            // OWNERDOMAIN's first line
	managers                     map[string]int // MANAGERDOMAIN's line, by country
}

func (l *adsLint) add(sev diag.Severity, line, col int, code, format string, args ...any) {
	l.out = append(l.out, diag.Diagnostic{Pos: diag.Pos{Line: line, Col: col}, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...)})
}

// variable checks the variable line n (NAME=value, "=" at eq of line).
func (l *adsLint) variable(n int, raw, line string, eq int) {
	name, value := strings.TrimSpace(line[:eq]), strings.TrimSpace(line[eq+1:])
	at := kit.Col(raw, eq+1+strings.Index(line[eq+1:], value))
	// ads.txt 1.1 writes a variable <VARIABLE>=<VALUE>, with no white
	// space: a reader that splits at "=" and compares the name, or takes
	// the value, as written reads another name or value. Warned at the
	// first white space, as readers that trim read the variable.
	write := fmt.Sprintf("write %s=%s", name, value)
	ws := func(r rune) bool { return r == ' ' || r == '\t' }
	switch lead, before := len(line)-len(strings.TrimLeftFunc(line, ws)), len(strings.TrimRightFunc(line[:eq], ws)); {
	case lead > 0:
		l.add(diag.Warning, n, kit.Col(raw, 0), CodeAdsVarSpace, "white space before %q: ads.txt 1.1 writes a variable <VARIABLE>=<VALUE>, and a reader that compares the name as written does not read %s; %s", strings.TrimSpace(line), strings.ToUpper(name), write)
	case before < eq:
		l.add(diag.Warning, n, kit.Col(raw, before), CodeAdsVarSpace, "white space before \"=\" in %q: ads.txt 1.1 writes a variable <VARIABLE>=<VALUE>, and a reader that compares the name as written does not read %s; %s", strings.TrimSpace(line), strings.ToUpper(name), write)
	case eq+1 < len(line) && ws(rune(line[eq+1])) && value != "":
		l.add(diag.Warning, n, kit.Col(raw, eq+1), CodeAdsVarSpace, "white space after \"=\" in %q: ads.txt 1.1 writes a variable <VARIABLE>=<VALUE>, and a reader that takes the value as written reads it with the white space; %s", strings.TrimSpace(line), write)
	}
	switch strings.ToUpper(name) {
	case "CONTACT":
		if value == "" {
			l.add(diag.Error, n, at, CodeAdsValue, "CONTACT is empty")
		}
	case "SUBDOMAIN", "INVENTORYPARTNERDOMAIN", "OWNERDOMAIN":
		if msg, warn := CheckDomain(value, false); msg != "" {
			l.add(kit.Severity(warn), n, at, CodeAdsDomain, "%s: %s", strings.ToUpper(name), msg)
		}
		if strings.EqualFold(name, "OWNERDOMAIN") {
			if l.owner > 0 {
				l.add(diag.Warning, n, kit.Col(raw, 0), CodeAdsVariable, "a second OWNERDOMAIN (the first is on line %d): crawlers use the first", l.owner)
			} else {
				l.owner = n
			}
		}
	case "MANAGERDOMAIN":
		d, cc, hasCC := strings.Cut(value, ",")
		d, cc = strings.TrimSpace(d), strings.TrimSpace(cc)
		if msg, warn := CheckDomain(d, false); msg != "" {
			l.add(kit.Severity(warn), n, at, CodeAdsDomain, "MANAGERDOMAIN: %s", msg)
		} else if hasCC && !isCountry(cc) {
			l.add(diag.Error, n, at, CodeAdsValue, "MANAGERDOMAIN %q: %q is not an ISO 3166-1 alpha-2 country code in capitals", value, cc)
		} else if first, dup := l.managers[cc]; dup {
			l.add(diag.Error, n, kit.Col(raw, 0), CodeAdsVariable, "a second MANAGERDOMAIN for the same country (the first is on line %d); ads.txt 1.1 allows one", first)
		} else {
			l.managers[cc] = n
		}
	default:
		l.add(diag.Warning, n, kit.Col(raw, 0), CodeAdsVariable, "%q is not a variable of ads.txt 1.1 (CONTACT, SUBDOMAIN, INVENTORYPARTNERDOMAIN, OWNERDOMAIN, MANAGERDOMAIN)", name)
	}
}

// record checks the record line n.
func (l *adsLint) record(n int, raw, line string) {
	// A record: fields #1 to #4, then an optional extension after ";".
	body, _, _ := strings.Cut(line, ";")
	parts := strings.Split(body, ",")
	if len(parts) < 3 || len(parts) > 4 {
		l.add(diag.Error, n, kit.Col(raw, 0), CodeAdsLine, "%q is not a record (domain, account ID, DIRECT|RESELLER[, certification authority ID]) nor a variable (NAME=value)", strings.TrimSpace(line))
		l.broken++
		return
	}
	fields := make([]string, len(parts))
	cols := make([]int, len(parts))
	off := 0
	for k, p := range parts {
		fields[k] = strings.TrimSpace(p)
		cols[k] = kit.Col(raw, off+strings.Index(p, fields[k]))
		off += len(p) + 1
	}
	l.records++
	if strings.EqualFold(fields[0], "placeholder.example.com") {
		l.placeholder = n
		return
	}
	if msg, warn := CheckDomain(fields[0], true); msg != "" {
		l.add(kit.Severity(warn), n, cols[0], CodeAdsDomain, "%s", msg)
	}
	if fields[1] == "" {
		l.add(diag.Error, n, cols[1], CodeAdsAccount, "the account ID is empty")
	} else if msg, warn := CheckAccount(fields[1]); msg != "" {
		l.add(kit.Severity(warn), n, cols[1], CodeAdsAccount, "%s", msg)
	}
	if msg := CheckRelationship(fields[2]); msg != "" {
		l.add(diag.Error, n, cols[2], CodeAdsRelationship, "%s", msg)
	}
	if len(fields) == 4 && fields[3] != "" {
		if msg := CheckCert(fields[3]); msg != "" {
			l.add(diag.Error, n, cols[3], CodeAdsCert, "%s", msg)
		}
	}
	key := strings.ToLower(fields[0]) + "," + fields[1] + "," + strings.ToUpper(fields[2])
	if first, dup := l.seen[key]; dup {
		l.add(diag.Warning, n, kit.Col(raw, 0), CodeAdsDuplicate, "the same seller as line %d", first)
	} else {
		l.seen[key] = n
	}
}
