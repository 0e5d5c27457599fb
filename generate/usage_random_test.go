package generate

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"
	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tree"
	"github.com/discgen/discgen/validate"
)

var (
	usageSeedFlag = flag.Uint64("usage.seed", 0, "seed for the usage differential test (default: USAGE_SEED or a fixed seed)")
	usageNFlag    = flag.Int("usage.n", 0, "number of random manifests of the usage differential test (default 100, 400 in the long tier)")
)

const usageDefaultSeed = 20261127

// ugen builds random manifests that stress what usage preferences can
// say, in the style of the robots package's emission generator: paths
// that are prefixes and extensions of one another (so path-scoped
// preferences nest), '~', non-ASCII and %20, site and group preferences
// that agree and disagree, presets, and every choice of formats.
type ugen struct{ r *rand.Rand }

func (g ugen) pick(s []string) string { return s[g.r.IntN(len(s))] }

var usageSegments = []string{"a", "b", "ab", "~u", "é", "%20", "x.html", "/", "/", "-", "."}

// path returns a canonical path: half the time a prefix (up to a "/") or
// an extension of one in pool.
func (g ugen) path(pool []string) string {
	if len(pool) > 0 && g.r.IntN(2) == 0 {
		base := g.pick(pool)
		if g.r.IntN(2) == 0 {
			if i := strings.LastIndexByte(base[:len(base)-1], '/'); i >= 0 {
				return base[:i+1]
			}
			return base
		}
		return robots.Canonical(base + g.pick(usageSegments))
	}
	var b strings.Builder
	b.WriteString("/")
	for range 1 + g.r.IntN(3) {
		b.WriteString(g.pick(usageSegments))
	}
	return robots.Canonical(b.String())
}

func (g ugen) word() string { return g.pick([]string{"", "", "yes", "no"}) }

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// prefsYAML returns "train_ai: no, search: yes" for the words stated.
func prefsYAML(train, search, input string) []string {
	var out []string
	for _, kv := range [][2]string{{"train_ai", train}, {"search", search}, {"ai_input", input}} {
		if kv[1] != "" {
			out = append(out, kv[0]+": "+kv[1])
		}
	}
	return out
}

// usage returns a usage as a YAML flow mapping, paths drawn from pool
// (and added to it).
func (g ugen) usage(pool *[]string) string {
	parts := prefsYAML(g.word(), g.word(), g.word())
	var paths []string
	seen := map[string]bool{}
	for range g.r.IntN(4) {
		p := g.path(*pool)
		if seen[p] {
			continue
		}
		seen[p] = true
		*pool = append(*pool, p)
		pp := prefsYAML(g.word(), g.word(), g.word())
		if len(pp) == 0 {
			pp = prefsYAML(g.pick([]string{"yes", "no"}), "", "")
		}
		paths = append(paths, "{path: "+quote(p)+", "+strings.Join(pp, ", ")+"}")
	}
	if len(paths) > 0 {
		parts = append(parts, "paths: ["+strings.Join(paths, ", ")+"]")
	}
	switch g.r.IntN(6) {
	case 0:
		parts = append(parts, "formats: [content-usage]")
	case 1:
		parts = append(parts, "formats: [content-signal]")
	case 2:
		parts = append(parts, "formats: [content-usage, content-signal]")
	}
	if len(parts) == 0 {
		parts = prefsYAML("no", "", "")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

var usageNames = []string{"FooBot", "barbot", "Baz-Crawler", "QuxBot", "examplebot"}

// manifest returns a random site manifest and the agents to read it for:
// each name, two agents of its preset group, and a crawler no group names.
func (g ugen) manifest() (string, []string) {
	var b strings.Builder
	b.WriteString("version: 1\nsite: {url: \"https://example.org/\"}\n")
	var pool []string
	for range 1 + g.r.IntN(3) {
		pool = append(pool, g.path(pool))
	}
	if g.r.IntN(3) != 0 {
		b.WriteString("usage: " + g.usage(&pool) + "\n")
	}
	b.WriteString("agents:\n")
	names := slices.Clone(usageNames)
	g.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	star, preset := false, false
	agents := []string{"zzunlistedbot"}
	for range 1 + g.r.IntN(4) {
		var who string
		switch {
		case !preset && g.r.IntN(4) == 0:
			preset = true
			p := g.pick([]string{"ai-search", "ai-user", "ai-training", "seo"})
			who = "presets: [" + p + "]"
			var simple []string
			for _, a := range GroupAgents(manifest.Group{Presets: []string{p}}) {
				if regexp.MustCompile(`^[A-Za-z_-]+$`).MatchString(a) {
					simple = append(simple, a)
				}
			}
			agents = append(agents, simple[0], simple[len(simple)-1])
		case !star && g.r.IntN(4) == 0:
			star = true
			who = "names: [\"*\"]"
		case len(names) > 0:
			n := 1 + g.r.IntN(2)
			if n > len(names) {
				n = len(names)
			}
			who = "names: [" + strings.Join(names[:n], ", ") + "]"
			agents = append(agents, names[:n]...)
			names = names[n:]
		default:
			continue
		}
		var dis, allow []string
		for range g.r.IntN(3) {
			p := g.path(pool)
			pool = append(pool, p)
			if g.r.IntN(3) == 0 {
				allow = append(allow, quote(p))
			} else {
				dis = append(dis, quote(p))
			}
		}
		fmt.Fprintf(&b, "  - {%s, disallow: [%s]", who, strings.Join(dis, ", "))
		if len(allow) > 0 {
			fmt.Fprintf(&b, ", allow: [%s]", strings.Join(allow, ", "))
		}
		if g.r.IntN(3) != 0 {
			b.WriteString(", usage: " + g.usage(&pool))
		}
		b.WriteString("}\n")
	}
	b.WriteString(g.rights(pool))
	return b.String(), agents
}

// usageURLs returns the canonical URL paths to read at: each path of the
// manifest, an extension, its directory, and a few others.
func usageURLs(doc *manifest.Doc[manifest.Site]) []string {
	var paths []string
	add := func(u *manifest.Usage) {
		if u == nil {
			return
		}
		for _, p := range u.Paths {
			paths = append(paths, robots.Canonical(p.Path))
		}
	}
	add(doc.Value.Usage)
	for _, g := range doc.Value.Agents {
		add(g.Usage)
		for _, p := range append(slices.Clone(g.Allow), g.Disallow...) {
			paths = append(paths, robots.Canonical(p))
		}
	}
	out := []string{"/", "/zz", "/a/b/c"}
	for _, p := range paths {
		out = append(out, p, robots.Canonical(p+"x"), robots.Canonical(p+"/x.html"))
		if i := strings.LastIndexByte(p[:len(p)-1], '/'); i >= 0 {
			out = append(out, p[:i+1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// wantUsage returns the usage the manifest gives agent: that of the group
// naming its product token (RFC 9309), else of the "*" group, else the
// site's.
func wantUsage(m *manifest.Site, agent string) *robots.Usage {
	tok := strings.ToLower(robots.ProductToken(agent))
	for _, g := range m.Agents {
		for _, n := range GroupAgents(g) {
			if n != "*" && strings.ToLower(robots.ProductToken(n)) == tok {
				return EffectiveUsage(m.Usage, g.Usage)
			}
		}
	}
	for _, g := range m.Agents {
		if slices.Contains(g.Names, "*") {
			return EffectiveUsage(m.Usage, g.Usage)
		}
	}
	return EffectiveUsage(m.Usage, nil)
}

// headerRule is one rule of a server configuration's Content-Usage
// header: a path pattern (or regular expression) and its value.
type headerRule struct {
	pattern string
	re      *regexp.Regexp
	value   string
}

// headersFileRules reads the Content-Usage rules of a _headers file.
func headersFileRules(t *testing.T, data []byte) []headerRule {
	var out []headerRule
	pattern := ""
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		l := sc.Text()
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case !strings.HasPrefix(l, " "):
			pattern = l
		default:
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Content-Usage: "); ok {
				out = append(out, headerRule{pattern: pattern, value: v})
			}
		}
	}
	return out
}

// headersFileReading is what Netlify and Cloudflare Pages send for a
// canonical path: the values of every matching rule joined with ", ", read
// as one dictionary (a repeated key keeps its last value).
func headersFileReading(rules []headerRule, path string) aipref.Prefs {
	var vals []string
	for _, r := range rules {
		if p, ok := strings.CutSuffix(r.pattern, "*"); ok && strings.HasPrefix(path, p) || r.pattern == path {
			vals = append(vals, r.value)
		}
	}
	if len(vals) == 0 {
		return aipref.Prefs{}
	}
	p, _ := aipref.ParseUsage(strings.Join(vals, ", "))
	return p
}

var (
	caddyMatcher = regexp.MustCompile("^@(discgen_usage_[0-9]+) path_regexp `(.*)`$")
	caddyHeader  = regexp.MustCompile(`^header @(discgen_usage_[0-9]+) Content-Usage "(.*)"$`)
)

// caddyRules reads the Content-Usage rules of a Caddy snippet.
func caddyRules(t *testing.T, data []byte) []headerRule {
	matchers := map[string]*regexp.Regexp{}
	var out []headerRule
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if m := caddyMatcher.FindStringSubmatch(l); m != nil {
			re, err := regexp.Compile(m[2])
			if err != nil {
				t.Fatalf("caddy: %q: %v", l, err)
			}
			matchers[m[1]] = re
		}
		if m := caddyHeader.FindStringSubmatch(l); m != nil {
			out = append(out, headerRule{pattern: m[1], re: matchers[m[1]], value: m[2]})
		}
	}
	return out
}

// caddyReading is what Caddy sends for a canonical path: its header
// directives in the file's order on the decoded path, the last matching
// one setting the value.
func caddyReading(t *testing.T, rules []headerRule, path string) aipref.Prefs {
	dec, err := url.PathUnescape(path)
	if err != nil {
		t.Fatalf("%q: %v", path, err)
	}
	v := ""
	for _, r := range rules {
		if r.re.MatchString(dec) {
			v = r.value
		}
	}
	if v == "" {
		return aipref.Prefs{}
	}
	p, _ := aipref.ParseUsage(v)
	return p
}

// TestUsageReadersAgree is the proof for usage preferences that
// TestEmitRandomAgreement is for fetch verdicts: over random manifests
// (site usage, per-group usage, nested path overrides, presets, formats),
// for every agent and URL, each reader of the built files reads the
// manifest's preference for each category or none:
//
//   - robots.txt's Content-Usage lines alone (longest matching path),
//   - its Content-Signal lines alone,
//   - both together (a "no" in either wins: what check, report and expect
//     read),
//   - the Content-Usage header as the --server configuration sends it,
//     read from the emitted _headers file (Netlify's joining of matching
//     rules) and the emitted Caddy snippet (its regular expressions on the
//     decoded path, with Go's regexp, which Caddy uses).
//
// For every URL, the licence and reservation are read as well
// (checkRightsReaders): robots.txt's License line, tdmrep.json's first
// matching rule, and the Link and tdm headers _headers and Caddy send,
// each against the manifest's own meaning (manifestTDM).
//
// A reading other than the manifest's is a contradiction; none is
// allowed. A reading of none where the manifest states a preference that
// the form is written to say is allowed only where the build warned that
// the form leaves that category out. A manifest the build refuses must be
// refused for a path Content-Usage cannot write.
func TestUsageReadersAgree(t *testing.T) {
	n := *usageNFlag
	if n == 0 {
		n = 100
		if testenv.Long() {
			n = 400
		}
	}
	seed := uint64(usageDefaultSeed)
	if *usageSeedFlag != 0 {
		seed = *usageSeedFlag
	} else if s := os.Getenv("USAGE_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("USAGE_SEED=%q: %v", s, err)
		}
		seed = v
	}
	g := ugen{rand.New(rand.NewPCG(seed, 0x7573616765))}
	type readerStat struct{ readings, stated, none int }
	stats := map[string]*readerStat{}
	readerNames := []string{"Content-Usage", "Content-Signal", "both", "_headers", "Caddy"}
	for _, r := range readerNames {
		stats[r] = &readerStat{}
	}
	manifests, refused, pairs, failures, rightsReadings, rightsStated := 0, 0, 0, 0, 0, 0
	for manifests < n && failures < 5 {
		src, agents := g.manifest()
		doc, errs := manifest.LoadSite("site.yaml", []byte(src), "")
		if doc == nil || errs.HasErrors() {
			t.Fatalf("load: %v\n%s", errs, src)
		}
		m, verrs := validate.Site(doc, validate.Options{Now: now})
		if m == nil {
			t.Fatalf("validate: %v\n%s", verrs, src)
		}
		manifests++
		data, rerrs := siteRobots(doc)
		if rerrs.HasErrors() {
			for _, d := range rerrs.Errors() {
				if !strings.Contains(d.Message, "states nothing Content-Usage can say") {
					t.Fatalf("refused for another reason: %v\n%s", d, src)
				}
			}
			refused++
			continue
		}
		access, _ := SiteAccess(m)
		_, herrs := HeaderUsage(m)
		var warnings diag.List
		warnings.Append(verrs)
		warnings.Append(rerrs)
		warnings.Append(herrs)
		kinds := []serverconf.Kind{serverconf.Headers, serverconf.Caddy}
		serverWarnings := serverconf.Warnings(kinds, access)
		warned := func(s ...string) bool {
			for _, d := range warnings {
				if slices.ContainsFunc(s, func(x string) bool { return strings.Contains(d.Message, x) }) {
					return true
				}
			}
			return false
		}
		headersWarned := func(c aipref.Category) bool {
			return slices.ContainsFunc(serverWarnings, func(w string) bool {
				return strings.Contains(w, "cannot unset "+c.Manifest+" ")
			})
		}
		public, separate, err := serverconf.RenderAccess(tree.Tree{"robots.txt": {Data: data}}, kinds, access)
		if err != nil {
			t.Fatalf("server configuration: %v\n%s", err, src)
		}
		hrules := headersFileRules(t, public[serverconf.HeadersFile].Data)
		crules := caddyRules(t, separate[serverconf.CaddyFile].Data)
		f := robots.Parse(data)
		rightsSeen := map[string]bool{}
		for _, u := range append(usageURLs(doc), rightsURLs(doc)...) {
			if !rightsSeen[u] {
				rightsSeen[u] = true
				rightsReadings++
				if _, _, ok := manifestTDM(doc.Value, u); ok {
					rightsStated++
				}
				failures += checkRightsReaders(t, seed, src, doc.Value, data, public[serverconf.HeadersFile].Data, separate[serverconf.CaddyFile].Data, serverWarnings, u)
			}
			header := map[string]aipref.Prefs{"_headers": headersFileReading(hrules, u), "Caddy": caddyReading(t, crules, u)}
			for _, a := range agents {
				pairs++
				eff := wantUsage(doc.Value, a)
				want, _ := eff.Effective(u)
				r := f.Usage(a, "https://example.org"+u) // "//x" alone would be a host
				got := map[string]aipref.Prefs{"Content-Usage": r.ContentUsage, "Content-Signal": r.ContentSignal, "both": r.Combined(),
					"_headers": header["_headers"], "Caddy": header["Caddy"]}
				cu := eff != nil && eff.ContentUsage
				cs := eff != nil && eff.ContentSignal
				for _, reader := range readerNames {
					st := stats[reader]
					st.readings++
					for _, c := range aipref.Categories {
						w, v := c.Get(want), c.Get(got[reader])
						if v != aipref.PrefUnset {
							st.stated++
						}
						if v != aipref.PrefUnset && v != w {
							failures++
							t.Errorf("seed %d: a reader of %s reads %s=%s for %s at %s, the manifest says %s (rerun: go test ./generate -run TestUsageReadersAgree -usage.seed=%d)\nmanifest:\n%s\nrobots.txt:\n%s\n_headers rules %+v",
								seed, reader, c.Manifest, v, a, u, w, seed, src, data, hrules)
							continue
						}
						if v != aipref.PrefUnset || w == aipref.PrefUnset {
							continue
						}
						signalOut := !cs || warned(c.Manifest+" is left out of Content-Signal")
						var covered bool
						switch reader {
						case "Content-Usage":
							covered = !cu || c.ContentUsage == ""
						case "Content-Signal":
							covered = signalOut
						case "both":
							covered = (!cu || c.ContentUsage == "") && signalOut
						default:
							covered = c.ContentUsage == "" || warned(c.Manifest+" is left out of the Content-Usage header", "no Content-Usage header is sent") ||
								reader == "_headers" && headersWarned(c)
						}
						if !covered {
							failures++
							t.Errorf("seed %d: a reader of %s reads no %s for %s at %s, the manifest says %s, and no warning says the form leaves it out\nmanifest:\n%s\nrobots.txt:\n%s\nwarnings: %v",
								seed, reader, c.Manifest, a, u, w, src, data, warnings)
						}
						st.none++
					}
				}
			}
		}
	}
	if refused == manifests || pairs == 0 {
		t.Fatalf("nothing read: %d manifests, %d refused", manifests, refused)
	}
	t.Logf("seed %d: %d manifests (%d refused at a path Content-Usage cannot write), %d agent×URL pairs", seed, manifests, refused, pairs)
	if rightsStated == 0 {
		t.Fatalf("no URL with a reservation among %d", rightsReadings)
	}
	t.Logf("licence and reservation: %d URLs (%d with a reservation), each read from robots.txt, tdmrep.json and the Link and tdm headers of _headers and Caddy, each the manifest's", rightsReadings, rightsStated)
	for _, r := range readerNames {
		st := stats[r]
		t.Logf("%-15s %6d readings: %6d preferences read, each the manifest's; %6d none where the manifest states one, the form unable to say it or warned to leave it out; 0 contradictions",
			r+":", st.readings, st.stated, st.none)
	}
}
