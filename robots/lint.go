package robots

import (
	"cmp"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/editdist"
)

// MaxFileSize is the size past which a file draws a warning: RFC 9309
// (section 2.5) lets crawlers stop parsing after 500 KiB, and Google does.
const MaxFileSize = 500 << 10

// knownFields are the keys Lint does not call unknown: RFC 9309's, the
// extensions this package reads, and common non-standard ones.
var knownFields = []string{
	"user-agent", "allow", "disallow", "sitemap", "crawl-delay", "host",
	"mobile-agent-server", "clean-param", "request-rate", "visit-time",
	"content-usage", "content-signal", "license",
}

// KnownField reports whether key, in any case, is a field Lint knows.
func KnownField(key string) bool { return slices.Contains(knownFields, strings.ToLower(key)) }

// errorCodes are the findings Lint reports as errors.
var errorCodes = map[string]bool{
	CodeOutsideGroup:    true,
	CodeBadStart:        true,
	CodeBadToken:        true,
	CodeRelativeSitemap: true,
	CodeTooLarge:        true,
	CodeTooManyLines:    true,
	CodeUsageOutside:    true,
}

// Lint checks a robots.txt file and returns its findings sorted by line,
// then code. Besides the parser's findings (R002, R013, R014, R015, R021) it
// reports:
//
//	R001 unknown field, with a suggestion when it looks like a known one
//	R003 a pattern that starts with neither '/' nor '*'
//	R004 '$' before the end of a pattern (it is then a plain character)
//	R005 a User-agent value that is not a product token
//	R006 an agent named by several groups (merged by RFC 9309, not by 1996)
//	R007 a rule that can never decide: an identical rule comes first, or
//	     another rule matches every URL it matches and wins (the matcher
//	     decides: "Allow: /a" then "Disallow: /a*")
//	R008 Allow and Disallow with the same pattern (Allow wins in RFC 9309)
//	R009 an agent and URL that Google's parser, RFC 9309 with escapes
//	     normalised, and the 1996 draft do not all answer alike
//	R023 a named group that lets its agents fetch what "*" disallows (RFC
//	     9309 groups do not inherit)
//	R024 a blank line inside a run of User-agent lines (Google joins them,
//	     record-per-blank-line readers split them)
//	R025 a rule that never changes a verdict: a shorter rule of its kind
//	     covers it and nothing of the other kind lies between
//	R010 a Sitemap URL that is not absolute
//	R011 a Host line (not part of RFC 9309)
//	R012 a file over 500 KiB
//	R016 a pattern with '*' or '$', which the 1996 draft reads literally
//	R020 a Crawl-delay line (not part of RFC 9309) or one that is no number
//	R022 a crawler's name with digits or dots (MJ12bot), which Google reads
//	     only up to its first digit or dot
//	R032-R035 usage preference lines (Content-Usage, Content-Signal): see
//	     lintUsage
//	R037 more lines than lint checks (MaxLintLines): the lines before it
//	     are checked, the rest are not
//
// Lint's work is linear in the file's size: groups are looked up through
// an index (lintIndex), pairwise rule checks stop at maxPairRules rules a
// group and at maxPairWork octets compared in all, reading probes at
// maxProbes and maxReadingWork, and matching a pattern costs its length
// and the path's, whatever its wildcards. What it keeps is bounded by
// MaxLintLines, whatever the file's size.
//
// Findings are errors where the file cannot do what its author wrote: a
// rule no reader applies (R002), a pattern that matches no URL (R003), an
// agent name RFC 9309 readers cannot match as written (R005), a Sitemap
// crawlers cannot fetch (R010), and content past the 500 KiB crawlers read
// (R012), and lines past those lint checks (R037). The rest are warnings.
func Lint(data []byte) []Finding { return lint(data, MaxLintLines) }

// MaxLintLines bounds the lines that hold something (as MaxLines counts
// them) that Lint checks. A line draws up to a few findings of some
// 150 bytes each, which a reader of the report and the memory must hold:
// a million rules with wildcards drew a million findings and 460 MB. No
// crawler reads so many: 100,000 rule lines cannot fit in the 500 KiB
// RFC 9309 lets it stop at, so a file past the bound is already an error
// (R012).
const MaxLintLines = 100_000

// MaxListed bounds the findings of one code that Lint lists; past it
// they are counted, and one more finding of the code gives the count, on
// the line of the first not listed. MaxQuoted bounds the octets of a
// value a finding quotes: a line may be 16 kB long. A million rules with
// wildcards drew a million findings (460 MB, and a report no one reads);
// validate lists as many of a manifest's (MaxDiagnostics).
const (
	MaxListed = 1000
	MaxQuoted = 256
)

// lint is Lint checking at most max lines that hold something.
func lint(data []byte, max int) []Finding {
	f := parse(data, max)
	var out []Finding
	type dropped struct{ n, line int }
	counts := map[string]int{}
	over := map[string]*dropped{}
	keep := func(fd Finding) {
		if counts[fd.Code]++; counts[fd.Code] <= MaxListed {
			out = append(out, fd)
			return
		}
		if u := over[fd.Code]; u != nil {
			u.n++
			u.line = min(u.line, fd.Line)
		} else {
			over[fd.Code] = &dropped{1, fd.Line}
		}
	}
	for _, fd := range f.Findings {
		keep(fd)
	}
	for code, u := range f.More {
		counts[code] += u.N
		if d := over[code]; d != nil {
			d.n += u.N
			d.line = min(d.line, u.Line)
		} else {
			over[code] = &dropped{u.N, u.Line}
		}
	}
	add := func(code string, line int, format string, args ...any) {
		if counts[code] >= MaxListed {
			keep(Finding{Code: code, Line: line}) // counted only
			return
		}
		for i, a := range args {
			if s, ok := a.(string); ok && len(s) > MaxQuoted {
				args[i] = s[:MaxQuoted] + "..."
			}
		}
		keep(Finding{Code: code, Severity: diag.Warning, Line: line, Message: fmt.Sprintf(format, args...)})
	}
	if len(data) > MaxFileSize {
		add(CodeTooLarge, 0, "file is %d bytes; crawlers may ignore everything after 500 KiB", len(data))
	}
	if f.Cut > 0 {
		add(CodeTooManyLines, f.Cut, "more than %d lines with a field; lint checks the %d before this one and none from here on", max, max)
	}
	lintFields(f, add)
	unlisted := unlistedName(f)
	x := newLintIndex(f, unlisted)
	type first struct{ group, line int }
	firstGroup := map[string]first{}
	pairWork := 0
	for gi, g := range f.Groups {
		for _, a := range g.Agents {
			if a.Global {
				continue
			}
			if !IsProductToken(a.Value) {
				if IsAgentName(a.Value) {
					add(CodeCrawlerName, a.Num, "User-agent %q: %s", a.Value, GoogleReading(a.Value))
				} else if a.Token == "" {
					add(CodeBadToken, a.Num, "User-agent %q has no product token ([A-Za-z_-]+); RFC 9309 readers apply the group to no crawler", a.Value)
				} else {
					add(CodeBadToken, a.Num, "User-agent %q is not a product token; RFC 9309 readers read it as %q", a.Value, a.Token)
				}
			}
			k := strings.ToLower(a.Token)
			if k == "" {
				continue
			}
			if fg, ok := firstGroup[k]; ok && fg.group != gi {
				add(CodeDuplicateGroup, a.Num, "%s is also named on line %d; RFC 9309 merges the groups, the 1996 draft obeys only the first", a.Token, fg.line)
			} else if !ok {
				firstGroup[k] = first{gi, a.Num}
			}
		}
		lintRules(g, &pairWork, add)
	}
	lintInherit(f, x, add)
	lintUsage(f, x, add)
	lintReadings(f, x, unlisted, add)
	for _, code := range slices.Sorted(maps.Keys(over)) {
		u := over[code]
		out = append(out, Finding{Code: code, Severity: diag.Warning, Line: u.line,
			Message: fmt.Sprintf("%d more %s findings are not listed, the first of them on this line (lint lists %d of each code)", u.n, code, MaxListed)})
	}
	for i := range out {
		if errorCodes[out[i].Code] {
			out[i].Severity = diag.Error
		}
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Code, b.Code))
	})
	return slices.CompactFunc(out, func(a, b Finding) bool { return a == b })
}

func lintFields(f *File, add func(string, int, string, ...any)) {
	var others []Line
	others = append(others, f.Orphans...)
	for _, g := range f.Groups {
		others = append(others, g.Other...)
	}
	for _, l := range others {
		switch l.Kind {
		case KindCrawlDelay:
			if _, err := strconv.ParseFloat(l.Value, 64); err != nil {
				add(CodeCrawlDelay, l.Num, "Crawl-delay %q is not a number of seconds", l.Value)
			} else {
				add(CodeCrawlDelay, l.Num, "Crawl-delay is not part of RFC 9309 and Google ignores it")
			}
		case KindExtension:
			if !KnownField(l.Key) {
				if s := suggest(l.Key); s != "" {
					add(CodeUnknownField, l.Num, "unknown field %q; did you mean %q?", l.Key, s)
				} else {
					add(CodeUnknownField, l.Num, "unknown field %q is ignored by RFC 9309 readers", l.Key)
				}
			}
		}
	}
	for _, l := range f.Sitemaps {
		if u, err := url.Parse(l.Value); err != nil || u.Scheme == "" || u.Host == "" {
			add(CodeRelativeSitemap, l.Num, "Sitemap %q is not an absolute URL", l.Value)
		}
	}
	for _, l := range f.Hosts {
		add(CodeHost, l.Num, "Host is not part of RFC 9309; Google ignores it")
	}
}

// suggest returns the known field closest to key, if it is close: within
// two edits for long names, one for short ones.
func suggest(key string) string {
	k := strings.ToLower(key)
	best, bestD := "", 3
	for _, f := range knownFields {
		limit := 1
		if len(f) >= 6 {
			limit = 2
		}
		if d := editdist.Levenshtein(k, f); d <= limit && d < bestD {
			best, bestD = f, d
		}
	}
	if best == "" {
		return ""
	}
	return strings.ToUpper(best[:1]) + best[1:]
}
