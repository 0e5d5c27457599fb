package robots

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"

	"github.com/jimsmart/grobotstxt"
	"github.com/temoto/robotstxt"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// prefs returns random preferences, often with nothing stated.
func (g gen) prefs() aipref.Prefs {
	v := func() aipref.Pref { return aipref.Pref(g.r.IntN(3)) }
	return aipref.Prefs{TrainAI: v(), Search: v(), AIInput: v()}
}

// usage returns random usage preferences: some for the group, some per
// path (paths of the policy and others), in one or both forms.
func (g gen) usage(pool []string) *Usage {
	u := &Usage{Prefs: g.prefs(), ContentUsage: g.r.IntN(4) != 0, ContentSignal: g.r.IntN(4) != 0}
	if !u.ContentUsage && !u.ContentSignal {
		u.ContentUsage = true
	}
	for range g.r.IntN(4) {
		u.Paths = append(u.Paths, UsagePath{Path: g.path(pool), Prefs: g.prefs()})
	}
	return u
}

// withUsage returns p with random preferences in most groups and, half the
// time, for the site (which adds a "*" record where p has none).
func (g gen) withUsage(p Policy, pool []string) Policy {
	q := p
	q.Groups = slices.Clone(p.Groups)
	for i := range q.Groups {
		if g.r.IntN(5) != 0 {
			q.Groups[i].Usage = g.usage(pool)
		}
	}
	if g.r.IntN(2) == 0 {
		q.Usage = g.usage(pool)
	}
	return q
}

// licenses returns RSL 1.0 License lines, global: none, one or two. They
// are drawn from their own generator, so that the policies and
// preferences stay those the seed gave before the lines were added.
func licenses(r *rand.Rand) []string {
	var out []string
	for i := range r.IntN(3) {
		out = append(out, fmt.Sprintf("https://example.com/license-%d.xml", i))
	}
	return out
}

// isUsageLine reports whether a line of an emitted file is a preference line.
func isUsageLine(l string) bool {
	return strings.HasPrefix(l, "Content-Usage: ") || strings.HasPrefix(l, "Content-Signal: ") || strings.HasPrefix(l, "License: ")
}

// TestUsageVerdictsUnchanged checks that the preference lines, and the
// RSL License lines, change no fetch verdict: on the random policies the emission tests generate, with
// random preferences added, every parser gives for every agent and URL the
// verdict it gives on the file without them. The Go readers (RFC 9309 as
// Match reads it, the 1996 draft, temoto/robotstxt, Google's parser as
// grobotstxt ports it) run in-process; the drivers in conformance/ run
// urllib.robotparser, protego, webrobots, WWW::RobotRules, robots-parser,
// robots-txt-guard and robots-txt-parser, each skipped with a message when
// absent (.ci/run installs them).
//
// It also checks that the lines are only added: removing them (and the
// "*" record that carries the site's preferences, when the policy has no
// "*" group) gives the file back byte for byte.
func TestUsageVerdictsUnchanged(t *testing.T) {
	n := *nFlag
	if n == 0 {
		n = 100
		if !testenv.Long() {
			n = 30
		}
	}
	seed := randomSeed(t)
	g := gen{rand.New(rand.NewPCG(seed, 0x7573616765))}
	lr := rand.New(rand.NewPCG(seed, 0x6c6963656e7365))
	var in driverInput
	withLines, checks, googleChecks := 0, 0, 0
	for len(in.Files) < 2*n {
		p, pool := g.policy()
		if !realisticNames(p) || slices.ContainsFunc(Portability(p), func(f Finding) bool { return f.Code == CodeTildeVariants }) {
			continue
		}
		q := g.withUsage(p, pool)
		q.Licenses = licenses(lr)
		without, err := Emit(p)
		if err != nil {
			t.Fatal(err)
		}
		with, err := Emit(q)
		if err != nil {
			t.Fatalf("Emit with preferences: %v\npolicy %+v", err, q)
		}
		var kept []string
		added := false
		for _, l := range strings.SplitAfter(string(with), "\n") {
			if isUsageLine(l) {
				added = true
				continue
			}
			kept = append(kept, l)
		}
		if added {
			withLines++
		}
		stripped := strings.Join(kept, "")
		if len(q.Licenses) > 0 && len(p.Sitemaps) == 0 && len(p.MobileAgents) == 0 && p.Host == "" {
			// The License lines alone made the file's tail, and the
			// blank line before it.
			stripped = strings.TrimSuffix(stripped, "\n")
		}
		if !slices.ContainsFunc(p.Groups, func(pg PolicyGroup) bool { return slices.Contains(pg.Agents, "*") }) {
			stripped = strings.Replace(stripped, "\nUser-agent: *\nDisallow:\n", "", 1)
			stripped = strings.TrimPrefix(stripped, "User-agent: *\nDisallow:\n")
		}
		if stripped != string(without) {
			t.Fatalf("the preference lines changed more than themselves:\nwithout:\n%s\nwith:\n%s", without, with)
		}
		// As a manifest writes them (the site's preferences under each
		// named group's own), the lines draw no preference finding from
		// lint. (A "*" group's own preferences are the author's choice to
		// hide from named groups, which R033 reports.)
		site := g.usage(pool)
		m := p
		m.Groups = slices.Clone(p.Groups)
		m.Usage = site
		for i := range m.Groups {
			own := g.usage(pool)
			if slices.Contains(m.Groups[i].Agents, "*") {
				own = &Usage{}
			}
			m.Groups[i].Usage = &Usage{Prefs: own.Prefs.Over(site.Prefs), Paths: append(slices.Clone(site.Paths), own.Paths...),
				ContentUsage: site.ContentUsage, ContentSignal: site.ContentSignal}
		}
		// A category a path overrides is left out of Content-Signal
		// (SignalPrefs), so a group may state nothing of a category "*"
		// states: R033 says so, as validate does.
		leftOut := map[string]bool{}
		for _, pg := range m.Groups {
			for _, c := range pg.Usage.SignalLeftOut() {
				leftOut[c.Manifest] = true
			}
		}
		if mout, err := Emit(m); err != nil {
			t.Fatal(err)
		} else {
			for _, fd := range Lint(mout) {
				if fd.Code == CodeUsageHidden && allLeftOut(fd.Message, leftOut) {
					continue
				}
				if fd.Code >= CodeUsageOutside && fd.Code <= CodeUsageRepeated {
					t.Fatalf("lint finding on an emitted file: %v\n%s", fd, mout)
				}
			}
		}
		fw, fo := Parse(with), Parse(without)
		tw, to := parseTemoto(with), parseTemoto(without)
		rw, err1 := robotstxt.FromBytes(with)
		ro, err2 := robotstxt.FromBytes(without)
		if err1 != nil || err2 != nil {
			t.Fatalf("temoto/robotstxt: %v %v", err1, err2)
		}
		listed, unlisted := g.agentsToCheck(p)
		agents := append(listed, unlisted...)
		fi := len(in.Files)
		in.Files = append(in.Files, string(without), string(with))
		for ui, u := range g.urls(pool) {
			abs := absURL(u)
			for _, a := range agents {
				checks++
				type pair struct{ a, b bool }
				got := map[string]pair{
					"RFC 9309 (Match)": {fo.Match(a, u).Allowed, fw.Match(a, u).Allowed},
					"1996 draft":       {fo.Match1996(a, u).Allowed, fw.Match1996(a, u).Allowed},
					"temoto (model)":   {to.allowed(ProductToken(a), u, true), tw.allowed(ProductToken(a), u, true)},
					"temoto/robotstxt": {ro.TestAgent(PathOf(u), AgentName(a)), rw.TestAgent(PathOf(u), AgentName(a))},
				}
				if ui%3 == 0 { // grobotstxt parses the file on every call
					googleChecks++
					got["grobotstxt"] = pair{grobotstxt.AgentAllowed(string(without), ProductToken(a), abs), grobotstxt.AgentAllowed(string(with), ProductToken(a), abs)}
				}
				for reader, v := range got {
					if v.a != v.b {
						t.Fatalf("%s: agent %q url %q: allowed=%v without the preference lines, %v with them\nwithout:\n%s\nwith:\n%s", reader, a, u, v.a, v.b, without, with)
					}
				}
				if realisticName(a) {
					in.Queries = append(in.Queries, driverQuery{fi, AgentName(a), abs}, driverQuery{fi + 1, AgentName(a), abs})
				}
			}
		}
	}
	if withLines == 0 || checks == 0 {
		t.Fatalf("no file with preference lines (%d) or no verdict compared (%d)", withLines, checks)
	}
	t.Logf("seed %d: %d policies, %d with preference lines, %d verdicts compared under Match, Match1996, the temoto model and temoto/robotstxt each, %d under grobotstxt",
		seed, n, withLines, checks, googleChecks)

	eachParser(t, in, func(t *testing.T, parser string, vs []*bool) {
		same := 0
		var diffs []string
		for i := 0; i+1 < len(vs); i += 2 {
			a, b := vs[i], vs[i+1]
			if a == nil && b == nil || a != nil && b != nil && *a == *b {
				same++
				continue
			}
			q := in.Queries[i]
			diffs = append(diffs, fmt.Sprintf("agent %q url %q: %s without the preference lines, %s with them\nwith:\n%s",
				q.Agent, q.URL, verdictText(a), verdictText(b), in.Files[q.File+1]))
		}
		t.Logf("%s: %d queries on %d pairs of files (seed %d): %d same verdict, %d different", parser, len(vs)/2, len(in.Files)/2, seed, same, len(diffs))
		for i, d := range diffs {
			if i == 3 {
				break
			}
			t.Errorf("%s %s", parser, d)
		}
	})
}

func verdictText(v *bool) string {
	switch {
	case v == nil:
		return "no verdict"
	case *v:
		return "allowed"
	}
	return "disallowed"
}

// allLeftOut reports whether every category an R033 message names is in
// leftOut.
func allLeftOut(msg string, leftOut map[string]bool) bool {
	_, list, ok := strings.Cut(msg, "preferences for ")
	if !ok {
		return false
	}
	list, _, _ = strings.Cut(list, ":")
	for _, c := range strings.Split(list, ", ") {
		if !leftOut[c] {
			return false
		}
	}
	return true
}
