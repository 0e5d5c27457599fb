package validate

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/internal/editdist"
	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/internal/rfc3986"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
)

// ownKeys are the manifest keys of the robots.txt fields whose meaning an
// extension line would change.
var ownKeys = map[robots.Kind]string{
	robots.KindUserAgent:         "names",
	robots.KindAllow:             "allow",
	robots.KindDisallow:          "disallow",
	robots.KindSitemap:           "sitemaps (top level)",
	robots.KindCrawlDelay:        "crawl_delay",
	robots.KindHost:              "host (top level)",
	robots.KindMobileAgentServer: "mobile_agents (top level)",
}

// usageFields are the usage preference fields, which the manifest writes
// from usage; an extension line of either would contradict it.
var usageFields = map[string]bool{"content-usage": true, "content-signal": true}

// IsAgentName reports whether s is a valid agent name: an RFC 9309 product
// token, a real crawler's token with digits and dots (MJ12bot), or "*".
func IsAgentName(s string) bool { return s == "*" || robots.IsAgentName(s) }

// notAgent says why name is not an agent name, with what to write instead
// (the name a User-Agent string such as "Googlebot/2.1" starts with).
func notAgent(name string) string {
	msg, hint := robots.AgentNameError(name)
	if hint != "" {
		msg += "; " + hint
	}
	return msg
}

func (v *checker) agents(path string, groups []manifest.Group) {
	star := false
	for i, g := range groups {
		star = star || slices.Contains(g.Names, "*")
		if g.InheritWildcard && slices.Contains(g.Names, "*") {
			v.warn(manifest.Key(manifest.Index(path, i), "inherit_wildcard"), "the \"*\" group inherits nothing: inherit_wildcard is for named groups")
		}
	}
	for i, g := range groups {
		if g.InheritWildcard && !star {
			v.warn(manifest.Key(manifest.Index(path, i), "inherit_wildcard"), "there is no \"*\" group to inherit from")
		}
	}
	if !v.agentBounds(path, groups) {
		return
	}
	defer v.substringNames(path, groups)
	defer v.partOfKnown(path, groups)
	for i, g := range groups {
		gp := manifest.Index(path, i)
		if len(g.Names) == 0 && len(g.Presets) == 0 {
			v.err(gp, "a group needs names, presets or both")
		}
		for j, name := range g.Names {
			np := manifest.Index(manifest.Key(gp, "names"), j)
			if !IsAgentName(name) {
				v.err(np, "%s", notAgent(name))
			} else if r := robots.GoogleReading(name); r != "" {
				v.warn(np, "%s", r)
			}
			if (g.Enforce || g.Verified || g.Throttle != nil) && len(name) > serverconf.MaxUserAgentName {
				v.err(np, "a name of %d bytes cannot be enforced, verified or throttled: server configuration matches User-Agent names of up to %d bytes (the expression must fit a configuration line; Apache reads 8 KiB)", len(name), serverconf.MaxUserAgentName)
			}
		}
		v.presets(gp, g)
		if g.Enforce && len(g.Presets) == 0 && !slices.ContainsFunc(g.Names, func(n string) bool { return n != "*" }) {
			v.warn(manifest.Key(gp, "enforce"), "enforce refuses named agents only: \"*\" is not refused (that would refuse every client)")
		}
		names := crawlers.Default().Expand(g.Names, g.Presets, g.ExceptAgents)
		v.rulePaths(manifest.Key(gp, "allow"), names, g.Allow, true)
		v.rulePaths(manifest.Key(gp, "disallow"), names, g.Disallow, false)
		v.usage(manifest.Key(gp, "usage"), g.Usage)
		if g.CrawlDelay != nil {
			v.warn(manifest.Key(gp, "crawl_delay"), "Crawl-delay is not part of RFC 9309; Google ignores it and other crawlers read it differently")
		}
		for j, e := range g.Extensions {
			ep := manifest.Index(manifest.Key(gp, "extensions"), j)
			kind := robots.FieldKind(e.Field)
			switch own, reserved := ownKeys[kind]; {
			case !robots.IsFieldName(e.Field):
				v.err(manifest.Key(ep, "field"), "%q is not a robots.txt field name (a letter, then letters, digits, \"_\" or \"-\")", e.Field)
			case reserved && strings.EqualFold(e.Field, kind.String()):
				v.err(manifest.Key(ep, "field"), "%q has its own manifest key: use %s", e.Field, own)
			case reserved:
				v.err(manifest.Key(ep, "field"), "%q is read by crawlers as %s (Google's parser reads a field by how it starts, and forgives some misspellings): use the manifest key %s, or another field name", e.Field, kind, own)
			case usageFields[strings.ToLower(e.Field)]:
				v.err(manifest.Key(ep, "field"), "%q has its own manifest key: use usage (top level, or in the group)", e.Field)
			}
			v.noHash(manifest.Key(ep, "value"), e.Value, "robots.txt")
		}
	}
}

// rulePaths checks Allow and Disallow patterns, and warns where the
// readers of robots.txt that emission serves cannot agree on a valid one.
func (v *checker) rulePaths(path string, names, rules []string, allow bool) {
	for i, r := range rules {
		rp := manifest.Index(path, i)
		if !v.rulePath(rp, r, "robots.txt") {
			continue
		}
		if strings.TrimSuffix(robots.Canonical(r), "$") == "/robots.txt" {
			// Seed 001 section 3.2.2; RFC 9309 section 2.2.2 agrees that
			// the file is always allowed, so such a rule means nothing.
			v.err(rp, "%q: /robots.txt is always allowed and must not appear in the rules (seed 001 section 3.2.2, RFC 9309 section 2.2.2); remove it", r)
			continue
		}
		for _, f := range robots.RuleFindings(names, robots.PathRule{Allow: allow, Path: r}) {
			v.warn(rp, "%s", f.Message)
		}
	}
}

// rulePath checks one path pattern bound for a robots-style file: it starts
// with "/" (or "*", a wildcard RFC 9309 allows), is one token, holds no "#"
// and only valid percent escapes; "$" may only end it.
func (v *checker) rulePath(path, p, file string) bool {
	switch {
	case p == "":
		v.err(path, "empty path; an empty list already means \"allow everything\"")
		return false
	case p[0] != '/' && p[0] != '*':
		v.err(path, "%q must start with \"/\"", p)
		return false
	}
	if !v.noSpace(path, p, "a path") || !v.noHash(path, p, file) || !v.escapes(path, p) {
		return false
	}
	if i := strings.IndexByte(p, '$'); i >= 0 && i != len(p)-1 {
		v.err(path, "%q: \"$\" may only end a pattern", p)
		return false
	}
	return true
}

// escapes rejects a "%" that does not start a valid escape.
func (v *checker) escapes(path, s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !rfc3986.IsHex(s[i+1]) || !rfc3986.IsHex(s[i+2])) {
			v.err(path, "%q: \"%%\" must start an escape such as %%20", s)
			return false
		}
	}
	return true
}

func (v *checker) sitemaps(path string, urls []string) {
	for i, u := range urls {
		p := manifest.Index(path, i)
		if v.absURL(p, u, "a sitemap URL") && v.noHash(p, u, "robots.txt") {
			// The path is percent-encoded when written; a host cannot be.
			if pu, err := url.Parse(u); err == nil && !isASCII(pu.Host) {
				v.err(p, "%q: write the host in its ASCII (punycode, xn--) form", u)
			}
		}
	}
}

// mobileAgents checks Mobile-agent-server records (seed 002 section 3.2):
// a path, and a server that is scheme://host[:port] or "none".
func (v *checker) mobileAgents(path string, mas []manifest.MobileAgent) {
	seen := map[string]string{}
	ok := make([]bool, len(mas))
	for i, ma := range mas {
		p := manifest.Index(path, i)
		pp := manifest.Key(p, "path")
		if ma.Path == "" || ma.Path[0] != '/' {
			v.err(pp, "%q must start with \"/\"", ma.Path)
		} else if v.noSpace(pp, ma.Path, "a path") && v.noHash(pp, ma.Path, "robots.txt") && v.escapes(pp, ma.Path) {
			if first, dup := seen[ma.Path]; dup {
				v.err(pp, "%q is given twice (first at %s)", ma.Path, first)
			} else {
				ok[i] = !v.refused(pp)
			}
			seen[ma.Path] = v.pos.Of(pp).String()
		}
		if ma.Server != "none" {
			v.mobileServer(manifest.Key(p, "server"), ma.Server)
		}
	}
	v.mobileOrder(path, mas, ok)
}

// mobileOrder warns where the manifest's order of Mobile-agent-server lines
// differs in meaning from the order they are written in. Seed 002 says
// "more recent lines always override older ones"; discgen writes the lines
// from least to most specific path, so the most specific server wins
// whatever the manifest's order. A manifest that lists a path after a
// more specific one inside it would, read literally, let the shorter line
// override the longer one everywhere: the warning says so at the shorter.
func (v *checker) mobileOrder(path string, mas []manifest.MobileAgent, ok []bool) {
	for j, later := range mas {
		if !ok[j] {
			continue
		}
		lc := robots.Canonical(later.Path)
		for i := range j {
			ec := robots.Canonical(mas[i].Path)
			if ok[i] && len(lc) < len(ec) && strings.HasPrefix(ec, lc) {
				v.warn(manifest.Key(manifest.Index(path, j), "path"),
					"%q comes after the more specific %q (%s) but is written before it: Mobile-agent-server lines go from least to most specific, so %q keeps its server; read in the manifest's order, seed 002's \"later lines override\" would give %q's server there too",
					later.Path, mas[i].Path, manifest.Index(path, i), mas[i].Path, later.Path)
				break
			}
		}
	}
}

var schemeRE = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*$`)

func (v *checker) mobileServer(path, s string) {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || !schemeRE.MatchString(scheme) || rest == "" {
		v.err(path, "%q must be scheme://host[:port] or none", s)
		return
	}
	u, err := url.Parse("x://" + rest)
	if err != nil || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || strings.ContainsAny(rest, " #") {
		v.err(path, "%q must be scheme://host[:port] or none, with nothing after the port", s)
		return
	}
	if port := u.Port(); port != "" && !validPort(port) {
		v.err(path, "%q: port %s is not a number from 1 to 65535", s, port)
	}
}

func validPort(p string) bool {
	n := 0
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
		if n > 65535 {
			return false
		}
	}
	return n > 0
}

func (v *checker) host(path, h string) {
	if !robots.IsHost(h) {
		v.err(path, "%q is not a host name (such as www.example.org)", h)
	}
}

// expects checks the shape of expect assertions; their verdicts are checked
// against the emitted robots.txt at build time.
func (v *checker) expects(path string, exps []manifest.Expect) {
	for i, e := range exps {
		p := manifest.Index(path, i)
		if !IsAgentName(e.Agent) {
			v.err(manifest.Key(p, "agent"), "%s", notAgent(e.Agent))
		}
		if len(e.Allowed) == 0 && len(e.Disallowed) == 0 && e.Usage == nil && e.License == "" && e.TDM == nil {
			v.err(p, "an expectation needs allowed or disallowed paths, usage, license or tdm")
		}
		v.expectUsage(p, e)
		for _, list := range []struct {
			key   string
			paths []string
		}{{"allowed", e.Allowed}, {"disallowed", e.Disallowed}} {
			for j, u := range list.paths {
				up := manifest.Index(manifest.Key(p, list.key), j)
				if !strings.HasPrefix(u, "/") {
					v.err(up, "%q must be a URL path starting with \"/\"", u)
				} else {
					v.noSpace(up, u, "a URL path")
					v.escapes(up, u)
				}
			}
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// substringNames gives the warnings about the policy as a whole, on the
// agent's first mention (its names entry, or the preset that adds it):
// listed names part of one another with different rules, which no order of
// records serves for every reader (R026); and one-character names (R027).
// R029 (Allow, which Perl's WWW::RobotRules does not read) is not repeated
// for every manifest that uses Allow: docs/semantics.md names that reader's limit.
func (v *checker) substringNames(path string, groups []manifest.Group) {
	cat := crawlers.Default()
	var p robots.Policy
	for _, g := range groups {
		pg := robots.PolicyGroup{Agents: cat.Expand(g.Names, g.Presets, g.ExceptAgents), InheritWildcard: g.InheritWildcard}
		for _, a := range g.Allow {
			pg.Rules = append(pg.Rules, robots.PathRule{Allow: true, Path: a})
		}
		for _, d := range g.Disallow {
			pg.Rules = append(pg.Rules, robots.PathRule{Path: d})
		}
		for _, a := range pg.Agents {
			if !IsAgentName(a) {
				return // reported already; the policy cannot be written
			}
		}
		p.Groups = append(p.Groups, pg)
		if len(g.Presets) > 0 {
			p.Names = cat.Names()
		}
	}
	// R036 at the rule that Emit spells longer.
	for _, f := range robots.EscapedTildeFindings(p) {
		v.warn(rulePosition(path, groups, f), "%s", f.Message)
	}
	seen := map[string]bool{}
	var first map[string]string
	for _, f := range robots.NameFindings(p) {
		if seen[f.Message] {
			continue
		}
		seen[f.Message] = true
		if first == nil {
			first = agentPaths(path, groups)
		}
		at, ok := first[strings.ToLower(f.Agent)]
		if !ok {
			at = path
		}
		v.warn(at, "%s", f.Message)
	}
}

// rulePosition is the manifest path of the rule a finding is about: the
// first allow or disallow entry with its canonical path, in a group that
// names the finding's first agent if one does, else in any group; else
// the agent's first mention.
func rulePosition(path string, groups []manifest.Group, f robots.Finding) string {
	agent, _, _ := strings.Cut(f.Agent, ", ")
	cat := crawlers.Default()
	fallback := ""
	for i, g := range groups {
		gp := manifest.Index(path, i)
		lists := g.Names
		if len(g.Presets) > 0 {
			lists = cat.Expand(g.Names, g.Presets, g.ExceptAgents)
		}
		named := slices.ContainsFunc(lists, func(n string) bool { return strings.EqualFold(n, agent) })
		for _, k := range []struct {
			key   string
			rules []string
		}{{"allow", g.Allow}, {"disallow", g.Disallow}} {
			for j, r := range k.rules {
				if robots.Canonical(r) != f.Pattern {
					continue
				}
				at := manifest.Index(manifest.Key(gp, k.key), j)
				if named {
					return at
				}
				if fallback == "" {
					fallback = at
				}
			}
		}
	}
	if fallback != "" {
		return fallback
	}
	if at, ok := agentPaths(path, groups)[strings.ToLower(agent)]; ok {
		return at
	}
	return path
}

// agentPaths maps each agent (in lower case) to the manifest path that
// first names it: a names entry, or the presets entry that adds it.
func agentPaths(path string, groups []manifest.Group) map[string]string {
	cat := crawlers.Default()
	out := map[string]string{}
	for i, g := range groups {
		gp := manifest.Index(path, i)
		for j, n := range g.Names {
			if k := strings.ToLower(n); out[k] == "" {
				out[k] = manifest.Index(manifest.Key(gp, "names"), j)
			}
		}
		for j, pr := range g.Presets {
			for _, a := range cat.Expand(nil, []string{pr}, g.ExceptAgents) {
				if k := strings.ToLower(a); out[k] == "" {
					out[k] = manifest.Index(manifest.Key(gp, "presets"), j)
				}
			}
		}
	}
	return out
}

// presets checks a group's presets and except_agents: known presets (with
// a suggestion), except_agents naming agents of those presets, a group left
// with an agent, a catalogue not too old for the build's time; and it warns
// once per preset about the names Google's parser reads only in part.
func (v *checker) presets(gp string, g manifest.Group) {
	if len(g.Presets) == 0 {
		if len(g.ExceptAgents) > 0 {
			v.err(manifest.Key(gp, "except_agents"), "except_agents removes agents of presets, and this group has no presets")
		}
		return
	}
	for i, code := range g.Acknowledge {
		if codes := Acknowledgeable(); !slices.Contains(codes, code) {
			msg := fmt.Sprintf("unknown warning code %q", code)
			if s := editdist.Closest(code, codes); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			v.err(manifest.Index(manifest.Key(gp, "acknowledge"), i), "%s; codes: %s", msg, strings.Join(codes, ", "))
		}
	}
	cat := crawlers.Default()
	inPresets := map[string]bool{}
	unknown := false
	for i, p := range g.Presets {
		pp := manifest.Index(manifest.Key(gp, "presets"), i)
		as, ok := cat.Preset(p)
		if !ok {
			msg := fmt.Sprintf("unknown preset %q; discgen presets lists them: %s", p, strings.Join(cat.Presets(), ", "))
			for _, s := range cat.Presets() {
				if editdist.Levenshtein(p, s) <= 2 {
					msg = fmt.Sprintf("unknown preset %q (did you mean %q?)", p, s)
					break
				}
			}
			v.err(pp, "%s", msg)
			unknown = true
			continue
		}
		var partial []string
		for _, a := range as {
			if len(g.ExceptAgents) > 0 {
				inPresets[strings.ToLower(a.Name)] = true
			}
			if a.Name != "*" && !robots.IsProductToken(a.Name) { // robots.GoogleReading has a message
				partial = append(partial, fmt.Sprintf("%s (as %q)", a.Name, robots.ProductToken(a.Name)))
			}
		}
		if len(partial) > 0 && !slices.Contains(g.Acknowledge, CodeGooglePartial) {
			names := "names"
			if len(partial) == 1 {
				names = "name"
			}
			v.warn(pp, "Google's parser reads only the leading letters, '_' and '-' of a User-agent line, so it reads %d %s of %s in part: %s%s", len(partial), names, p, strings.Join(partial, ", "), ackNote(CodeGooglePartial))
		}
		if i == 0 && !v.opt.Now.IsZero() {
			if s := cat.Stale(v.opt.Now); s != "" {
				v.warn(pp, "%s", s)
			}
		}
	}
	for i, e := range g.ExceptAgents {
		if !unknown && !inPresets[strings.ToLower(e)] {
			v.err(manifest.Index(manifest.Key(gp, "except_agents"), i), "%q is not an agent of presets %s", e, strings.Join(g.Presets, ", "))
		}
	}
	if !unknown && len(cat.Expand(g.Names, g.Presets, g.ExceptAgents)) == 0 {
		v.err(gp, "the group names no agent once except_agents is applied")
	}
}

// Codes of the warnings about the names a preset writes, which a group
// may acknowledge (manifest.Group.Acknowledge): the catalogue has the
// names as their operators write them, and the manifest cannot change
// them.
const (
	CodeGooglePartial = "google-partial" // Google's parser reads a name in part
	CodeSubstringName = "substring-name" // a name is part of another crawler's name
)

// Acknowledgeable returns the codes a group may acknowledge. The list is
// the caller's to change.
func Acknowledgeable() []string { return []string{CodeGooglePartial, CodeSubstringName} }

// ackNote ends a warning about a preset's names with how to silence it.
func ackNote(code string) string {
	return "; the preset's names cannot be changed here: acknowledge: [" + code + "] in the group silences this"
}
