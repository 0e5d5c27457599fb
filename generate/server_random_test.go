package generate

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/serverconf"
	"github.com/discgen/discgen/tdmrep"
	"github.com/discgen/discgen/tree"
	"github.com/discgen/discgen/validate"
)

// serverManifest is a random manifest of TestUsageReadersAgree's
// generator, its paths varied with what servers read differently from
// robots.txt and TDMRep readers: escaped reserved characters ("a%2Fb",
// "a%3Db", "a%40b"), the same raw ("a=b", "a@b"), wildcards that run into
// the query and end anchors ("*.html$", "*.html"); and some groups
// enforced.
func serverManifest(g ugen) (string, []string) {
	src, agents := g.manifest()
	ab := g.pick([]string{"a%2Fb", "a%3Db", "a=b", "a%40b", "a@b", "a%2Cb", "ab"})
	x := g.pick([]string{"*.html$", "*.html", "x.html", "x.html$"})
	quoted := regexp.MustCompile(`"/[^"]*"`)
	src = quoted.ReplaceAllStringFunc(src, func(s string) string {
		s = strings.ReplaceAll(s, "ab", ab)
		return strings.ReplaceAll(s, "x.html", x)
	})
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "  - {names: [") && !strings.HasPrefix(l, `  - {names: ["*"]`) && g.r.IntN(2) == 0 {
			lines[i] = "  - {enforce: true, " + strings.TrimPrefix(l, "  - {")
		}
	}
	return strings.Join(lines, "\n"), agents
}

// urlForms returns the request targets a client may send for the
// canonical URL path u: u itself; with unreserved characters escaped;
// with lower-case hex; with reserved characters escaped; with a query
// (two: one that a '*' may run into); with "//"; with "/./" and "/../";
// with non-ASCII bytes raw.
func urlForms(u string) map[string]string {
	var unres, lower, reserved, raw strings.Builder
	escaped := false
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == '%' && i+2 < len(u):
			esc := u[i : i+3]
			unres.WriteString(esc)
			lower.WriteString(strings.ToLower(esc))
			reserved.WriteString(esc)
			if v := decodePath(esc)[0]; v >= 0x80 {
				raw.WriteByte(v)
			} else {
				raw.WriteString(esc)
			}
			i += 2
			continue
		case c != '/' && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0):
			if !escaped || c == '~' {
				unres.WriteString("%" + strings.ToUpper(strconvHex(c)))
				lower.WriteString("%" + strconvHex(c))
				escaped = true
			} else {
				unres.WriteByte(c)
				lower.WriteByte(c)
			}
			reserved.WriteByte(c)
		case c == '/' && i > 0 || strings.IndexByte("!$&'()*+,;=:@", c) >= 0:
			unres.WriteByte(c)
			lower.WriteByte(c)
			reserved.WriteString("%" + strings.ToUpper(strconvHex(c)))
		default:
			unres.WriteByte(c)
			lower.WriteByte(c)
			reserved.WriteByte(c)
		}
		raw.WriteByte(c)
	}
	double := "/" + u
	if i := strings.IndexByte(u[1:], '/'); i >= 0 {
		double = u[:i+1] + "/" + u[i+1:]
	}
	return map[string]string{
		"canonical":            u,
		"unreserved escaped":   unres.String(),
		"lower-case hex":       lower.String(),
		"reserved escaped":     reserved.String(),
		"with a query":         u + "?x=1",
		"with a query of html": u + "?q=a.html",
		"with //":              double,
		"with /./":             "/." + u,
		"with /../":            "/zz/.." + u,
		"non-ASCII raw":        raw.String(),
	}
}

func strconvHex(c byte) string {
	return string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15])
}

// TestServerReadersAgree extends TestUsageReadersAgree to the servers:
// over random manifests (usage and tdm paths with escaped and raw
// reserved characters, '*' and '$'; groups enforced), for every URL of
// the manifest in every form a client can send (urlForms) and every
// agent, the response each server sends, as its reader of the generated
// configuration models it (nginx, Apache, Caddy, _headers:
// server_readers_test.go), agrees with the files under their own readers:
//
//   - a Content-Usage header states, for each category, what robots.txt
//     says for that agent at that URL (robots.File.Usage, Content-Usage
//     and Content-Signal together; RFC 9309 matching on the URL as sent);
//   - a tdm-reservation and tdm-policy header say what tdmrep.json's first
//     matching rule says (tdmrep.Parse; the location matched against the
//     canonical path and query);
//   - an enforced agent is served only where robots.txt allows it
//     (robots.File.Match), and refused at a URL robots.txt allows only
//     where the server cannot read the URL as robots.txt readers do (the
//     conservative answer, counted).
//
// A missing header is no contradiction (a reader then takes the files'
// word); each is counted. _headers has no guard, so its reader reads the
// forms in normal form only.
func TestServerReadersAgree(t *testing.T) {
	n := *usageNFlag
	if n == 0 {
		n = 25
		switch {
		case testenv.Long():
			n = 400
		case testing.Short():
			n = 10
		}
	}
	seed := uint64(usageDefaultSeed)
	if *usageSeedFlag != 0 {
		seed = *usageSeedFlag
	}
	g := ugen{rand.New(rand.NewPCG(seed, 0x736572766572))}
	readers := []string{"nginx", "Apache", "Caddy", "_headers"}
	type stat struct {
		requests, usageStated, usageNone, usageOnlyHeader, tdmStated, tdmNone, served, servedWarned, refused, refusedAllowed int
	}
	stats := map[string]*stat{}
	for _, r := range readers {
		stats[r] = &stat{}
	}
	kinds := []serverconf.Kind{serverconf.Headers, serverconf.Htaccess, serverconf.Nginx, serverconf.Caddy}
	manifests, skipped, urls, forms, enforced, failures := 0, 0, 0, 0, 0, 0
	formNames := map[string]bool{}
	for manifests < n && failures < 5 {
		src, agents := serverManifest(g)
		doc, errs := manifest.LoadSite("site.yaml", []byte(src), "")
		if doc == nil || errs.HasErrors() {
			t.Fatalf("load: %v\n%s", errs, src)
		}
		m, _ := validate.Site(doc, validate.Options{Now: now})
		if m == nil {
			skipped++ // two paths of one length that may meet, ...
			if skipped > 20*n {
				t.Fatalf("%d manifests refused, %d read", skipped, manifests)
			}
			continue
		}
		data, rerrs := siteRobots(doc)
		if rerrs.HasErrors() {
			skipped++
			continue
		}
		manifests++
		access, aerrs := SiteAccess(m)
		// The rules enforce leaves out, with a warning: agent, canonical
		// pattern.
		notEnforced := map[[2]string]bool{}
		for _, d := range aerrs {
			if m := notEnforcedRE.FindStringSubmatch(d.Message); m != nil {
				notEnforced[[2]string{strings.ToLower(m[1]), robots.Canonical(m[2])}] = true
			}
		}
		public, separate, err := serverconf.RenderAccess(tree.Tree{"robots.txt": {Data: data}}, kinds, access)
		if err != nil {
			t.Fatalf("server configuration: %v\n%s", err, src)
		}
		enf := map[string]bool{}
		for _, e := range access.Enforce {
			enf[strings.ToLower(e.Agent)] = true
		}
		enforced += len(access.Enforce)
		f := robots.Parse(data)
		var tdmFile []tdmrep.Parsed
		if rules := tdmRules(doc.Value); len(rules) > 0 {
			tdmFile, _ = tdmrep.Parse(tdmrep.Marshal(rules))
		}
		ng, ap, cd := newNginxReader(separate[serverconf.NginxFile].Data), newApacheReader(public[serverconf.HtaccessFile].Data), newCaddyReader(separate[serverconf.CaddyFile].Data)
		servers := map[string]func(request) response{
			"nginx":  func(q request) response { return ng.serve(t, q) },
			"Apache": func(q request) response { return ap.serve(t, q) },
			"Caddy":  func(q request) response { return cd.serve(t, q) },
		}
		hUsage := headersFileRules(t, public[serverconf.HeadersFile].Data)
		hTDM, _ := headersTDMRules(public[serverconf.HeadersFile].Data)
		servers["_headers"] = func(q request) response {
			p := robots.Canonical(serverPath(q.target))
			var r response
			if v := aipref.UsageValue(headersFileReading(hUsage, p)); v != "" {
				r.usage = v
			}
			res, pol := headersTDMReading(hTDM, p)
			r.tdmRes, r.tdmPol = strings.Join(res, ", "), strings.Join(pol, ", ")
			return r
		}
		seen := map[string]bool{}
		for _, u := range append(usageURLs(doc), rightsURLs(doc)...) {
			if seen[u] || u == "/robots.txt" {
				continue
			}
			seen[u] = true
			urls++
			for form, target := range urlForms(u) {
				formNames[form] = true
				forms++
				// What tdmrep.json says: its first rule matching the
				// canonical path and query.
				var fileRes, filePol string
				cp := robots.Canonical(robots.PathOf(target))
				for _, p := range tdmFile {
					if robots.PatternMatches(cp, robots.Canonical(p.Location)) {
						fileRes, filePol = strconv.Itoa(p.Reservation), p.Policy
						break
					}
				}
				for _, a := range agents {
					full := "https://example.org" + target
					want := f.Usage(a, full).Combined()
					allowed := f.Match(a, full).Allowed
					for _, name := range readers {
						st := stats[name]
						if name == "_headers" && !serverconf.NormalTarget(target, false) {
							continue // no guard there; see the doc comment
						}
						resp := servers[name](request{target: target, agent: a})
						st.requests++
						fail := func(format string, args ...any) {
							failures++
							t.Errorf("seed %d: %s at %s (%s, %q) for %s: "+format+"\nmanifest:\n%s",
								append(append([]any{seed, name, u, form, target, a}, args...), src)...)
						}
						if resp.refused {
							st.refused++
							if name == "Apache" && strings.Contains(strings.ToUpper(target), "%2F") {
								continue // 404: AllowEncodedSlashes Off
							}
							if !enf[strings.ToLower(robots.ProductToken(a))] {
								fail("refused an agent no group enforces")
							} else if allowed {
								if serverconf.NormalTarget(target, true) {
									fail("refused where robots.txt allows it")
								}
								st.refusedAllowed++
							}
							continue
						}
						st.served++
						if !allowed && enf[strings.ToLower(robots.ProductToken(a))] && name != "_headers" { // it cannot refuse, and warns so
							rule := f.Match(a, full).Rule
							_, pat, _ := strings.Cut(rule, ": ")
							if notEnforced[[2]string{strings.ToLower(robots.ProductToken(a)), robots.Canonical(pat)}] {
								st.servedWarned++
							} else {
								fail("served an enforced agent where robots.txt disallows it (%s), and no warning says the rule is not enforced", rule)
							}
						}
						if resp.usage == "" {
							st.usageNone++
						} else {
							st.usageStated++
							got, err := aipref.ParseUsage(resp.usage)
							if err != nil {
								fail("Content-Usage %q: %v", resp.usage, err)
							}
							for _, c := range aipref.Categories {
								v, w := c.Get(got), c.Get(want)
								switch {
								case v == aipref.PrefUnset:
								case w != aipref.PrefUnset && v != w:
									fail("Content-Usage says %s=%s, robots.txt %s", c.Manifest, v, w)
								case w == aipref.PrefUnset:
									// robots.txt's form leaves it out (Content-Signal
									// has no path; the build warns): the header must
									// say the manifest's value there.
									st.usageOnlyHeader++
									m, _ := wantUsage(doc.Value, a).Effective(robots.PathOf(target))
									if !serverconf.NormalTarget(target, false) || v != c.Get(m) {
										fail("Content-Usage says %s=%s where robots.txt says nothing, the manifest %s", c.Manifest, v, c.Get(m))
									}
								}
							}
						}
						if resp.tdmRes == "" && resp.tdmPol == "" {
							st.tdmNone++
						} else {
							st.tdmStated++
							if resp.tdmRes != fileRes || resp.tdmPol != filePol {
								fail("tdm headers say %q %q, tdmrep.json %q %q", resp.tdmRes, resp.tdmPol, fileRes, filePol)
							}
						}
					}
				}
			}
		}
	}
	if manifests == 0 || enforced == 0 {
		t.Fatalf("nothing read: %d manifests, %d enforced agents", manifests, enforced)
	}
	t.Logf("seed %d: %d manifests (%d generated ones refused by validate), %d URLs in %d forms (%d requests per agent and reader), %d enforced agents, %d readers",
		seed, manifests, skipped, urls, len(formNames), forms, enforced, len(readers))
	for _, r := range readers {
		st := stats[r]
		if st.usageStated == 0 || st.tdmStated == 0 {
			t.Errorf("%s: no header read (%+v)", r, *st)
		}
		t.Logf("%-9s %6d requests: %6d served (%6d with Content-Usage, each robots.txt's (%d preferences robots.txt's form leaves out, each the manifest's); %6d with tdm headers, each tdmrep.json's; %6d and %6d without; %4d where robots.txt disallows an enforced agent by a rule warned not enforced), %5d refused (%5d where robots.txt allows, each at a form the server cannot read as robots.txt readers do); 0 contradictions",
			r+":", st.requests, st.served, st.usageStated, st.usageOnlyHeader, st.tdmStated, st.usageNone, st.tdmNone, st.servedWarned, st.refused, st.refusedAllowed)
	}
}

var notEnforcedRE = regexp.MustCompile(`^agent (\S+): "(.*)" is not enforced`)
