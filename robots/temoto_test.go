package robots

import (
	"regexp"
	"strings"
)

// temotoFile reads a robots.txt file the way temoto/robotstxt (parser.go,
// robotstxt.go) does, as a third reader for the emission tests:
//
//   - consecutive User-agent lines form a group; a rule or Crawl-delay
//     closes it. An Allow or Disallow with an empty value closes it too and
//     matches nothing: temoto's scanner hands the end-of-line token to the
//     parser as the value, which becomes the path "/\n" (temoto's own
//     TestRobotstxtOrgCase2 relies on such a group not fusing with the next);
//   - groups are kept per lower-cased agent, rules of every group naming the
//     agent appended in file order;
//   - a rule value gets a leading '/' if it has none and loses trailing '*';
//     a value still holding '*' or '$' becomes a regular expression whose
//     length is the length of its source;
//   - the longest matching rule decides, the first in file order on a tie;
//     "Disallow: /" or "Allow: /" is the weakest match.
//
// Group selection is exact (the lower-cased agent equals the group's) or,
// with prefix set, temoto's own: the longest group name that is a prefix of
// the agent. temoto does not special-case /robots.txt; this reader allows
// it, as the other two do, so that the tests compare rules, not that rule.
type temotoFile struct {
	groups map[string][]temotoRule
}

type temotoRule struct {
	allow   bool
	path    string
	pattern *regexp.Regexp
}

func parseTemoto(data []byte) *temotoFile {
	t := &temotoFile{groups: map[string][]temotoRule{}}
	var agents []string
	empty := true
	for _, raw := range strings.FieldsFunc(string(data), func(r rune) bool { return r == '\n' || r == '\r' }) {
		if i := strings.IndexByte(raw, '#'); i >= 0 {
			raw = raw[:i]
		}
		k, v, ok := strings.Cut(raw, ":")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		switch k {
		case "user-agent", "useragent":
			if v == "" {
				continue
			}
			if !empty {
				agents = nil
			}
			if len(agents) == 0 {
				empty = true
			}
			agents = append(agents, strings.ToLower(v))
		case "allow", "disallow":
			if len(agents) == 0 {
				continue
			}
			empty = false
			if v == "" {
				v = "\n" // becomes the rule "/\n", which matches no path
			}
			r := temotoRule{allow: k == "allow"}
			if !strings.HasPrefix(v, "*") && !strings.HasPrefix(v, "/") {
				v = "/" + v
			}
			v = strings.TrimRight(v, "*")
			if strings.ContainsAny(v, "*$") {
				q := regexp.QuoteMeta(v)
				q = strings.ReplaceAll(q, `\*`, `.*`)
				q = strings.ReplaceAll(q, `\$`, `$`)
				r.pattern = regexp.MustCompile(q)
			} else {
				r.path = v
			}
			for _, a := range agents {
				t.groups[a] = append(t.groups[a], r)
			}
		case "crawl-delay", "crawldelay":
			if len(agents) > 0 {
				empty = false
			}
		}
	}
	return t
}

func (t *temotoFile) allowed(agent, url string, prefix bool) bool {
	path := PathOf(url)
	if isRobotsTxt(path) {
		return true
	}
	agent = strings.ToLower(agent)
	rules, best := t.groups["*"], 0
	if rules != nil {
		best = 1
	}
	for a, g := range t.groups {
		if a == "*" {
			continue
		}
		if a == agent || prefix && strings.HasPrefix(agent, a) && len(a) > best {
			rules, best = g, len(a)
			if a == agent {
				break
			}
		}
	}
	var hit *temotoRule
	n := 0
	for i := range rules {
		r := &rules[i]
		switch {
		case r.pattern != nil:
			if r.pattern.MatchString(path) && len(r.pattern.String()) > n {
				hit, n = r, len(r.pattern.String())
			}
		case r.path == "/" && n == 0:
			hit, n = r, 1
		case strings.HasPrefix(path, r.path) && len(r.path) > n:
			hit, n = r, len(r.path)
		}
	}
	return hit == nil || hit.allow
}
