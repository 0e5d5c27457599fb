package robots

import (
	"fmt"
	"slices"
	"strconv"
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
//     GoogleOnly_IndexHTMLisDirectory), and so does Python's protego for
//     /index.html (the directory exactly, "/d/$"); other readers do not.
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
//   - R036: a rule with '~' that Emit also writes with %7E (longer by two
//     bytes a tilde), where the agent has a rule of the other kind longer
//     than the path (for a Disallow, as long) and at most as long as that
//     spelling. npm
//     robots-txt-parser matches each rule anywhere in the URL and lets the
//     longest decide: in a URL that the other rule starts and that holds
//     the escaped spelling, the spelling decides there, where RFC 9309
//     (and the same reader on the URL with '~') reads the other rule.
//     Matching anywhere is that reader's documented limit; this is the
//     part of it that the written spellings, not the manifest, cause.
//   - R027: a one-character agent name. temoto/robotstxt ranks "*" as a
//     one-character match and picks a group only for a longer one, so it
//     gives such an agent the "*" rules.
func Portability(p Policy) []Finding {
	var out []Finding
	delays := map[string]string{}
	for _, g := range p.inherited().Groups {
		for _, r := range g.Rules {
			out = append(out, RuleFindings(g.Agents, r)...)
		}
		out = append(out, shortNames(g.Agents)...)
		if g.CrawlDelay != "" {
			out = append(out, Finding{Code: CodeCrawlDelay, Severity: diag.Warning, Agent: agentList(g.Agents),
				Message: fmt.Sprintf("agent %s: Crawl-delay is not part of RFC 9309 and Google ignores it", agentList(g.Agents))})
			for _, a := range g.Agents {
				k := strings.ToLower(a)
				if d, ok := delays[k]; ok && d != g.CrawlDelay {
					out = append(out, Finding{Code: CodeCrawlDelay, Severity: diag.Warning, Agent: a,
						Message: fmt.Sprintf("agent %s has Crawl-delay %s and %s in different groups; %s is written", a, d, g.CrawlDelay, d)})
				} else if !ok {
					delays[k] = g.CrawlDelay
				}
			}
		}
	}
	out = append(out, substringNames(p)...)
	out = append(out, allowUnread(p)...)
	out = append(out, EscapedTildeFindings(p)...)
	return out
}

// NameFindings gives the findings of Portability about the policy's agent
// names as a whole: R026 and R027. Its cost is linear in the names' length
// plus the pairs it reports, at most maxSubstringFindings of them.
func NameFindings(p Policy) []Finding {
	var out []Finding
	for _, g := range p.Groups {
		out = append(out, shortNames(g.Agents)...)
	}
	return append(out, substringNames(p)...)
}

// shortNames reports R027 (see Portability).
func shortNames(agents []string) []Finding {
	var out []Finding
	for _, a := range agents {
		if a != "*" && len(a) == 1 {
			out = append(out, Finding{Code: CodeShortName, Severity: diag.Warning, Agent: a,
				Message: fmt.Sprintf("agent %s: temoto/robotstxt never prefers a one-character name's group to \"*\", so it gives %s the \"*\" rules", a, a)})
		}
	}
	return out
}

// maxListedAgents is how many agents a finding about a group names before
// it counts the rest.
const maxListedAgents = 5

// agentList names a group's agents for a message: the first
// maxListedAgents, then how many more.
func agentList(agents []string) string {
	if len(agents) <= maxListedAgents {
		return strings.Join(agents, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(agents[:maxListedAgents], ", "), len(agents)-maxListedAgents)
}

// RuleFindings gives the findings of Portability about one rule of a
// group whose agents are given (R016 to R019, R028, R030).
func RuleFindings(agentNames []string, r PathRule) []Finding {
	var out []Finding
	var agents string
	add := func(code, format string, args ...any) {
		out = append(out, Finding{Code: code, Severity: diag.Warning, Agent: agents, Pattern: r.Path,
			Message: fmt.Sprintf(format, args...)})
	}
	cp := Canonical(r.Path)
	if !strings.HasSuffix(cp, "?") && !strings.HasPrefix(cp, "//") && !strings.ContainsAny(cp, "*$%~") && !r.Allow {
		return nil
	}
	agents = agentList(agentNames)
	if strings.HasSuffix(cp, "?") {
		add(CodeEmptyQuery,
			"agent %s: %q ends with an empty query, which Python's urllib.robotparser and protego drop from the rule, and they and npm robots-parser and robots-txt-guard from the URL", agents, r.Path)
	}
	if strings.HasPrefix(cp, "//") {
		add(CodeDoubleSlash,
			"agent %s: %q starts with //, which Python's urllib.robotparser and protego and Perl's WWW::RobotRules read as a host name, not a path", agents, r.Path)
	}
	if strings.ContainsAny(cp, "*$") {
		add(CodeWildcard,
			"agent %s: %q uses '*' or '$', which the 1996 draft reads as plain characters (and temoto/robotstxt matches anywhere in the path); readers may disagree on URLs this pattern covers", agents, r.Path)
	}
	if r.Allow {
		last := cp[strings.LastIndexByte(cp, '/')+1:]
		if strings.HasPrefix(last, "index.htm") && strings.IndexByte(cp, '/') >= 0 {
			readers := "Google reads"
			if last == "index.html" {
				readers = "Google and Python's protego read" // protego: an Allow ending in /index.html also allows the directory ($)
			}
			add(CodeIndexHTML,
				"agent %s: %s Allow %q as also allowing %q; other readers do not", agents, readers, r.Path, cp[:len(cp)-len(last)])
		}
	}
	if e := reservedEscape(cp); e != "" {
		add(CodeReservedEscape,
			"agent %s: %q escapes a reserved character (%s), which the 1996 draft decodes and then matches the unescaped character too", agents, r.Path, e)
	}
	if strings.Count(cp, "~") > maxTildes {
		add(CodeTildeVariants,
			"agent %s: %q has more than %d '~'; URLs escaping only some of them as %%7E may be read differently by Google", agents, r.Path, maxTildes)
	}
	return out
}

// EscapedTildeFindings gives R036 (see Portability), once per rule of a
// group (its agents named together). It sorts each record's rule lengths
// once, so it costs the rules' number times its logarithm.
func EscapedTildeFindings(p Policy) []Finding {
	var out []Finding
	type rulesKey struct {
		first *PathRule
		n     int
	}
	type shared struct {
		rules  []PathRule
		agents []string
	}
	var order []rulesKey
	byRules := map[rulesKey]*shared{}
	for _, rec := range plan(p) {
		rs := rec.cfg.rules
		if len(rs) == 0 {
			continue
		}
		k := rulesKey{&rs[0], len(rs)}
		if byRules[k] == nil {
			byRules[k] = &shared{rules: rs}
			order = append(order, k)
		}
		byRules[k].agents = append(byRules[k].agents, rec.agents[0])
	}
	for _, k := range order {
		sh := byRules[k]
		var tilde bool
		var lens [2][]int // Disallow, Allow: the lengths of wildcard-free paths
		for _, r := range sh.rules {
			if strings.ContainsAny(r.Path, "*$") {
				continue
			}
			tilde = tilde || strings.Contains(r.Path, "~")
			lens[boolIndex(r.Allow)] = append(lens[boolIndex(r.Allow)], len(r.Path))
		}
		if !tilde {
			continue
		}
		slices.Sort(lens[0])
		slices.Sort(lens[1])
		for _, a := range sh.rules {
			n := strings.Count(a.Path, "~")
			if n == 0 || strings.ContainsAny(a.Path, "*$") {
				continue
			}
			long := len(a.Path) + 2*n
			other := lens[1-boolIndex(a.Allow)]
			// The longest rule of the other kind no longer than the
			// escaped spelling, and longer than the path: there the
			// reader reads the URL with '~' by the other rule and the URL
			// with %7E by this one. At equal length it prefers Allow, so
			// a Disallow's spelling also outranks an Allow as long as its
			// path.
			i, _ := slices.BinarySearch(other, long+1)
			if i == 0 || other[i-1] < len(a.Path) || other[i-1] == len(a.Path) && a.Allow {
				continue
			}
			b := findRule(sh.rules, !a.Allow, other[i-1])
			esc := strings.ReplaceAll(a.Path, "~", "%7E")
			example := strings.TrimSuffix(b.Path, "/") + "/a" + esc
			out = append(out, Finding{Code: CodeEscapedTilde, Severity: diag.Warning, Agent: agentList(sh.agents), Pattern: a.Path,
				Message: fmt.Sprintf("agent %s: npm robots-txt-parser matches each rule anywhere in the URL and lets the longest decide; %s %q is also written %q (URLs often escape '~'), as long as %s %q or longer, so in a URL such as %q it decides there, where RFC 9309 reads %s %q",
					agentList(sh.agents), ruleKind(a.Allow), a.Path, esc, ruleKind(b.Allow), b.Path, example, ruleKind(b.Allow), b.Path)})
		}
	}
	return out
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

func ruleKind(allow bool) string {
	if allow {
		return "Allow"
	}
	return "Disallow"
}

// findRule returns the first wildcard-free rule of rs of the kind allow
// whose path is n bytes long.
func findRule(rs []PathRule, allow bool, n int) PathRule {
	for _, r := range rs {
		if r.Allow == allow && len(r.Path) == n && !strings.ContainsAny(r.Path, "*$") {
			return r
		}
	}
	return PathRule{}
}

// allowUnread reports R029 (see Portability), once per agent and Allow
// rule that a Disallow of the same agent could override for WWW::RobotRules:
// the first Disallow, in the record's order, whose path without its
// trailing wildcards starts the Allow's. It looks up each prefix of the
// Allow among the Disallows, so it costs the rules' length, not their
// number squared.
func allowUnread(p Policy) []Finding {
	var out []Finding
	for _, rec := range plan(p) {
		first := map[string]int{} // a Disallow's path without trailing "*$" -> its first index
		for i, d := range rec.cfg.rules {
			if k := strings.TrimRight(d.Path, "*$"); !d.Allow {
				if _, ok := first[k]; !ok {
					first[k] = i
				}
			}
		}
		if len(first) == 0 {
			continue
		}
		for _, a := range rec.cfg.rules {
			if !a.Allow || strings.ContainsAny(a.Path, "*$") {
				continue
			}
			best := -1
			for n := 0; n <= len(a.Path); n++ {
				if i, ok := first[a.Path[:n]]; ok && (best < 0 || i < best) {
					best = i
				}
			}
			if best < 0 {
				continue
			}
			d := rec.cfg.rules[best]
			out = append(out, Finding{Code: CodeAllowUnread, Severity: diag.Warning, Agent: rec.agents[0], Pattern: a.Path,
				Message: fmt.Sprintf("agent %s: Perl's WWW::RobotRules reads no Allow lines (the 1994 standard has none), so it disallows what \"Allow: %s\" allows under \"Disallow: %s\"", rec.agents[0], a.Path, d.Path)})
		}
	}
	return out
}

// SubstringReaders names the readers R026 is about.
const SubstringReaders = "Python's urllib.robotparser, Ruby's webrobots and Perl's WWW::RobotRules"

// PartOfNameReaders names the readers that give a robot no record of its
// own the record of a listed name part of its name: SubstringReaders,
// which take the first such record, and Python's protego and npm
// robots-txt-guard, which take the one with the longest name (so they are
// not among R026's: for two listed names they pick the longer, as the
// 1996 draft's order does).
const PartOfNameReaders = "Python's urllib.robotparser and protego, Ruby's webrobots, Perl's WWW::RobotRules and npm robots-txt-guard"

// maxSubstringFindings bounds the R026 findings of one policy: a policy
// can hold millions of pairs of names part of one another ("a", "aa",
// "aaa", ...). Past it, one more finding says that more pairs exist.
const maxSubstringFindings = 100

// substringNames reports R026 (see Portability): for each record in
// order, the records of names part of its name with other rules, in
// order. A name index finds them (see nameIndex), so the cost is the
// names' length plus the pairs found, not the number of names squared.
func substringNames(p Policy) []Finding {
	recs := plan(p)
	names := make([]string, len(recs))
	for i, r := range recs {
		if r.agents[0] != "*" {
			names[i] = r.lower[0] // "*" is never part of a name, nor holds one
		}
	}
	// Records with equal rule sets share a number, found only for the
	// records of a pair: most names are part of no other.
	ruleSets := make([]int, len(recs)) // number + 1, 0 until found
	sets := map[string]int{}
	ruleSet := func(i int) int {
		if ruleSets[i] == 0 {
			k := ruleKey(recs[i].cfg)
			if _, ok := sets[k]; !ok {
				sets[k] = len(sets) + 1
			}
			ruleSets[i] = sets[k]
		}
		return ruleSets[i]
	}
	var inside func(j int, f func(i int))
	if p.Names != nil {
		inside = newRecordNames(names, p.Names).inside
	} else {
		x := newNameIndex(names)
		inside = func(j int, f func(i int)) { x.inside(names[j], j, f) }
	}
	var out []Finding
	var parts []int
	for j, b := range recs {
		if names[j] == "" {
			continue
		}
		parts = parts[:0]
		inside(j, func(i int) {
			if names[i] != "" && ruleSet(i) != ruleSet(j) {
				parts = append(parts, i)
			}
		})
		slices.Sort(parts)
		for _, i := range parts {
			if len(out) == maxSubstringFindings {
				return append(out, Finding{Code: CodeSubstringNames, Severity: diag.Warning,
					Message: fmt.Sprintf("more listed agents have different rules and one's name part of another's than the %d named; %s may give them each other's rules", maxSubstringFindings, SubstringReaders)})
			}
			a := recs[i]
			out = append(out, Finding{Code: CodeSubstringNames, Severity: diag.Warning, Agent: b.agents[0],
				Message: fmt.Sprintf("agents %s and %s have different rules and %s is part of %s: %s give %s the rules of %s (they obey the first record whose name is part of the robot's name; the 1996 draft needs %s's record first)",
					a.agents[0], b.agents[0], a.agents[0], b.agents[0], SubstringReaders, b.agents[0], a.agents[0], a.agents[0])})
		}
	}
	return out
}

// ruleKey is a record's rule set as a string, the same for the same set.
func ruleKey(c *config) string {
	keys := make([]string, len(c.rules))
	for i, r := range c.rules {
		keys[i] = strconv.FormatBool(r.Allow) + " " + r.Path
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	return strings.Join(keys, "\n")
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
