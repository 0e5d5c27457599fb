package robots

import (
	"flag"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"
	"github.com/temoto/robotstxt"

	"github.com/discgen/discgen/internal/testing/testenv"
)

var (
	seedFlag = flag.Uint64("robots.seed", 0, "seed for the randomised emission test (default: ROBOTS_SEED or a fixed seed)")
	nFlag    = flag.Int("robots.n", 0, "number of randomised emission cases (default 1000, 200 without DISCGEN_LONG)")
)

const defaultSeed = 20261122

func randomSeed(t *testing.T) uint64 {
	if *seedFlag != 0 {
		return *seedFlag
	}
	if s := os.Getenv("ROBOTS_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("ROBOTS_SEED=%q: %v", s, err)
		}
		return v
	}
	return defaultSeed
}

// gen builds random wildcard-free policies designed to stress emission:
// agent names over a tiny alphabet (so that names are often substrings of
// one another), the same agent in several groups with different case, paths
// that are prefixes of one another, '~', non-ASCII and %20, written in
// non-canonical spellings (%7e, raw UTF-8, lower-case hex).
type gen struct {
	r *rand.Rand
}

func (g gen) pick(s []string) string { return s[g.r.IntN(len(s))] }

func (g gen) name() string {
	n := 1 + g.r.IntN(4)
	var b strings.Builder
	for range n {
		c := g.pick([]string{"a", "b", "a", "b", "-", "_", "c"})
		if g.r.IntN(4) == 0 {
			c = strings.ToUpper(c)
		}
		b.WriteString(c)
	}
	return b.String()
}

var segments = []string{"a", "b", "ab", "~", "~u", "é", "ツ", "%20", "x.html", "/", "/", "?q=", "&", "-", "."}

// path returns a rule path in canonical form; spell turns it into one of
// its spellings as a manifest author might write it.
func (g gen) path(pool []string) string {
	if len(pool) > 0 && g.r.IntN(2) == 0 {
		base := g.pick(pool)
		if g.r.IntN(2) == 0 { // a prefix of an existing path
			toks := tokens(base)
			return strings.Join(toks[:1+g.r.IntN(len(toks))], "")
		}
		return Canonical(base + g.pick(segments)) // an extension of one
	}
	var b strings.Builder
	b.WriteString("/")
	for range g.r.IntN(4) {
		b.WriteString(g.pick(segments))
	}
	return Canonical(b.String())
}

func (g gen) spell(p string) string {
	var b strings.Builder
	for _, t := range tokens(p) {
		switch {
		case t == "~" && g.r.IntN(3) == 0:
			b.WriteString(g.pick([]string{"%7E", "%7e"}))
		case strings.HasPrefix(t, "%") && t != "%20" && g.r.IntN(2) == 0:
			b.WriteString(decode1996(t)) // raw UTF-8 octet
		case strings.HasPrefix(t, "%") && g.r.IntN(3) == 0:
			b.WriteString(strings.ToLower(t))
		case t == "a" && g.r.IntN(8) == 0:
			b.WriteString("%61")
		default:
			b.WriteString(t)
		}
	}
	return b.String()
}

// tokens splits a canonical path into characters and %XX escapes.
func tokens(p string) []string {
	var out []string
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) {
			out = append(out, p[i:i+3])
			i += 2
			continue
		}
		out = append(out, p[i:i+1])
	}
	return out
}

func (g gen) policy() (Policy, []string) {
	var p Policy
	var names, pool []string
	for range 1 + g.r.IntN(5) {
		var pg PolicyGroup
		for range 1 + g.r.IntN(3) {
			var n string
			switch {
			case g.r.IntN(6) == 0:
				n = "*"
			case len(names) > 0 && g.r.IntN(4) == 0: // the same agent again
				n = g.pick(names)
				if g.r.IntN(2) == 0 {
					n = strings.ToUpper(n)
				}
			default:
				n = g.name()
				names = append(names, n)
			}
			pg.Agents = append(pg.Agents, n)
		}
		for range g.r.IntN(6) {
			cp := g.path(pool)
			pool = append(pool, cp)
			pg.Rules = append(pg.Rules, PathRule{Allow: g.r.IntN(2) == 0, Path: g.spell(cp)})
		}
		if g.r.IntN(5) == 0 {
			pg.CrawlDelay = "1"
		}
		if g.r.IntN(5) == 0 {
			pg.Extensions = append(pg.Extensions, Extension{"Clean-param", "ref /a/"})
		}
		p.Groups = append(p.Groups, pg)
	}
	if g.r.IntN(3) == 0 {
		p.Sitemaps = []string{"https://example.com/sitemap.xml"}
		p.MobileAgents = []MobileAgent{{"/a/", "none"}, {"/", "atp://example.com:434"}}
		p.Host = "example.com"
	}
	return p, pool
}

// urls returns URLs in RFC 3986 normal form, '~' sometimes escaped: the rule
// paths, their prefixes and extensions, and a few others.
func (g gen) urls(pool []string) []string {
	var out []string
	add := func(p string) {
		var b strings.Builder
		for _, t := range tokens(p) {
			if t == "~" && g.r.IntN(2) == 0 {
				t = "%7E"
			}
			b.WriteString(t)
		}
		out = append(out, g.pick([]string{"http://example.com", "https://h.example", ""})+b.String())
	}
	for _, p := range pool {
		toks := tokens(p)
		add(p)
		add(strings.Join(toks[:1+g.r.IntN(len(toks))], ""))
		add(Canonical(p + g.pick(segments)))
		add(Canonical(p + g.pick(segments) + g.pick(segments)))
	}
	for range 3 {
		add(g.path(nil))
	}
	add("/robots.txt")
	return out
}

// agentsToCheck returns every listed name (as a crawler might send it) and
// some unlisted names that are not substrings of a listed name (Emit cannot
// protect those under the 1996 reading; see TestEmitUnlistedSubstringLimit).
func (g gen) agentsToCheck(p Policy) (listed, unlisted []string) {
	var all []string
	for _, pg := range p.Groups {
		for _, a := range pg.Agents {
			if a != "*" {
				all = append(all, a)
				listed = append(listed, g.pick([]string{a, strings.ToLower(a), a + "/1.0"}))
			}
		}
	}
	cands := []string{"otherbot", "zz", "Q", g.name() + "z", "z" + g.name()}
	for _, a := range all {
		cands = append(cands, a+"z", "z"+a, a+"-x", g.name())
	}
next:
	for _, c := range cands {
		for _, a := range all {
			if strings.Contains(strings.ToLower(a), strings.ToLower(c)) {
				continue next
			}
		}
		unlisted = append(unlisted, c)
	}
	return listed, unlisted
}

func TestEmitRandomAgreement(t *testing.T) {
	seed := randomSeed(t)
	n := *nFlag
	if n == 0 {
		n = 1000
		if !testenv.Long() {
			n = 200
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x726f626f7473))
	g := gen{r}
	checks, failures, skipped, warned := 0, 0, 0, 0
	for i := 0; i < n && failures < 5; i++ {
		p, pool := g.policy()
		if slices.ContainsFunc(Portability(p), func(f Finding) bool { return f.Code == CodeTildeVariants }) {
			skipped++ // outside the guarantee; TestPortabilityComplete covers it
			continue
		}
		out, err := Emit(p)
		if err != nil {
			t.Fatalf("seed %d case %d: Emit: %v\npolicy %+v", seed, i, err, p)
		}
		f := Parse(out)
		for _, fd := range Lint(out) {
			if fd.Code != CodeCrawlDelay && fd.Code != CodeHost && fd.Code != CodeRedundant && fd.Code != CodeNoInherit { // the manifest's own choices
				failures++
				t.Errorf("seed %d case %d: lint finding on the emitted file: %v\n%s", seed, i, fd, out)
			}
		}
		tf := parseTemoto(out)
		real, err := robotstxt.FromBytes(out)
		if err != nil {
			t.Fatalf("seed %d case %d: temoto/robotstxt: %v\n%s", seed, i, err, out)
		}
		listed, unlisted := g.agentsToCheck(p)
		// covered[reader][agent]: a validate warning names that reader
		// and agent, so a disagreement there is not silent.
		covered := map[string]map[string]bool{"temoto/robotstxt": {}}
		for _, fd := range Portability(p) {
			if fd.Code == CodeShortName {
				covered["temoto/robotstxt"][strings.ToLower(fd.Agent)] = true
			}
		}
		for _, u := range g.urls(pool) {
			for ai, a := range append(listed, unlisted...) {
				want := p.Evaluate(a, u)
				got := map[string]bool{
					"rfc9309":      f.Match(a, u).Allowed,
					"1996":         f.Match1996(a, u).Allowed,
					"temoto-exact": tf.allowed(ProductToken(a), u, false),
				}
				// The real parsers do not exempt /robots.txt (a crawler
				// fetches it anyway): they are asked about other URLs.
				realToo := !isRobotsTxt(PathOf(u))
				if ai < len(listed) { // real temoto picks groups by prefix: listed names only
					got["temoto-prefix"] = tf.allowed(ProductToken(a), u, true)
					if realToo {
						got["temoto/robotstxt"] = real.TestAgent(PathOf(u), AgentName(a))
					}
				}
				if realToo && i%4 == 0 {
					// grobotstxt (Google's parser, ported) takes the
					// URL as given and the agent's product token; it
					// parses the file on every call, so it reads one
					// policy in four.
					got["grobotstxt"] = grobotstxt.AgentAllowed(string(out), ProductToken(a), absURL(u))
				}
				checks++
				for reader, allowed := range got {
					if allowed != want.Allowed && covered[reader][strings.ToLower(AgentName(a))] {
						warned++
						continue
					}
					if allowed != want.Allowed {
						failures++
						t.Errorf("seed %d case %d (rerun: go test ./robots -run TestEmitRandomAgreement -robots.seed=%d): "+
							"%s says allowed=%v, policy says %v (%s)\nagent %q url %q\npolicy %+v\nemitted:\n%s",
							seed, i, seed, reader, allowed, want.Allowed, want.Rule, a, u, p, out)
						break
					}
				}
			}
		}
	}
	if checks == 0 {
		t.Fatal("no verdicts compared")
	}
	t.Logf("seed %d: %d policies (%d with more than %d '~' in a path skipped), %d verdicts compared under 6 readers, %d disagreements covered by a warning",
		seed, n, skipped, maxTildes, checks, warned)
}

// absURL makes u absolute for parsers that want a full URL, keeping the
// path PathOf reads in it ("//a/b" is host a, path /b).
func absURL(u string) string {
	return "http://example.com" + PathOf(u)
}

// The limit Emit documents: an unlisted robot whose name is a substring of
// a listed name obeys that name's record under the 1996 draft.
func TestEmitUnlistedSubstringLimit(t *testing.T) {
	p := Policy{Groups: []PolicyGroup{
		{Agents: []string{"webcrawler"}, Rules: []PathRule{{Path: "/private"}}},
		{Agents: []string{"*"}, Rules: []PathRule{{Path: "/"}}},
	}}
	out, err := Emit(p)
	if err != nil {
		t.Fatal(err)
	}
	f := Parse(out)
	if p.Evaluate("crawler", "/x").Allowed || f.Match("crawler", "/x").Allowed {
		t.Error("RFC 9309: crawler should read * and be disallowed")
	}
	if !f.Match1996("crawler", "/x").Allowed {
		t.Error("1996: crawler was expected to read webcrawler's record (the documented limit)")
	}
}

// Portability is complete: when the readers of an emitted file disagree
// with the policy for an agent, Portability has warned about a pattern of a
// group that applies to that agent. Policies here may use '*' and '$'.
func TestPortabilityComplete(t *testing.T) {
	seed := randomSeed(t)
	n := *nFlag
	if n == 0 {
		n = 500
		if !testenv.Long() {
			n = 50
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x706f7274))
	g := gen{r}
	disagreements := 0
	for i := range n {
		p, pool := g.policy()
		for gi := range p.Groups { // sprinkle wildcards
			for ri := range p.Groups[gi].Rules {
				switch r.IntN(6) {
				case 0:
					p.Groups[gi].Rules[ri].Path += "$"
				case 1:
					p.Groups[gi].Rules[ri].Path = "/*" + p.Groups[gi].Rules[ri].Path[1:]
				}
			}
		}
		out, err := Emit(p)
		if err != nil {
			t.Fatalf("seed %d case %d: %v", seed, i, err)
		}
		warned := map[string]bool{}
		for _, f := range Portability(p) {
			for _, a := range strings.Split(f.Agent, ", ") {
				warned[strings.ToLower(a)] = true
			}
		}
		f, tf := Parse(out), parseTemoto(out)
		listed, unlisted := g.agentsToCheck(p)
		// covered[reader][agent]: a validate warning names that reader
		// and agent, so a disagreement there is not silent.
		covered := map[string]map[string]bool{"temoto/robotstxt": {}}
		for _, fd := range Portability(p) {
			if fd.Code == CodeShortName {
				covered["temoto/robotstxt"][strings.ToLower(fd.Agent)] = true
			}
		}
		for _, u := range g.urls(pool) {
			for ai, a := range append(listed, unlisted...) {
				want := p.Evaluate(a, u).Allowed
				if f.Match(a, u).Allowed == want && f.Match1996(a, u).Allowed == want &&
					tf.allowed(ProductToken(a), u, false) == want {
					continue
				}
				disagreements++
				key := strings.ToLower(ProductToken(a))
				if ai >= len(listed) || !policyNames(p, key) {
					key = "*"
				}
				if !warned[key] {
					t.Fatalf("seed %d case %d: readers disagree for %q on %q but Portability warned only about %v\n%s",
						seed, i, a, u, warned, out)
				}
			}
		}
	}
	if disagreements == 0 {
		t.Fatal("no disagreement at all: the wildcards did not exercise Portability")
	}
	t.Logf("seed %d: %d disagreements, each covered by a warning", seed, disagreements)
}

// policyNames reports whether a group of p names agent (lower case).
func policyNames(p Policy, agent string) bool {
	for _, g := range p.Groups {
		for _, a := range g.Agents {
			if strings.ToLower(a) == agent {
				return true
			}
		}
	}
	return false
}
