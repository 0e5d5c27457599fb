package robots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discgen/discgen/diag"
)

// Policy is what a manifest says about crawlers. It means RFC 9309.
type Policy struct {
	Groups       []PolicyGroup
	Sitemaps     []string      // absolute URLs
	MobileAgents []MobileAgent // seed 002 Mobile-agent-server lines
	Host         string        // a Host line; none when empty
	// Licenses are RSL 1.0 License lines (absolute URLs): global lines,
	// written after every record (see Emit).
	Licenses []string
	// Usage is the site's usage preferences: when no group is for "*",
	// Emit adds a "*" record that carries them (and no rule, so no
	// verdict changes), for crawlers no group names. Each group carries
	// its own effective preferences in PolicyGroup.Usage.
	Usage *Usage
	// Names, when set, is an index of names that many policies share
	// (the crawler catalogue's, which presets add): the work on the
	// names as a whole (the order of records, R026) uses it and indexes
	// only the policy's other names, and the order of a policy's records
	// is remembered in it for the next plan of the same names. It changes
	// no result.
	Names *NameSet
}

// PolicyGroup is one entry of the manifest's agents list.
type PolicyGroup struct {
	Agents []string   // product tokens, or "*"
	Rules  []PathRule // no rules: everything allowed
	// CrawlDelay is written as given ("10", "0.5"); empty for none.
	CrawlDelay string
	Extensions []Extension // other lines of the group, in order
	// InheritWildcard gives the group's agents the rules of the "*"
	// groups as well, merged under RFC 9309: the longest match of the
	// union decides. (RFC 9309 groups do not inherit.)
	InheritWildcard bool
	// Enforce asks server configuration to refuse the group's agents
	// where the group disallows them (see Refusals); it does not change
	// robots.txt.
	Enforce bool
	// Usage is the group's effective usage preferences (usage.go), written
	// as Content-Usage and Content-Signal lines in each of its records.
	Usage *Usage
}

// PathRule is an Allow or Disallow rule. An empty Path is no rule.
type PathRule struct {
	Allow bool
	Path  string
}

// Extension is a group line that is none of the above, such as Clean-param.
type Extension struct {
	Field, Value string
}

// MobileAgent is a Mobile-agent-server line (seed 002): Server ("none" or a
// URL such as atp://host:port) serves mobile robots for Path.
type MobileAgent struct {
	Path, Server string
}

// PolicyError is a value Emit cannot write.
type PolicyError struct {
	Field string // e.g. groups[1].rules[0].path
	Value string
	Msg   string
}

func (e *PolicyError) Error() string {
	return fmt.Sprintf("%s: %q: %s", e.Field, e.Value, e.Msg)
}

// Evaluate answers for a policy itself, without writing it: RFC 9309 over
// canonical paths. The agent's name (AgentName: "MJ12bot/1.4" is MJ12bot)
// selects the groups naming it
// (merged), else the "*" groups; the URL's path and each rule path are put
// in Canonical form (so /%7Emak and /~mak are one path, as RFC 9309 section
// 2.2.2 decodes escaped unreserved characters); the longest matching rule
// decides, Allow winning a tie; '*' and '$' are wildcards; /robots.txt is
// always allowed. Verdict.Line is 0: a policy has no lines.
func (p Policy) Evaluate(agent, url string) Verdict {
	p = p.inherited()
	path := Canonical(PathOf(url))
	if isRobotsTxt(path) {
		return Verdict{Allowed: true}
	}
	token := AgentName(agent)
	var groups []*PolicyGroup
	for _, wantStar := range []bool{false, true} {
		for i := range p.Groups {
			for _, a := range p.Groups[i].Agents {
				if wantStar && a == "*" || !wantStar && token != "" && strings.EqualFold(a, token) {
					groups = append(groups, &p.Groups[i])
					break
				}
			}
		}
		if groups != nil {
			break
		}
	}
	var m matcher
	var best *PathRule
	bestLen := -1
	for _, g := range groups {
		for i := range g.Rules {
			r := &g.Rules[i]
			cp := Canonical(r.Path)
			if cp == "" || !m.match(path, cp) {
				continue
			}
			if len(cp) > bestLen || len(cp) == bestLen && r.Allow && !best.Allow {
				best, bestLen = r, len(cp)
			}
		}
	}
	if best == nil {
		return Verdict{Allowed: true}
	}
	rule := "Disallow: " + Canonical(best.Path)
	if best.Allow {
		rule = "Allow: " + Canonical(best.Path)
	}
	return Verdict{Allowed: best.Allow, Rule: rule}
}

// check reports the first value Emit cannot write: agent names that are
// not product tokens, rule paths that start with neither '/' nor '*', and
// any value that could break a line or start a comment.
func (p Policy) check() error {
	bad := func(field, value, msg string) error {
		return &PolicyError{Field: field, Value: value, Msg: strings.TrimSuffix(msg, "; ")}
	}
	for gi, g := range p.Groups {
		if len(g.Agents) == 0 {
			return bad(fmt.Sprintf("groups[%d].agents", gi), "", "a group needs at least one agent")
		}
		for ai, a := range g.Agents {
			if msg, _ := AgentNameError(a); msg != "" {
				return bad(fmt.Sprintf("groups[%d].agents[%d]", gi, ai), a, "is not an agent name (letters, digits, '.', '_' and '-') or *")
			}
		}
		for ri, r := range g.Rules {
			f := fmt.Sprintf("groups[%d].rules[%d].path", gi, ri)
			if err := lineSafe(r.Path); err != "" {
				return bad(f, r.Path, err)
			}
			if r.Path != "" && r.Path[0] != '/' && r.Path[0] != '*' {
				return bad(f, r.Path, "a rule path starts with / or *")
			}
		}
		if err := lineSafe(g.CrawlDelay); err != "" {
			return bad(fmt.Sprintf("groups[%d].crawl_delay", gi), g.CrawlDelay, err)
		}
		for ei, e := range g.Extensions {
			f := fmt.Sprintf("groups[%d].extensions[%d]", gi, ei)
			if e.Field == "" || strings.ContainsAny(e.Field, ": \t") || lineSafe(e.Field) != "" {
				return bad(f+".field", e.Field, "a field name is one word without ':'")
			}
			if k, _ := keyKind(e.Field); k != KindExtension {
				return bad(f+".field", e.Field, "crawlers read this field as "+k.String())
			}
			if err := lineSafe(e.Value); err != "" {
				return bad(f+".value", e.Value, err)
			}
		}
		if err := checkUsage(fmt.Sprintf("groups[%d].usage", gi), g.Usage); err != nil {
			return err
		}
	}
	if err := checkUsage("usage", p.Usage); err != nil {
		return err
	}
	for i, s := range p.Sitemaps {
		if err := lineSafe(s); err != "" || s == "" {
			return bad(fmt.Sprintf("sitemaps[%d]", i), s, err+"a sitemap is a URL")
		}
	}
	for i, m := range p.MobileAgents {
		f := fmt.Sprintf("mobile_agents[%d]", i)
		if err := lineSafe(m.Path); err != "" || !strings.HasPrefix(m.Path, "/") || strings.ContainsAny(m.Path, " \t") {
			return bad(f+".path", m.Path, err+"a path starts with / and has no spaces")
		}
		if err := lineSafe(m.Server); err != "" || m.Server == "" || strings.ContainsAny(m.Server, " \t") {
			return bad(f+".server", m.Server, err+"a server is a URL or none")
		}
	}
	if err := lineSafe(p.Host); err != "" {
		return bad("host", p.Host, err)
	}
	for i, l := range p.Licenses {
		if err := lineSafe(l); err != "" || l == "" || strings.ContainsAny(l, " \t") {
			return bad(fmt.Sprintf("licenses[%d]", i), l, err+"a licence is a URL")
		}
	}
	return nil
}

// lineSafe says why s cannot be written inside a robots.txt line, or "".
func lineSafe(s string) string {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n' || c == '\r':
			return "a line break would start a new line; "
		case c == '#':
			return "'#' would start a comment; "
		case c < ' ' || c == 0x7f:
			return "control characters are not allowed; "
		}
	}
	return ""
}

// String returns the rule as a robots.txt line.
func (r PathRule) String() string {
	if r.Allow {
		return "Allow: " + r.Path
	}
	return "Disallow: " + r.Path
}

// inherited returns p with the rules of the "*" groups added to every group
// that asks for them (InheritWildcard), and the flag cleared. Rules the
// group already has are not repeated.
func (p Policy) inherited() Policy {
	var star []PathRule
	any := false
	for _, g := range p.Groups {
		any = any || g.InheritWildcard
		if slices.Contains(g.Agents, "*") {
			star = append(star, g.Rules...)
		}
	}
	if !any {
		return p
	}
	out := p
	out.Groups = make([]PolicyGroup, len(p.Groups))
	for i, g := range p.Groups {
		if g.InheritWildcard {
			g.Rules = append(slices.Clip(g.Rules), star...)
			g.InheritWildcard = false
		}
		out.Groups[i] = g
	}
	return out
}

// Enforcement is what server configuration refuses for one agent: the
// agent's rules under RFC 9309 (its groups merged, "*" rules added where
// it inherits them), canonical, in the order a "last match wins" reader
// must try them: by increasing length, Disallow before Allow at equal
// length, so that the longest match decides and Allow wins a tie.
type Enforcement struct {
	Agent string
	Rules []PathRule
}

// Enforcements returns, for every agent of a group with Enforce, the rules
// server configuration applies, in manifest order of first mention; and
// findings for rules a server cannot match as robots.txt readers do, which
// are left out: rules on the query string ('?': servers match the path)
// and rules with an escaped '/' (%2F: servers decode it before matching).
// "*" is never enforced: refusing every unnamed client is not a crawler
// policy.
func (p Policy) Enforcements() ([]Enforcement, []Finding) {
	p = p.inherited()
	var out []Enforcement
	var fs []Finding
	seen := map[string]bool{}
	for _, g := range p.Groups {
		if !g.Enforce {
			continue
		}
		for _, a := range g.Agents {
			k := strings.ToLower(a)
			if a == "*" || seen[k] {
				continue
			}
			seen[k] = true
			e := Enforcement{Agent: a}
			have := map[PathRule]bool{}
			for _, h := range p.Groups {
				if !slices.ContainsFunc(h.Agents, func(b string) bool { return strings.EqualFold(a, b) }) {
					continue
				}
				for _, r := range h.Rules {
					cr := PathRule{Allow: r.Allow, Path: Canonical(r.Path)}
					if cr.Path == "" || have[cr] {
						continue
					}
					have[cr] = true
					if strings.ContainsAny(cr.Path, "?") || strings.Contains(cr.Path, "%2F") {
						fs = append(fs, Finding{Code: CodeNotEnforced, Severity: diag.Warning, Agent: a, Pattern: r.Path,
							Message: fmt.Sprintf("agent %s: %q is not enforced: servers match the decoded path, without the query and with %%2F read as /", a, r.Path)})
						continue
					}
					if e := reservedEscape(cr.Path); e != "" {
						fs = append(fs, Finding{Code: CodeNotEnforced, Severity: diag.Warning, Agent: a, Pattern: r.Path,
							Message: fmt.Sprintf("agent %s: %q is not enforced: servers match the decoded path, with %s read as %s, which robots.txt readers keep apart", a, r.Path, e, decode1996(e))})
						continue
					}
					if QuerySensitive(cr.Path) {
						fs = append(fs, Finding{Code: CodeNotEnforced, Severity: diag.Warning, Agent: a, Pattern: r.Path,
							Message: fmt.Sprintf("agent %s: %q is enforced without the query: robots.txt readers match it against the path and query, servers against the path alone, so %s's requests with a query are refused", a, r.Path, a)})
					}
					e.Rules = append(e.Rules, cr)
				}
			}
			slices.SortStableFunc(e.Rules, func(x, y PathRule) int {
				if len(x.Path) != len(y.Path) {
					return len(x.Path) - len(y.Path)
				}
				if x.Allow != y.Allow {
					if x.Allow {
						return 1
					}
					return -1
				}
				return strings.Compare(x.Path, y.Path)
			})
			out = append(out, e)
		}
	}
	return out, fs
}
