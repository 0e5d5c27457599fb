package robots

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func addVectorSeeds(f *testing.F) {
	f.Add([]byte(fictSeed))
	f.Add([]byte("\xEF\xBB\xBFuser agent FooBot\r\ndisalow /\r\rallow: /x/*.php$ # c\n"))
	fh, err := os.Open(filepath.Join(conformanceDir, "google-robotstxt-vectors.jsonl"))
	if err != nil {
		return
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		var v googleVector
		if json.Unmarshal(sc.Bytes(), &v) == nil {
			f.Add([]byte(v.Robots))
		}
	}
}

// FuzzParse: Parse never panics, line numbers stay in range, and both
// readings answer.
func FuzzParse(f *testing.F) {
	addVectorSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		file := Parse(data)
		check := func(what string, n int) {
			if n < 1 || n > file.Lines {
				t.Fatalf("%s on line %d of %d", what, n, file.Lines)
			}
		}
		for _, g := range file.Groups {
			if len(g.Agents) == 0 {
				t.Fatal("group without agents")
			}
			for _, a := range g.Agents {
				check("agent", a.Num)
			}
			for _, r := range g.Rules {
				check("rule", r.Num)
			}
		}
		for _, fd := range file.Findings {
			check("finding", fd.Line)
		}
		for _, agent := range []string{"FooBot", "*", ""} {
			for _, url := range []string{"/", "http://x/a%7Eb/c?d", string(data)} {
				v := file.Match(agent, url)
				if v.Line != 0 {
					check("verdict", v.Line)
				}
				file.Match1996(agent, url)
			}
		}
		Lint(data)
	})
}

// FuzzEmitRoundTrip: for a wildcard-free policy, Emit either refuses it
// with a *PolicyError or writes a file that parses back, without findings,
// to the policy's rules (canonical, merged per agent, less any Disallow
// that repeats an Allow's path).
func FuzzEmitRoundTrip(f *testing.F) {
	f.Add("unhipbot;webcrawler,excite;*", "/ /org/ /serv /~mak /org/plans.html", uint32(0b01110))
	f.Add("bot,googlebot;GoogleBot;b", "/a /a/b /%7ea /caf\u00e9 /x%20y", uint32(5))
	f.Fuzz(func(t *testing.T, groups, paths string, mask uint32) {
		var p Policy
		ps := strings.Fields(paths)
		for gi, g := range strings.Split(groups, ";") {
			pg := PolicyGroup{Agents: strings.Split(g, ",")}
			for pi, path := range ps {
				if (pi+gi)%3 == 0 || strings.ContainsAny(path, "*$") {
					continue
				}
				pg.Rules = append(pg.Rules, PathRule{Allow: mask&(1<<((pi+gi)%32)) != 0, Path: path})
			}
			p.Groups = append(p.Groups, pg)
		}
		out, err := Emit(p)
		if err != nil {
			var pe *PolicyError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *PolicyError", err)
			}
			return
		}
		file := Parse(out)
		if len(file.Findings) != 0 || len(file.Orphans) != 0 {
			t.Fatalf("findings %v orphans %v in:\n%s", file.Findings, file.Orphans, out)
		}
		want := map[string][]string{}
		for _, g := range p.Groups {
			for _, a := range g.Agents {
				k := strings.ToLower(a)
				if _, ok := want[k]; !ok {
					want[k] = []string{}
				}
				for _, r := range g.Rules {
					if cp := Canonical(r.Path); cp != "" {
						want[k] = append(want[k], PathRule{r.Allow, cp}.String())
					}
				}
			}
		}
		got := map[string][]string{}
		for _, g := range file.Groups {
			empty := len(g.Rules) == 1 && g.Rules[0].Value == ""
			for _, a := range g.Agents {
				k := strings.ToLower(a.Value)
				if _, dup := got[k]; dup {
					t.Fatalf("agent %q in two groups:\n%s", a.Value, out)
				}
				got[k] = []string{}
				if empty {
					continue
				}
				for _, r := range g.Rules {
					got[k] = append(got[k], PathRule{r.Allow, Canonical(r.Value)}.String())
				}
			}
		}
		for k := range want {
			w, g := uniqSorted(want[k]), uniqSorted(got[k])
			w = slices.DeleteFunc(w, func(r string) bool { // never decides; not written
				p, ok := strings.CutPrefix(r, "Disallow: ")
				return ok && slices.Contains(w, "Allow: "+p)
			})
			if !slices.Equal(w, g) {
				t.Fatalf("agent %q: rules %q, want %q\n%s", k, g, w, out)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("agents %v, want %v", got, want)
		}
	})
}

func uniqSorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// namePolicy is a policy of n groups, one agent each, whose names are the
// stems in turn followed by a distinct suffix, so that many names are
// part of others; the rules differ from group to group.
func namePolicy(stems []string, n int) Policy {
	var p Policy
	for k := range n {
		name := stems[k%len(stems)] + letters(k)
		p.Groups = append(p.Groups, PolicyGroup{Agents: []string{name}, Rules: []PathRule{{Path: "/" + letters(k%3)}}})
	}
	return p
}

// nameCost is the CPU time of ordering the records of p and finding its
// names part of one another, the best of five runs: CPU time, so that
// other work on the machine does not count.
func nameCost(p Policy) time.Duration {
	best := time.Duration(1 << 62)
	for range 5 {
		start, ok := cpuTime()
		plan(p)
		substringNames(p)
		end, _ := cpuTime()
		if !ok {
			return 0 // not measured here
		}
		best = min(best, end-start)
	}
	return best
}

// FuzzNameWork: for names built from any stems, eight times the names
// cost about eight times the work (comparing every pair of names, the
// cost was their number squared: 40,000 names took 97 s), and the names
// found inside each name are exactly those a pairwise comparison finds.
func FuzzNameWork(f *testing.F) {
	f.Add("bot,googlebot,b")
	f.Add("a,aa,aaa,aaaa")
	f.Add("bb,b")
	f.Fuzz(func(t *testing.T, s string) {
		var stems []string
		for _, w := range strings.Split(s, ",") {
			w = strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r == '-' || r == '_' {
					return r
				}
				return -1
			}, strings.ToLower(w))
			if len(w) <= 12 && len(stems) < 8 {
				stems = append(stems, w)
			}
		}
		if len(stems) == 0 {
			return
		}
		small, large := nameCost(namePolicy(stems, 300)), nameCost(namePolicy(stems, 2400))
		if large > 24*small+20*time.Millisecond {
			t.Errorf("stems %q: 2,400 names took %v, 300 took %v: not linear", stems, large, small)
		}
		var names []string
		seen := map[string]bool{}
		for _, g := range namePolicy(stems, 40).Groups {
			if k := strings.ToLower(g.Agents[0]); !seen[k] {
				seen[k] = true
				names = append(names, k)
			}
		}
		checkIndex(t, names)
	})
}
