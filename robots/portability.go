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
	return out
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
