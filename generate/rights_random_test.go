package generate

import (
	"bufio"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
)

// rights returns random license and tdm blocks (often none), tdm paths
// drawn from pool so that they nest with the rules and usage paths.
func (g ugen) rights(pool []string) string {
	var b strings.Builder
	if g.r.IntN(2) == 0 {
		u := g.pick([]string{"/license.xml", "https://licenses.example/site.xml", "l/%7Ex.xml"})
		b.WriteString("license: {url: " + quote(u))
		if g.r.IntN(3) == 0 {
			b.WriteString(", robots_txt: false")
		}
		b.WriteString("}\n")
	}
	if g.r.IntN(3) == 0 {
		return b.String()
	}
	res := func() string { return g.pick([]string{"true", "false"}) }
	pol := func() string { return g.pick([]string{"", "", "/p.json", "https://rights.example/x"}) }
	var parts []string
	site := g.r.IntN(3) != 0
	if site {
		parts = append(parts, "reservation: "+res())
	}
	if p := pol(); p != "" {
		parts = append(parts, "policy: "+quote(p))
	}
	var paths []string
	seen := map[string]bool{}
	for range g.r.IntN(4) {
		p := g.path(pool)
		if seen[p] || p == "/" { // validate refuses "/", which tdm itself says
			continue
		}
		seen[p] = true
		e := "{path: " + quote(p)
		if !site || g.r.IntN(4) != 0 {
			e += ", reservation: " + res()
		}
		if q := pol(); q != "" {
			e += ", policy: " + quote(q)
		} else if !strings.Contains(e, "reservation") {
			e += ", reservation: " + res()
		}
		paths = append(paths, e+"}")
	}
	if len(paths) > 0 {
		parts = append(parts, "paths: ["+strings.Join(paths, ", ")+"]")
	}
	if len(parts) == 0 {
		parts = append(parts, "reservation: true")
	}
	b.WriteString("tdm: {" + strings.Join(parts, ", ") + "}\n")
	return b.String()
}

// rightsURLs returns the URL paths the tdm paths add to read at.
func rightsURLs(doc *manifest.Doc[manifest.Site]) []string {
	var out []string
	if t := doc.Value.TDM; t != nil {
		for _, p := range t.Paths {
			c := robots.Canonical(p.Path)
			out = append(out, c, robots.Canonical(c+"x"), robots.Canonical(c+"/y"))
		}
	}
	return out
}

// manifestTDM is what the manifest means at a URL path, read from it
// directly: the longest tdm path matching (as Allow and Disallow match),
// its reservation or the site's, its policy or, where rights are
// reserved, the site's; else the site's own; ok false where the manifest
// states no reservation there.
func manifestTDM(m *manifest.Site, path string) (res int, policy string, ok bool) {
	t := m.TDM
	if t == nil {
		return 0, "", false
	}
	abs := func(s string) string {
		if s == "" {
			return ""
		}
		return absolute(m, s)
	}
	best, bestLen := -1, -1
	for i, p := range t.Paths {
		c := robots.Canonical(p.Path)
		if len(c) > bestLen && robots.PatternMatches(robots.Canonical(path), c) {
			best, bestLen = i, len(c)
		}
	}
	b := func(x *bool) int {
		if *x {
			return 1
		}
		return 0
	}
	if best < 0 {
		if t.Reservation == nil {
			return 0, "", false
		}
		return b(t.Reservation), abs(t.Policy), true
	}
	p := t.Paths[best]
	r := p.Reservation
	if r == nil {
		r = t.Reservation
	}
	pol := p.Policy
	if pol == "" && *r {
		pol = t.Policy
	}
	return b(r), abs(pol), true
}

// manifestLicense is the licence URL the manifest gives, absolute.
func manifestLicense(m *manifest.Site) string {
	if m.License == nil {
		return ""
	}
	u, _ := url.Parse(m.Site.URL)
	return resolveURI(u, m.License.URL)
}

type tdmHeaderRule struct {
	re, not     *regexp.Regexp
	reservation string
	policy      string
	pattern     string // _headers
}

var (
	caddyTDMMatcher = regexp.MustCompile(`^@(discgen_tdm_[0-9]+) \{$`)
	caddyTDMPath    = regexp.MustCompile("^(not )?path_regexp `(.*)`$")
	caddyTDMHeader  = regexp.MustCompile(`^header @(discgen_tdm_[0-9]+) (tdm-reservation|tdm-policy) "(.*)"$`)
	caddyLink       = regexp.MustCompile(`^header \+Link "(.*)"$`)
)

// caddyTDM reads the tdm rules and the licence Link of a Caddy snippet.
func caddyTDM(t *testing.T, data []byte) (rules []*tdmHeaderRule, link string) {
	byName := map[string]*tdmHeaderRule{}
	var cur *tdmHeaderRule
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case caddyTDMMatcher.MatchString(l):
			cur = &tdmHeaderRule{}
			byName[caddyTDMMatcher.FindStringSubmatch(l)[1]] = cur
			rules = append(rules, cur)
		case cur != nil && caddyTDMPath.MatchString(l):
			m := caddyTDMPath.FindStringSubmatch(l)
			re, err := regexp.Compile(m[2])
			if err != nil {
				t.Fatalf("caddy: %q: %v", l, err)
			}
			if m[1] != "" {
				cur.not = re
			} else {
				cur.re = re
			}
		case l == "}":
			cur = nil
		case caddyTDMHeader.MatchString(l):
			m := caddyTDMHeader.FindStringSubmatch(l)
			r := byName[m[1]]
			v, _ := strconv.Unquote(`"` + m[3] + `"`)
			if m[2] == "tdm-reservation" {
				r.reservation = v
			} else {
				r.policy = v
			}
		case caddyLink.MatchString(l):
			link, _ = strconv.Unquote(`"` + caddyLink.FindStringSubmatch(l)[1] + `"`)
		}
	}
	return rules, link
}

// caddyTDMReading is what Caddy sends for a canonical path: every
// matching rule's headers (the rules are built to never meet).
func caddyTDMReading(t *testing.T, rules []*tdmHeaderRule, path string) (res, pol []string) {
	dec, err := url.PathUnescape(path)
	if err != nil {
		t.Fatalf("%q: %v", path, err)
	}
	for _, r := range rules {
		if r.re.MatchString(dec) && (r.not == nil || !r.not.MatchString(dec)) {
			res = append(res, r.reservation)
			if r.policy != "" {
				pol = append(pol, r.policy)
			}
		}
	}
	return res, pol
}

// headersTDM reads the tdm rules and the "/*" Link of a _headers file.
func headersTDMRules(data []byte) (rules []*tdmHeaderRule, link string) {
	pattern := ""
	var cur *tdmHeaderRule
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		l := sc.Text()
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case !strings.HasPrefix(l, " "):
			pattern, cur = l, nil
		default:
			k, v, _ := strings.Cut(strings.TrimSpace(l), ": ")
			switch k {
			case "Link":
				if pattern == "/*" && strings.Contains(v, `rel="license"`) {
					link = v
				}
			case "tdm-reservation":
				cur = &tdmHeaderRule{pattern: pattern, reservation: v}
				rules = append(rules, cur)
			case "tdm-policy":
				cur.policy = v
			}
		}
	}
	return rules, link
}

// headersTDMReading is what Netlify and Cloudflare Pages send for a
// canonical path: the values of every matching rule, joined.
func headersTDMReading(rules []*tdmHeaderRule, path string) (res, pol []string) {
	for _, r := range rules {
		if p, ok := strings.CutSuffix(r.pattern, "*"); ok && strings.HasPrefix(path, p) || r.pattern == path {
			res = append(res, r.reservation)
			if r.policy != "" {
				pol = append(pol, r.policy)
			}
		}
	}
	return res, pol
}

// checkRightsReaders checks, at one URL path, that every reader of the
// built files says the manifest's licence and reservation: robots.txt's
// License line, tdmrep.json's first matching rule, and the Link and tdm
// headers as the _headers file and the Caddy snippet send them. _headers
// may leave a location out only where the build warned so (readers then
// take tdmrep.json's). It returns the number of failures.
func checkRightsReaders(t *testing.T, seed uint64, src string, m *manifest.Site, robotsTxt, headersFile, caddyFile []byte, warnings []string, u string) int {
	t.Helper()
	fails := 0
	fail := func(format string, args ...any) {
		fails++
		t.Errorf("seed %d: at %s: "+format+"\nmanifest:\n%s", append(append([]any{seed, u}, args...), src)...)
	}
	lic := manifestLicense(m)
	line := ""
	for _, l := range robots.Licenses(robotsTxt) {
		if l.Grouped {
			// lint would warn of it (L003): a reader may take it for
			// the group before it alone.
			fail("robots.txt's License line %d stands in a group", l.Num)
		}
		if !l.InGroup && line == "" {
			line = l.Value
		}
	}
	wantLine := lic
	if !m.License.WritesRobotsTxt() {
		wantLine = ""
	}
	if line != wantLine {
		fail("robots.txt's License line says %q, the manifest %q", line, wantLine)
	}
	wantLink := ""
	if lic != "" {
		wantLink = serverconf.LicenseLink(lic)
	}
	hrules, hlink := headersTDMRules(headersFile)
	crules, clink := caddyTDM(t, caddyFile)
	if hlink != wantLink || clink != wantLink {
		fail("the Link header says %q (_headers), %q (Caddy), the manifest %q", hlink, clink, wantLink)
	}

	res, pol, ok := manifestTDM(m, u)
	want := func(r []string, p []string) bool {
		if !ok {
			return len(r) == 0 && len(p) == 0
		}
		return slices.Equal(r, []string{strconv.Itoa(res)}) && (pol == "" && len(p) == 0 || slices.Equal(p, []string{pol}))
	}
	var fileR, fileP []string
	if rules := tdmRules(m); len(rules) > 0 {
		ps, probs := tdmrep.Parse(tdmrep.Marshal(rules))
		for _, p := range probs {
			if !p.Warning {
				fail("tdmrep.json: %v", p)
			}
		}
		for _, p := range ps {
			if robots.PatternMatches(robots.Canonical(u), robots.Canonical(p.Location)) {
				fileR = []string{strconv.Itoa(p.Reservation)}
				if p.Policy != "" {
					fileP = []string{p.Policy}
				}
				break
			}
		}
	}
	if !want(fileR, fileP) {
		fail("tdmrep.json says %q %q, the manifest %d %q (stated %v)", fileR, fileP, res, pol, ok)
	}
	if r, p := caddyTDMReading(t, crules, u); !want(r, p) {
		fail("Caddy's tdm headers say %q %q, the manifest %d %q (stated %v)", r, p, res, pol, ok)
	}
	if r, p := headersTDMReading(hrules, u); !want(r, p) {
		left := len(r) == 0 && len(p) == 0 && slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, "TDMRep location") })
		if !left {
			fail("_headers' tdm headers say %q %q, the manifest %d %q (stated %v), and no warning says a location is left out", r, p, res, pol, ok)
		}
	}
	return fails
}
