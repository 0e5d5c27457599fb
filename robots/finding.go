package robots

import (
	"fmt"

	"github.com/discgen/discgen/diag"
)

// Finding is a problem found in a file or a policy. Codes are stable: tools
// may match on them.
type Finding struct {
	Code     string
	Severity diag.Severity
	Line     int    // 0 when the finding is about a policy or the whole file
	Agent    string // the agent concerned, if any
	Pattern  string // the rule path concerned, if any
	Message  string
}

func (f Finding) String() string {
	if f.Line > 0 {
		return fmt.Sprintf("%d: %s %s: %s", f.Line, f.Severity, f.Code, f.Message)
	}
	return fmt.Sprintf("%s %s: %s", f.Severity, f.Code, f.Message)
}

// Finding codes.
const (
	CodeUnknownField    = "R001" // unknown directive; did you mean ...
	CodeOutsideGroup    = "R002" // rule before any User-agent line
	CodeBadStart        = "R003" // pattern starts with neither '/' nor '*'
	CodeDollarInside    = "R004" // '$' not at the end of a pattern
	CodeBadToken        = "R005" // User-agent value is not a product token
	CodeDuplicateGroup  = "R006" // several groups name one agent
	CodeShadowed        = "R007" // rule can never decide any URL
	CodeConflict        = "R008" // Allow and Disallow of equal length
	CodeReadingsDiffer  = "R009" // RFC 9309 and 1996 readings differ
	CodeRelativeSitemap = "R010" // Sitemap URL is not absolute
	CodeHost            = "R011" // Host line
	CodeTooLarge        = "R012" // file over 500 KiB
	CodeTypo            = "R013" // misspelled key read as a known one
	CodeNoColon         = "R014" // key and value without ':'
	CodeLineTooLong     = "R015" // line cut at MaxLineLen
	CodeWildcard        = "R016" // wildcard the 1996 draft reads literally
	CodeIndexHTML       = "R017" // Google also allows the directory
	CodeReservedEscape  = "R018" // escaped reserved character
	CodeTildeVariants   = "R019" // too many '~' to write every spelling
	CodeCrawlDelay      = "R020" // conflicting or non-standard Crawl-delay
	CodeUnreadable      = "R021" // line with no key/value separator
	CodeCrawlerName     = "R022" // crawler name Google reads only in part
	CodeNoInherit       = "R023" // named group drops the "*" group's disallows
	CodeBlankInAgents   = "R024" // blank line inside a run of User-agent lines
	CodeRedundant       = "R025" // rule that never changes a verdict
	CodeSubstringNames  = "R026" // listed names part of one another, different rules
	CodeShortName       = "R027" // one-character name temoto reads as "*"
	CodeDoubleSlash     = "R028" // path starting with //, read as a host
	CodeAllowUnread     = "R029" // Allow a 1994-standard reader ignores
	CodeEmptyQuery      = "R030" // path ending with an empty query
	CodeNotEnforced     = "R031" // rule server configuration cannot enforce
	CodeEscapedTilde    = "R036" // %7E spelling outranks a rule for an unanchored reader
	CodeTooManyLines    = "R037" // more lines than lint checks
)
