package robots

import (
	"bytes"
	"slices"
	"strings"
)

// Emit writes a policy as robots.txt bytes that give the policy's verdicts
// (Evaluate) under every reading we know: RFC 9309 and Google's parser, the
// 1996 draft (Match1996) and temoto/robotstxt. How, and why the order is
// what it is:
//
//  1. Groups naming the same agent (case insensitively) are merged, and
//     each agent gets a record of its own (one User-agent line). Each agent
//     appears in exactly one record, so readers that merge groups (RFC
//     9309, temoto) and readers that take the first matching record (1996)
//     see the same rules; and readers that give a record's rules to its
//     last User-agent line only (npm robots-txt-parser) lose nothing.
//  2. A 1996 robot obeys the first record whose User-agent value contains
//     its name. So a record naming "bot" must come before one naming
//     "googlebot", or robot "bot" would obey googlebot's rules. Records are
//     sorted so that every name comes before the names that contain it
//     (longer names); manifest order is kept where no such constraint
//     applies (single names never form a cycle, since a name that contains
//     another is longer). Readers that obey the first record whose name is
//     a substring of the robot's (Python's urllib.robotparser, Ruby's
//     webrobots, Perl's WWW::RobotRules) need the opposite order, so where
//     such names have different rules Portability warns (R026).
//  3. The "*" record comes last. RFC 9309 and temoto use it only as a
//     fallback wherever it is, but old readers that stop at the first
//     matching record, "*" included, then still see the specific records.
//  4. Within a record, rules are sorted by decreasing length, Allow before
//     Disallow at equal length. A first-match reader (1996) then meets the
//     longest matching rule first, which is the rule a longest-match reader
//     (RFC 9309, temoto) picks; at equal length, Allow, which RFC 9309
//     prefers and temoto picks as the first of a tie. (A Disallow with the
//     same path as an Allow never decides, so it is not written at all.)
//  5. Paths are written in Canonical form. A '~' is also written as %7E in
//     every combination (up to 3 tildes a path: /~mak and /%7Emak), because
//     URLs often arrive with ~ escaped and Google and temoto compare escapes
//     literally; the 1996 draft decodes both spellings to the same path.
//     Spellings of one rule differ only by escaped tildes, so a URL matches
//     exactly one spelling under Google and temoto, and the longer rule
//     stays longer in every spelling: the verdict is the same.
//  6. A record with no rules gets an empty "Disallow:", the 1996 draft's way
//     to allow everything (its grammar requires a rule line in a record).
//     Without a rule line the record's User-agent lines would run into the
//     next record's, and every reader would fuse the two.
//  8. Usage preferences (usage.go) follow the record's Allow and Disallow
//     lines (and its empty "Disallow:"), before Crawl-delay and extension
//     lines: Content-Usage without a path, Content-Usage per path, then
//     Content-Signal. Every record gets its agent's effective preferences,
//     since a crawler reads only the group that names it. After the rules,
//     no reader can take a preference line for the end of a record's
//     User-agent lines, and a 1996 reader has met its rule line first:
//     TestUsageVerdictsUnchanged checks, with the ten parsers, that the
//     lines change no verdict. A "*" record carries the site's
//     preferences when no group is for "*" (Policy.Usage).
//  7. Mobile-agent-server (least to most specific path, since seed 002 says
//     later lines override earlier ones), Host and Sitemap lines come after
//     all records, in that order: Ruby's webrobots rejects a whole file
//     (and then allows everything) when Host or Mobile-agent-server follows
//     a Sitemap line. License lines (RSL 1.0, global, not part of any
//     group) come last: TestUsageVerdictsUnchanged checks with the ten
//     parsers that they change no verdict there.
//
// What is guaranteed, for policies without wildcards and without more than 3
// '~' in a path: every listed agent, every unlisted agent whose name is not a
// substring of a listed name, and URLs in RFC 3986 normal form (unreserved
// characters not escaped, hex in upper case) except that '~' may be escaped
// as %7E. Not guaranteed:
//
//   - An unlisted robot whose name is a substring of a listed name (robot
//     "crawler", listed "webcrawler") obeys that record under the 1996 draft
//     but "*" under RFC 9309; only a record per such substring could protect
//     it. Real temoto/robotstxt also picks a group by prefix, so unlisted
//     "googlebot-news" reads the "googlebot" record there.
//   - '*' and '$' are literal to a 1996 reader, an escaped reserved
//     character (%3F) equals the character (?) to it, and Google reads
//     "Allow: /d/index.html" as also allowing /d/. Portability reports each.
func Emit(p Policy) ([]byte, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	records := plan(p)
	// Records of one group share its rules and usage (see groupRules):
	// their lines are made once.
	type rulesKey struct {
		first *PathRule
		n     int
	}
	ruleLines := map[rulesKey][]string{}
	usageLines := map[*Usage][]string{}
	var b bytes.Buffer
	line := func(parts ...string) {
		for _, s := range parts {
			b.WriteString(s)
		}
		b.WriteByte('\n')
	}
	for i, r := range records {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, a := range r.agents {
			line("User-agent: ", a)
		}
		var rules []string
		if rs := r.cfg.rules; len(rs) > 0 {
			k := rulesKey{&rs[0], len(rs)}
			if rules = ruleLines[k]; rules == nil {
				rules = r.cfg.ruleLines()
				ruleLines[k] = rules
			}
		}
		if len(rules) == 0 {
			line("Disallow:")
		}
		for _, l := range rules {
			line(l)
		}
		ul, ok := usageLines[r.cfg.usage]
		if !ok {
			ul = r.cfg.usage.Lines()
			usageLines[r.cfg.usage] = ul
		}
		for _, l := range ul {
			line(l)
		}
		if r.cfg.crawlDelay != "" {
			line("Crawl-delay: ", r.cfg.crawlDelay)
		}
		for _, e := range r.cfg.extensions {
			line(e.Field, ": ", e.Value)
		}
	}
	tail := len(p.Sitemaps) > 0 || len(p.MobileAgents) > 0 || p.Host != "" || len(p.Licenses) > 0
	if tail && b.Len() > 0 {
		b.WriteByte('\n')
	}
	for _, m := range sortedMobileAgents(p.MobileAgents) {
		line("Mobile-agent-server: ", Canonical(m.Path), " ", m.Server)
	}
	if p.Host != "" {
		line("Host: ", p.Host)
	}
	for _, s := range p.Sitemaps {
		line("Sitemap: ", s)
	}
	for _, l := range p.Licenses {
		line("License: ", l)
	}
	return b.Bytes(), nil
}

// sortedMobileAgents orders Mobile-agent-server lines from least to most
// specific: a path before the paths it is a prefix of, shorter first,
// manifest order among equals.
func sortedMobileAgents(ms []MobileAgent) []MobileAgent {
	out := slices.Clone(ms)
	slices.SortStableFunc(out, func(a, b MobileAgent) int {
		return len(Canonical(a.Path)) - len(Canonical(b.Path))
	})
	return out
}

// config is everything one agent's record says.
type config struct {
	rules      []PathRule // canonical, no duplicates, no empty paths
	crawlDelay string
	extensions []Extension
	usage      *Usage // preference lines; nil for none
}

// maxTildes is the most '~' a path may have for Emit to write every
// spelling of it with %7E (2^maxTildes lines).
const maxTildes = 3

// ruleLines returns the record's Allow and Disallow lines, every spelling
// included, longest first, Allow before Disallow at equal length, then by
// text so the output is deterministic.
func (c *config) ruleLines() []string {
	type line struct {
		allow bool
		path  string
	}
	var ls []line
	seen := map[line]bool{}
	for _, r := range c.rules {
		for _, v := range spellings(r.Path) {
			l := line{r.Allow, v}
			if !seen[l] {
				seen[l] = true
				ls = append(ls, l)
			}
		}
	}
	slices.SortFunc(ls, func(a, b line) int {
		if len(a.path) != len(b.path) {
			return len(b.path) - len(a.path)
		}
		if a.allow != b.allow {
			if a.allow {
				return -1
			}
			return 1
		}
		return strings.Compare(a.path, b.path)
	})
	out := make([]string, len(ls))
	for i, l := range ls {
		if l.allow {
			out[i] = "Allow: " + l.path
		} else {
			out[i] = "Disallow: " + l.path
		}
	}
	return out
}

// spellings returns a canonical path and, when it has up to maxTildes '~',
// every spelling with some of them written %7E; with more, the path and its
// spelling with all of them escaped.
func spellings(p string) []string {
	n := strings.Count(p, "~")
	if n == 0 {
		return []string{p}
	}
	if n > maxTildes {
		return []string{p, strings.ReplaceAll(p, "~", "%7E")}
	}
	out := make([]string, 0, 1<<n)
	for mask := 0; mask < 1<<n; mask++ {
		var b strings.Builder
		k := 0
		for i := 0; i < len(p); i++ {
			if p[i] != '~' {
				b.WriteByte(p[i])
				continue
			}
			if mask&(1<<k) != 0 {
				b.WriteString("%7E")
			} else {
				b.WriteByte('~')
			}
			k++
		}
		out = append(out, b.String())
	}
	return out
}
