// Package robots reads, checks and writes robots.txt files.
//
// Parse reads a file as liberally as Google's open-source parser
// (google/robotstxt): CR, LF and CRLF line ends, a UTF-8 byte order mark,
// comments anywhere, common misspellings of the directive names and a
// missing colon. Each line keeps its number, so a Verdict can name the rule
// that decided it.
//
// A parsed File answers under two readings:
//
//   - Match reads it as RFC 9309 does, with Google's choices where the RFC
//     leaves room (see match.go): one group per product token, groups for the
//     same token merged, the longest matching pattern wins, Allow wins a tie,
//     '*' and '$' are wildcards.
//   - Match1996 reads it as the 1996 robots.txt draft does (the fict.org text
//     carried by seed 001): the first record whose User-agent value contains
//     the robot's name, the first matching rule in file order, %xx decoded
//     before comparison except %2F, no wildcards.
//
// A Policy is what a manifest says (it means RFC 9309); Policy.Evaluate
// answers for it directly, over canonical paths. Emit writes it so that every
// reader we know gives the policy's verdicts: RFC 9309 and Google, the 1996
// draft, and temoto/robotstxt (longest match, ties to the first rule). Emit's
// comment explains the order of lines and what is guaranteed; Portability
// reports what no order of lines can make agree.
//
// Lint checks an existing file and returns findings with stable codes
// (R001...); File.Check answers one agent and URL under both readings;
// File.MobileAgentServer resolves seed 002's Mobile-agent-server lines.
//
// Usage preferences (usage.go) say what may be done with what a crawler
// fetched: a PolicyGroup's Usage is written as Content-Usage
// (draft-ietf-aipref-attach-05, draft-ietf-aipref-vocab-07) and
// Content-Signal (contentsignals.org) lines in each of its records, their
// values by package aipref; ParseUsageLine reads them back (the path here,
// the RFC 9651 dictionary by aipref) for lint (R032-R035, lintusage.go),
// import and File.Usage, which answers what an agent reads for a URL.
//
// Some operators document readings beyond RFC 9309's choice of group
// (fallback.go, with the chains as data in fallbacks.json, each with its
// source): Googlebot-Image obeys the Googlebot group where no group names
// it, and Google-Extended is a control token that never fetches.
// File.MatchOperator answers under such a reading; File.MatchEffective
// under the reading the crawler carrying a token actually applies.
package robots
