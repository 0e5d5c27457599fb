package generate

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
)

// policy turns manifest groups into the robots policy they mean.
func policy(groups []manifest.Group, sitemaps []string, mas []manifest.MobileAgent, host string) robots.Policy {
	p := robots.Policy{Sitemaps: sitemaps, Host: host}
	for _, g := range groups {
		pg := robots.PolicyGroup{Agents: GroupAgents(g), InheritWildcard: g.InheritWildcard, Enforce: g.Enforce,
			Usage: EffectiveUsage(nil, g.Usage)}
		for _, a := range g.Allow {
			pg.Rules = append(pg.Rules, robots.PathRule{Allow: true, Path: a})
		}
		for _, d := range g.Disallow {
			pg.Rules = append(pg.Rules, robots.PathRule{Path: d})
		}
		if g.CrawlDelay != nil {
			pg.CrawlDelay = g.CrawlDelay.String()
		}
		for _, e := range g.Extensions {
			pg.Extensions = append(pg.Extensions, robots.Extension{Field: e.Field, Value: e.Value})
		}
		p.Groups = append(p.Groups, pg)
		if len(g.Presets) > 0 {
			p.Names = crawlers.Default().Names()
		}
	}
	for _, m := range mas {
		p.MobileAgents = append(p.MobileAgents, robots.MobileAgent{Path: m.Path, Server: m.Server})
	}
	return p
}

// GroupAgents returns the agents a manifest group names: its names and
// the agents of its presets (crawlers.Catalogue.Expand).
func GroupAgents(g manifest.Group) []string {
	if len(g.Presets) == 0 {
		return g.Names
	}
	return crawlers.Default().Expand(g.Names, g.Presets, g.ExceptAgents)
}

func emitRobots(groups []manifest.Group, sitemaps []string, mas []manifest.MobileAgent, host string) ([]byte, error) {
	return robots.Emit(policy(groups, sitemaps, mas, host))
}

// siteRobots renders the site's /robots.txt, or nil when the manifest says
// nothing about crawlers, and checks the manifest's expect assertions
// against the emitted bytes under both readings.
func siteRobots(doc *manifest.Doc[manifest.Site]) ([]byte, diag.List) {
	var errs diag.List
	m := doc.Value
	if len(m.Agents) == 0 && len(m.Sitemaps) == 0 && len(m.MobileAgents) == 0 && m.Host == "" && m.Usage == nil && len(licenseLines(m)) == 0 {
		if len(m.Expect) > 0 {
			errs.Errorf(doc.Pos.Of("expect"), "expect", "there is no robots.txt to check: the manifest has no agents")
		}
		return nil, errs
	}
	if errs.Append(usageDiags(doc)); errs.HasErrors() {
		return nil, errs
	}
	data, err := robots.Emit(sitePolicy(m))
	if err != nil {
		errs.Errorf(doc.Pos.Of("agents"), "agents", "cannot write robots.txt: %v", err)
		return nil, errs
	}
	if len(data) > robots.MaxFileSize {
		errs.Warnf(doc.Pos.Of("agents"), "agents", "robots.txt is %d bytes; RFC 9309 lets crawlers stop reading after %d KiB, and Google does", len(data), robots.MaxFileSize>>10)
	}
	errs.Append(checkExpect(doc, data))
	return data, errs
}

// MaxExpectWork bounds the work of checking a manifest's expect
// assertions, counted as expectWork counts it: about a second at most.
// Matching one URL against a pattern with wildcards can cost the product
// of their lengths, and every URL is matched against every rule of its
// group, so a manifest of a few kilobytes could otherwise ask for hours.
const MaxExpectWork = 100_000_000

// expectWork is an upper bound on the steps matching takes to check the
// expectations: for each URL, under each reading, one step per agent line
// (to find the group), per rule and per octet of a plain pattern, and
// len(URL)+1 per octet of a pattern with a wildcard.
func expectWork(f *robots.File, exps []manifest.Expect) int64 {
	type cost struct{ plain, wild int64 }
	var agents int64
	var global cost
	byToken := map[string]*cost{}
	for _, g := range f.Groups {
		var c cost
		for _, r := range g.Rules {
			c.plain += 1 + int64(len(r.Pattern))
			if strings.ContainsAny(r.Pattern, "*$") {
				c.wild += int64(len(r.Pattern))
			}
		}
		for _, l := range g.Other { // preference lines, matched by usage expectations
			c.plain += 1 + int64(len(l.Value))
			if strings.ContainsAny(l.Value, "*$") {
				c.wild += int64(len(l.Value))
			}
		}
		seen := map[string]bool{}
		for _, a := range g.Agents {
			agents++
			if a.Global {
				global.plain += c.plain
				global.wild += c.wild
				continue
			}
			tok := strings.ToLower(a.Token)
			if tok == "" || seen[tok] {
				continue
			}
			seen[tok] = true
			t := byToken[tok]
			if t == nil {
				t = &cost{}
				byToken[tok] = t
			}
			t.plain += c.plain
			t.wild += c.wild
		}
	}
	var work int64
	for _, e := range exps {
		c := global
		if t := byToken[strings.ToLower(robots.ProductToken(e.Agent))]; t != nil {
			c = *t
		}
		urls := append(e.Allowed[:len(e.Allowed):len(e.Allowed)], e.Disallowed...)
		if e.Usage != nil {
			urls = append(urls, expectUsageURLs(e)...) // each also matched for its verdict
		}
		for _, u := range urls {
			work += 2 * (agents + c.plain + (int64(len(u))+1)*c.wild)
			if work > MaxExpectWork {
				return work
			}
		}
	}
	return work
}

// sitemapURLs writes the sitemap URLs as icons and feeds are written
// (resolveURI): host lower-cased, escapes normalised, non-ASCII
// percent-encoded as UTF-8, so "café.xml" is "caf%C3%A9.xml" and a
// robots.txt line never carries raw non-ASCII bytes.
func sitemapURLs(m *manifest.Site) []string {
	base, err := url.Parse(m.Site.URL)
	if err != nil || len(m.Sitemaps) == 0 {
		return m.Sitemaps
	}
	out := make([]string, len(m.Sitemaps))
	for i, s := range m.Sitemaps {
		out[i] = resolveURI(base, s)
	}
	return out
}

// checkExpect evaluates every expect assertion against the emitted file
// under the RFC 9309 reading and the 1996 draft's; for an agent whose
// operator documents its reading (a fallback that changes its group, or a
// control token: robots.File.MatchEffective), under that reading alone,
// where a control token's verdict says whether use is allowed.
func checkExpect(doc *manifest.Doc[manifest.Site], data []byte) diag.List {
	var errs diag.List
	f := robots.Parse(data)
	if w := expectWork(f, doc.Value.Expect); w > MaxExpectWork {
		errs.Errorf(doc.Pos.Of("expect"), "expect", "checking these expectations could take more than %d matching steps (the limit): check fewer or shorter URLs, or use fewer wildcard rules", MaxExpectWork)
		return errs
	}
	for i, e := range doc.Value.Expect {
		ep := manifest.Index("expect", i)
		for _, list := range []struct {
			key  string
			want bool
			urls []string
		}{{"allowed", true, e.Allowed}, {"disallowed", false, e.Disallowed}} {
			for j, u := range list.urls {
				up := manifest.Index(manifest.Key(ep, list.key), j)
				v, op := f.MatchEffective(e.Agent, u)
				readings := []struct {
					name string
					v    robots.Verdict
				}{{readingName(op), v}, {"the 1996 draft", f.Match1996(e.Agent, u)}}
				if op != nil {
					// Only the operator's crawler carries the token, and
					// its reading is documented: the 1996 draft's is moot.
					readings = readings[:1]
				}
				for _, r := range readings {
					if r.v.Allowed == list.want {
						continue
					}
					if op != nil && op.Fallback.Control {
						errs.Errorf(doc.Pos.Of(up), up, "use of %s is %s for %s under %s, expected %s%s (%s; %s)",
							u, word(r.v.Allowed), e.Agent, r.name, word(list.want), decidedBy(r.v), op.Describe(), op.Fallback.Documented())
						continue
					}
					errs.Errorf(doc.Pos.Of(up), up, "%s is %s for %s under %s, expected %s%s",
						u, word(r.v.Allowed), e.Agent, r.name, word(list.want), decidedBy(r.v))
				}
			}
		}
		errs.Append(checkExpectUsage(doc, f, i, e))
		errs.Append(checkExpectRights(doc, data, i, e))
	}
	return errs
}

// readingName names the reading an expectation is checked under: RFC
// 9309, or the operator's documented reading where it chooses other
// groups (robots.File.MatchEffective).
func readingName(op *robots.OperatorReading) string {
	if op == nil || !op.Changed() {
		return "RFC 9309"
	}
	return fmt.Sprintf("the reading of %s (RFC 9309, but it %s, %s)", op.Fallback.Crawler, op.Describe(), op.Fallback.Documented())
}

func word(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "disallowed"
}

func decidedBy(v robots.Verdict) string {
	if v.Rule == "" {
		return " (no rule matches)"
	}
	return fmt.Sprintf(" (robots.txt line %d: %s)", v.Line, v.Rule)
}

// SiteAccess returns what --server output does besides headers for a
// validated site manifest: the enforced agents' refusals and noindex; and
// a warning for each enforced rule a server cannot match as robots.txt
// readers do (left out).
func SiteAccess(s *model.Site) (serverconf.Access, diag.List) {
	doc := s.Doc()
	var errs diag.List
	m := doc.Value
	p := policy(m.Agents, nil, nil, "")
	enf, fs := p.Enforcements()
	for _, f := range fs {
		errs.Warnf(doc.Pos.Of("agents"), "agents", "%s", f.Message)
	}
	u, _ := HeaderUsage(s) // its warnings are for --server builds
	return serverconf.Access{Enforce: enf, Noindex: m.Noindex, Usage: u, Redirects: redirects(m), Rights: siteRights(m)}, errs
}
