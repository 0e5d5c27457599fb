package robots

import (
	"fmt"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/rfc3986"
)

// Portability reports what Emit cannot make every reader agree on, naming
// the agent and the pattern:
//
//   - R016: '*' or '$' in a path. RFC 9309 reads them as wildcards, the 1996
//     draft as characters (and temoto/robotstxt does not anchor them at the
//     start of the path), so no order of lines makes the readings agree.
//   - R017: an Allow path ending in /index.htm or /index.html. Google also
//     allows the directory itself (robots_test.cc,
//     GoogleOnly_IndexHTMLisDirectory); other readers do not.
//   - R018: a percent-encoded reserved character other than %2F (%3F). The
//     1996 draft decodes it and then equals the character itself (?), which
//     RFC 9309 keeps distinct.
//   - R019: more than 3 '~' in a path: Emit writes the path with all or no
//     tildes escaped, not every mix, so a URL escaping only some of them may
//     be read differently.
//   - R020: Crawl-delay. It is not part of RFC 9309 and Google ignores it;
//     an agent given different delays in several groups gets the first.
//   - R026: two listed agents, one's name part of the other's ("bot",
//     "googlebot"), with different rules. The 1996 draft needs the shorter
//     name's record first (a robot obeys the first record whose value
//     contains its name); Python's urllib.robotparser, Ruby's webrobots and
//     Perl's WWW::RobotRules read the other way round (the first record
//     whose name is part of the robot's name) and need it last. Emit serves
//     the 1996 draft; those three give the longer name the shorter one's
//     rules. Reported on the longer name, once per pair.
//   - R028: a path starting with "//". Python's urllib.robotparser and
//     protego, and Perl's WWW::RobotRules, parse the rule as a URL, so "//x"
//     names a host, not a path.
//   - R030: a path ending with an empty query "?". The Python readers drop
//     it from rules; they and npm robots-parser and robots-txt-guard drop it
//     from URLs ("/?" is "/" to them).
//   - R029: an Allow rule. Perl's WWW::RobotRules implements the 1994
//     standard, which has no Allow: it ignores the line, so URLs the rule
//     allows are disallowed there when a shorter Disallow matches them.
//     Reported per agent only where a Disallow of the agent's could match
//     a URL the Allow matches.
//   - R027: a one-character agent name. temoto/robotstxt ranks "*" as a
//     one-character match and picks a group only for a longer one, so it
//     gives such an agent the "*" rules.
func Portability(p Policy) []Finding {
	var out []Finding
	add := func(code, agent, pattern, format string, args ...any) {
		out = append(out, Finding{Code: code, Severity: diag.Warning, Agent: agent, Pattern: pattern,
			Message: fmt.Sprintf(format, args...)})
	}
	delays := map[string]string{}
	for _, g := range p.inherited().Groups {
		agents := strings.Join(g.Agents, ", ")
		for _, r := range g.Rules {
			cp := Canonical(r.Path)
			if strings.HasSuffix(cp, "?") {
				add(CodeEmptyQuery, agents, r.Path,
					"agent %s: %q ends with an empty query, which Python's urllib.robotparser and protego drop from the rule, and they and npm robots-parser and robots-txt-guard from the URL", agents, r.Path)
			}
			if strings.HasPrefix(cp, "//") {
				add(CodeDoubleSlash, agents, r.Path,
					"agent %s: %q starts with //, which Python's urllib.robotparser and protego and Perl's WWW::RobotRules read as a host name, not a path", agents, r.Path)
			}
			if strings.ContainsAny(cp, "*$") {
				add(CodeWildcard, agents, r.Path,
					"agent %s: %q uses '*' or '$', which the 1996 draft reads as plain characters (and temoto/robotstxt matches anywhere in the path); readers may disagree on URLs this pattern covers", agents, r.Path)
			}
			if r.Allow {
				last := cp[strings.LastIndexByte(cp, '/')+1:]
				if strings.HasPrefix(last, "index.htm") && strings.IndexByte(cp, '/') >= 0 {
					add(CodeIndexHTML, agents, r.Path,
						"agent %s: Google reads Allow %q as also allowing %q; other readers do not", agents, r.Path, cp[:len(cp)-len(last)])
				}
			}
			if e := reservedEscape(cp); e != "" {
				add(CodeReservedEscape, agents, r.Path,
					"agent %s: %q escapes a reserved character (%s), which the 1996 draft decodes and then matches the unescaped character too", agents, r.Path, e)
			}
			if strings.Count(cp, "~") > maxTildes {
				add(CodeTildeVariants, agents, r.Path,
					"agent %s: %q has more than %d '~'; URLs escaping only some of them as %%7E may be read differently by Google", agents, r.Path, maxTildes)
			}
		}
		for _, a := range g.Agents {
			if a != "*" && len(a) == 1 {
				add(CodeShortName, a, "", "agent %s: temoto/robotstxt never prefers a one-character name's group to \"*\", so it gives %s the \"*\" rules", a, a)
			}
		}
		if g.CrawlDelay != "" {
			add(CodeCrawlDelay, agents, "", "agent %s: Crawl-delay is not part of RFC 9309 and Google ignores it", agents)
			for _, a := range g.Agents {
				k := strings.ToLower(a)
				if d, ok := delays[k]; ok && d != g.CrawlDelay {
					add(CodeCrawlDelay, a, "", "agent %s has Crawl-delay %s and %s in different groups; %s is written", a, d, g.CrawlDelay, d)
				} else if !ok {
					delays[k] = g.CrawlDelay
				}
			}
		}
	}
	out = append(out, substringNames(p)...)
	out = append(out, allowUnread(p)...)
	return out
}

// allowUnread reports R029 (see Portability), once per agent and Allow
// rule that a Disallow of the same agent could override for WWW::RobotRules.
func allowUnread(p Policy) []Finding {
	var out []Finding
	for _, rec := range plan(p) {
		for _, a := range rec.cfg.rules {
			if !a.Allow || strings.ContainsAny(a.Path, "*$") {
				continue
			}
			for _, d := range rec.cfg.rules {
				if d.Allow || !strings.HasPrefix(a.Path, strings.TrimRight(d.Path, "*$")) {
					continue
				}
				out = append(out, Finding{Code: CodeAllowUnread, Severity: diag.Warning, Agent: rec.agents[0], Pattern: a.Path,
					Message: fmt.Sprintf("agent %s: Perl's WWW::RobotRules reads no Allow lines (the 1994 standard has none), so it disallows what \"Allow: %s\" allows under \"Disallow: %s\"", rec.agents[0], a.Path, d.Path)})
				break
			}
		}
	}
	return out
}

// SubstringReaders names the readers R026 is about.
const SubstringReaders = "Python's urllib.robotparser, Ruby's webrobots and Perl's WWW::RobotRules"

// substringNames reports R026 (see Portability).
func substringNames(p Policy) []Finding {
	recs := plan(p)
	var out []Finding
	for i := range recs {
		for j := range recs {
			a, b := recs[i], recs[j]
			if i == j || a.agents[0] == "*" || b.agents[0] == "*" {
				continue
			}
			la, lb := a.lower[0], b.lower[0]
			if len(la) >= len(lb) || !strings.Contains(lb, la) || sameRules(a.cfg, b.cfg) {
				continue
			}
			out = append(out, Finding{Code: CodeSubstringNames, Severity: diag.Warning, Agent: b.agents[0],
				Message: fmt.Sprintf("agents %s and %s have different rules and %s is part of %s: %s give %s the rules of %s (they obey the first record whose name is part of the robot's name; the 1996 draft needs %s's record first)",
					a.agents[0], b.agents[0], a.agents[0], b.agents[0], SubstringReaders, b.agents[0], a.agents[0], a.agents[0])})
		}
	}
	return out
}

// sameRules reports whether two records' rules are the same set.
func sameRules(a, b *config) bool {
	if len(a.rules) != len(b.rules) {
		return false
	}
	set := map[PathRule]bool{}
	for _, r := range a.rules {
		set[r] = true
	}
	for _, r := range b.rules {
		if !set[r] {
			return false
		}
	}
	return true
}

// reservedEscape returns the first escape in a canonical path of an RFC 3986
// reserved character other than '/', or "".
func reservedEscape(p string) string {
	for i := 0; i+2 < len(p); i++ {
		if p[i] != '%' {
			continue
		}
		v := rfc3986.Unhex(p[i+1])<<4 | rfc3986.Unhex(p[i+2])
		if v != '/' && strings.IndexByte(":?#[]@!$&'()*+,;=", v) >= 0 {
			return p[i : i+3]
		}
		i += 2
	}
	return ""
}
