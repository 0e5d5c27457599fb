package robots

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// TestExternalParsers runs robots.txt parsers written in other languages
// on emitted files: random wildcard-free policies, each agent they list and
// unlisted agents that neither contain nor are contained in a listed name,
// URLs built from the rule paths. The drivers in conformance/ read the
// queries and print each parser's verdicts; a verdict that differs from
// Policy.Evaluate must be covered by a Portability warning naming that
// reader and agent. A parser that is not installed is skipped with a
// message, or fails the test under CI; .ci/run installs them all.
//
// Figures (per parser: queries, agreements, disagreements covered by a
// warning, uncovered) are logged: go test ./robots -run TestExternalParsers -v
func TestExternalParsers(t *testing.T) {
	n := *nFlag
	if n == 0 {
		n = 100
		if !testenv.Long() {
			n = 30
		}
	}
	seed := randomSeed(t)
	g := gen{rand.New(rand.NewPCG(seed, 0x65787465))}
	var in driverInput
	var want []bool
	var covers []map[string]bool // readers a warning covers, per query
	var quirks []bool            // outside robots-txt-parser's reach, per query
	var plain []int              // the query of the URL with '~' for %7E, or -1
	if s := os.Getenv("ROBOTS_SEGMENTS"); s != "" {
		old := segments
		segments = strings.Split(s, " ")
		defer func() { segments = old }()
	}
	for len(in.Files) < n {
		p, pool := g.policy()
		if !realisticNames(p) || !utf8Escapes(p) {
			continue
		}
		fs := Portability(p)
		if slices.ContainsFunc(fs, func(f Finding) bool { return f.Code == CodeTildeVariants }) {
			continue
		}
		out, err := Emit(p)
		if err != nil {
			t.Fatal(err)
		}
		warned := warnedReaders(fs)
		listed, unlisted := g.agentsToCheck(p)
		var agents []string
		for _, a := range listed {
			agents = append(agents, AgentName(a))
		}
	next:
		for _, a := range unlisted {
			for _, l := range listed {
				if strings.Contains(strings.ToLower(a), strings.ToLower(AgentName(l))) {
					continue next // the reverse-substring readers' documented limit
				}
			}
			if realisticName(a) {
				agents = append(agents, a)
			}
		}
		fi := len(in.Files)
		in.Files = append(in.Files, string(out))
		for _, u := range g.urls(pool) {
			abs := absURL(u)
			if isRobotsTxt(PathOf(abs)) || dotSegment(PathOf(abs)) || !utf8.ValidString(decode1996(PathOf(abs))) {
				continue // outside the guarantee: not in RFC 3986 normal form
			}
			dec := strings.ReplaceAll(abs, "%7E", "~")
			for _, a := range agents {
				key := strings.ToLower(a)
				if !policyNames(p, key) {
					key = "*"
				}
				for _, u := range []string{abs, dec} {
					if u == dec && dec == abs {
						break
					}
					in.Queries = append(in.Queries, driverQuery{fi, a, u})
					want = append(want, p.Evaluate(a, u).Allowed)
					covers = append(covers, warned[key])
					quirks = append(quirks, unanchored(Parse(out), a, dec))
					plain = append(plain, -1)
				}
				if dec != abs {
					plain[len(plain)-2] = len(plain) - 1
				}
			}
		}
	}
	eachParser(t, in, func(t *testing.T, parser string, vs []*bool) {
		agree, covered, quirk, failed := 0, 0, 0, 0
		var uncovered []string
		for i, v := range vs {
			switch {
			case v == nil:
				failed++
				uncovered = append(uncovered, fmt.Sprintf("no verdict: agent %q url %q\n%s", in.Queries[i].Agent, in.Queries[i].URL, in.Files[in.Queries[i].File]))
			case *v == want[i]:
				agree++
			case covers[i][parser]:
				covered++
			case parser == "robots-txt-parser" && quirks[i] && (plain[i] < 0 || sameVerdict(v, vs[plain[i]])),
				parser == "WWW::RobotRules" && covers[i]["WWW::RobotRules (no Allow)"]:
				quirk++
			default:
				uncovered = append(uncovered, fmt.Sprintf("says allowed=%v, policy %v: agent %q url %q\n%s", *v, want[i], in.Queries[i].Agent, in.Queries[i].URL, in.Files[in.Queries[i].File]))
			}
		}
		t.Logf("%s: %d queries on %d files (seed %d), %d agree, %d differ under a warning, %d differ by a documented limit (unanchored matching, no Allow), %d uncovered (%d without a verdict)",
			parser, len(vs), len(in.Files), seed, agree, covered, quirk, len(uncovered), failed)
		sort.Strings(uncovered)
		for i, u := range uncovered {
			if i == 3 {
				break
			}
			t.Errorf("%s %s", parser, u)
		}
	})
}

// warnedReaders maps each agent (in lower case) that findings name to
// the readers their warnings name.
func warnedReaders(fs []Finding) map[string]map[string]bool {
	warned := map[string]map[string]bool{} // agent -> readers
	for _, f := range fs {
		var readers []string
		switch f.Code {
		case CodeSubstringNames:
			readers = []string{"urllib.robotparser", "webrobots", "WWW::RobotRules"}
		case CodeShortName:
			readers = []string{"temoto/robotstxt"}
		case CodeDoubleSlash:
			readers = []string{"urllib.robotparser", "protego", "WWW::RobotRules"}
		case CodeAllowUnread:
			// Not a validate warning: a documented limit of that
			// reader (docs/semantics.md), counted apart below.
			readers = []string{"WWW::RobotRules (no Allow)"}
		case CodeEmptyQuery:
			readers = []string{"urllib.robotparser", "protego", "robots-parser", "robots-txt-guard"}
		case CodeIndexHTML:
			if strings.HasSuffix(f.Pattern, "/index.html") {
				readers = []string{"protego"}
			}
		case CodeEscapedTilde:
			readers = []string{"robots-txt-parser"}
		}
		for _, a := range strings.Split(strings.ToLower(f.Agent), ", ") {
			if warned[a] == nil {
				warned[a] = map[string]bool{}
			}
			for _, r := range readers {
				warned[a][r] = true
			}
		}
	}
	return warned
}

func sameVerdict(a, b *bool) bool { return a != nil && b != nil && *a == *b }

// driverQuery asks the drivers in conformance/ whether Agent may fetch URL
// by the file in.Files[File].
type driverQuery struct {
	File  int    `json:"file"`
	Agent string `json:"agent"`
	URL   string `json:"url"`
}

// driverInput is what the drivers read: robots.txt files and the queries
// on them.
type driverInput struct {
	Files   []string      `json:"files"`
	Queries []driverQuery `json:"queries"`
}

// eachParser runs every external driver over in (the files and the
// queries, as JSON), one subtest a driver and one a parser it answers for,
// and hands check each parser's verdicts: one per query, nil where the
// parser gave none. A driver or parser that is not installed skips.
func eachParser(t *testing.T, in driverInput, check func(t *testing.T, parser string, vs []*bool)) {
	t.Helper()
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	qfile := filepath.Join(t.TempDir(), "queries.json")
	if err := os.WriteFile(qfile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range externalDrivers() {
		t.Run(d.name, func(t *testing.T) {
			testenv.NeedsTool(t, d.cmd[0], ".ci/run installs the parsers: python3-protego, ruby-webrobots, libwww-perl from Debian, the others with npm in robots/conformance")
			cmd := exec.Command(d.cmd[0], append(d.cmd[1:], qfile)...)
			cmd.Env = append(os.Environ(), d.env...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			stdout, err := cmd.Output()
			if err != nil {
				testenv.Missing(t, "%s: the driver failed (a parser not installed?): %v\n%s", d.name, err, stderr.String())
			}
			var got map[string][]*bool
			if err := json.Unmarshal(stdout, &got); err != nil {
				t.Fatalf("%s: %v\n%s", d.name, err, stdout)
			}
			for _, parser := range d.parsers {
				t.Run(parser, func(t *testing.T) {
					vs, ok := got[parser]
					if !ok {
						testenv.Missing(t, "%s: not installed (%s)", parser, strings.TrimSpace(stderr.String()))
					}
					if len(vs) != len(in.Queries) {
						t.Fatalf("%d verdicts for %d queries", len(vs), len(in.Queries))
					}
					check(t, parser, vs)
				})
			}
		})
	}
}

// realisticName reports whether a name looks like a real crawler's: a
// letter first and at least two characters. Other readers treat names such
// as "-" or "_" in ways no real crawler meets, so the external test leaves
// them to the Go readers.
func realisticName(a string) bool {
	return len(a) >= 2 && ('a' <= a[0] && a[0] <= 'z' || 'A' <= a[0] && a[0] <= 'Z')
}

func realisticNames(p Policy) bool {
	for _, g := range p.Groups {
		for _, a := range g.Agents {
			if a != "*" && !realisticName(a) {
				return false
			}
		}
	}
	return true
}

// unanchored reports whether a rule of the groups agent obeys, as the
// manifest spells it (not the %7E spellings Emit adds), occurs in url
// other than at the start of its path. npm robots-txt-parser tests each
// rule as an unanchored regular expression against the whole URL, so such
// a rule applies there although no reader of robots.txt would apply it:
// no order of lines can change that, and it is outside the guarantee for
// that reader (docs/semantics.md, "robots.txt readers"). The caller asks
// with '~' for %7E and holds the reader to the same verdict on both
// spellings of the URL: where they differ, the %7E spellings decide, and
// R036 must warn.
func unanchored(f *File, agent, url string) bool {
	start := len(url) - len(PathOf(url))
	for _, gi := range f.groupsFor(ProductToken(agent)) {
		for _, r := range f.Groups[gi].Rules {
			v := strings.TrimSuffix(r.Value, "$")
			if v == "" || strings.Contains(v, "%7E") {
				continue
			}
			for i := strings.Index(url, v); i >= 0; {
				if i != start {
					return true
				}
				j := strings.Index(url[i+1:], v)
				if j < 0 {
					break
				}
				i += 1 + j
			}
		}
	}
	return false
}

// dotSegment reports whether a path has a "." or ".." segment, which URL
// normalisation (RFC 3986 section 5.2.4) removes before some readers match.
func dotSegment(p string) bool {
	if i := strings.IndexAny(p, "?;"); i >= 0 {
		p = p[:i]
	}
	for _, s := range strings.Split(p, "/") {
		if s == "." || s == ".." {
			return true
		}
	}
	return false
}

// utf8Escapes reports whether every rule path of p decodes to valid UTF-8.
// A path cut inside a character's escapes ("/%E3") is outside the
// guarantee for the Python readers, which decode and re-encode it as
// U+FFFD; real URLs carry whole characters.
func utf8Escapes(p Policy) bool {
	for _, g := range p.Groups {
		for _, r := range g.Rules {
			if !utf8.ValidString(decode1996(Canonical(r.Path))) {
				return false
			}
		}
	}
	return true
}

// externalDriver runs the parsers of one language on a query file.
type externalDriver struct {
	name    string
	cmd     []string
	env     []string
	parsers []string
}

// externalDrivers returns the drivers in conformance/, which .ci/run
// installs the parsers of.
func externalDrivers() []externalDriver {
	python := "python3"
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		python = "/usr/bin/python3" // the system's, where Debian installs protego
	}
	nodePath := os.Getenv("NODE_PATH")
	if abs, err := filepath.Abs("conformance/node_modules"); err == nil {
		nodePath = abs + string(os.PathListSeparator) + nodePath
	}
	return []externalDriver{
		{"python", []string{python, "conformance/drivers.py"}, nil, []string{"urllib.robotparser", "protego"}},
		{"ruby", []string{"ruby", "conformance/drivers.rb"}, nil, []string{"webrobots"}},
		{"perl", []string{"perl", "conformance/drivers.pl"}, nil, []string{"WWW::RobotRules"}},
		{"node", []string{"node", "conformance/drivers.js"}, []string{"NODE_PATH=" + nodePath}, []string{"robots-parser", "robots-txt-guard", "robots-txt-parser"}},
	}
}

// TestExternalReaderCases runs the external readers on two policies on
// which two of them disagreed with RFC 9309 with no warning naming them:
// protego gave googlebot-video, listed nowhere, the record of bot (the
// longest listed name part of its own) and read its "Allow: /index.html"
// as allowing /; robots-txt-parser met the "Allow: /%7Ejoe" written
// beside "/~joe" inside /x.html/a/%7Ejoe/x, as long as "Disallow:
// /x.html". Every verdict that differs from Policy.Evaluate must be
// covered: by a Portability warning naming the reader for the agent, by
// the documented limits of TestExternalParsers, or, for an agent no
// group names whose name holds a listed name, by the readers that take
// such a record (robots.PartOfNameReaders; validate warns at the name for
// a known crawler: TestReaderDisagreementsWarned there).
func TestExternalReaderCases(t *testing.T) {
	al := func(ps ...string) []PathRule {
		var r []PathRule
		for _, p := range ps {
			r = append(r, PathRule{Allow: true, Path: p})
		}
		return r
	}
	dl := func(ps ...string) []PathRule {
		var r []PathRule
		for _, p := range ps {
			r = append(r, PathRule{Path: p})
		}
		return r
	}
	cases := []struct {
		p      Policy
		agents []string
		paths  []string
	}{
		{Policy{Groups: []PolicyGroup{
			{Agents: []string{"bot"}, Rules: append(al("/d%20e", "/index.html", "/index.html/~joe/b", "/org-plans"), dl("/")...)},
			{Agents: []string{"figtree"}, Rules: append(al("/~joe/"), dl("/")...)},
			{Agents: []string{"*"}, Rules: append(al("/ab/日本/abc/"), dl("/abc/p?x=1/%7emak")...)},
			{Agents: []string{"*"}, Rules: append(al("/caf%C3%A9/org-plans"), dl("/")...)},
		}}, []string{"bot", "figtree", "googlebot-video", "other"},
			[]string{"/", "/index.html", "/d%20e", "/~joe/", "/%7Ejoe/", "/org-plans/x", "/caf%C3%A9/org-plans", "/index.html/%7Ejoe/b"}},
		{Policy{Groups: []PolicyGroup{
			{Agents: []string{"*"}},
			{Agents: []string{"news"}, Rules: al("/")},
			{Agents: []string{"googlebot-news"}, Rules: al("/abc/e%2Fe/café", "/d%20e/caf%C3%A9", "/x.html/a/~joe/")},
			{Agents: []string{"webcrawler"}, Rules: append(al("/abc/", "/~joe"), dl("/", "/x.html")...)},
		}}, []string{"webcrawler", "googlebot-news", "other"},
			[]string{"/x.html/a/%7Ejoe/x", "/x.html/a/~joe/x", "/x.html", "/abc/", "/~joe", "/%7Ejoe", "/y/%7Ejoe"}},
	}
	partOfName := map[string]bool{"urllib.robotparser": true, "protego": true, "webrobots": true, "WWW::RobotRules": true, "robots-txt-guard": true}
	var in driverInput
	var want, quirks []bool
	var covered []map[string]bool
	var plain []int // the query of the URL with '~' for %7E, or -1
	for fi, c := range cases {
		out, err := Emit(c.p)
		if err != nil {
			t.Fatal(err)
		}
		in.Files = append(in.Files, string(out))
		warned := warnedReaders(Portability(c.p))
		for _, a := range c.agents {
			cov := map[string]bool{}
			key := a
			if !policyNames(c.p, a) {
				key = "*"
				for _, g := range c.p.Groups {
					for _, l := range g.Agents {
						if l != "*" && strings.Contains(a, strings.ToLower(l)) {
							for r := range partOfName {
								cov[r] = true
							}
						}
					}
				}
			}
			for r := range warned[key] {
				cov[r] = true
			}
			for _, p := range c.paths {
				u := "http://example.com" + p
				dec := strings.ReplaceAll(u, "%7E", "~")
				for _, x := range []string{u, dec} {
					in.Queries = append(in.Queries, driverQuery{fi, a, x})
					want = append(want, c.p.Evaluate(a, x).Allowed)
					covered = append(covered, cov)
					quirks = append(quirks, unanchored(Parse(out), a, dec))
					plain = append(plain, -1)
				}
				plain[len(plain)-2] = len(plain) - 1
			}
		}
	}
	eachParser(t, in, func(t *testing.T, parser string, vs []*bool) {
		differ := 0
		for i, v := range vs {
			q := in.Queries[i]
			switch {
			case v == nil:
				t.Errorf("no verdict: agent %q url %q", q.Agent, q.URL)
			case *v == want[i]:
			case covered[i][parser], parser == "WWW::RobotRules" && covered[i]["WWW::RobotRules (no Allow)"],
				parser == "robots-txt-parser" && quirks[i] && (plain[i] < 0 || sameVerdict(v, vs[plain[i]])):
				differ++
			default:
				t.Errorf("%s says allowed=%v, RFC 9309 %v, with no warning naming it: agent %q url %q\n%s", parser, *v, want[i], q.Agent, q.URL, in.Files[q.File])
			}
		}
		t.Logf("%s: %d queries, %d differ under a warning or a documented limit", parser, len(vs), differ)
	})
}
