package validate_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/crawlers"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/validate"
)

// holders lists, by brute force over the shipped data, the known crawlers
// whose names hold name as a proper part and that a policy writing the
// names of written does not already name: the crawlers urllib.robotparser,
// webrobots and WWW::RobotRules would give name's record. A crawler
// documented to follow name's group, or a control token, is no harm.
func holders(name string, written map[string]bool) []string {
	n := strings.ToLower(name)
	var out []string
	check := func(other, follows string) {
		o := strings.ToLower(other)
		if o != n && strings.Contains(o, n) && !written[o] && !strings.EqualFold(follows, name) {
			out = append(out, other)
		}
	}
	for _, a := range crawlers.Default().Agents {
		if !a.Control {
			check(a.Name, "")
		}
	}
	for _, s := range crawlers.Search().Crawlers {
		check(s.Name, s.Follows)
	}
	return out
}

// group is one group of a generated manifest.
type group struct {
	names, presets []string
	rule           string
}

// checkPartOfKnown validates a manifest of groups and checks that every
// name it writes that is part of a known crawler's name is warned about
// at its first mention, and that no other name is.
func checkPartOfKnown(t *testing.T, label string, groups []group) {
	t.Helper()
	var src strings.Builder
	src.WriteString("version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n")
	for _, g := range groups {
		src.WriteString("  - ")
		if len(g.names) > 0 {
			fmt.Fprintf(&src, "names: [%s]\n    ", strings.Join(g.names, ", "))
		}
		if len(g.presets) > 0 {
			fmt.Fprintf(&src, "presets: [%s]\n    ", strings.Join(g.presets, ", "))
		}
		src.WriteString(g.rule + "\n")
	}
	doc, errs := manifest.LoadSite("m.yaml", []byte(src.String()), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("%s: load: %v", label, errs)
	}
	warned := map[string]string{} // name -> path of its warning
	for _, d := range checkSite(doc, validate.Options{Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}) {
		if rest, ok := strings.CutPrefix(d.Message, "agent "); ok {
			if name, _, ok := strings.Cut(rest, " is part of the name of "); ok {
				warned[strings.ToLower(name)] = d.Path
			}
		}
	}
	// Where each name is first written, and the set of written names.
	first := map[string]string{}
	var order []string
	mention := func(name, path string) {
		if k := strings.ToLower(name); first[k] == "" && name != "*" {
			first[k] = path
			order = append(order, name)
		}
	}
	cat := crawlers.Default()
	for i, g := range groups {
		for j, n := range g.names {
			mention(n, fmt.Sprintf("agents[%d].names[%d]", i, j))
		}
		for j, p := range g.presets {
			as, _ := cat.Preset(p)
			for _, a := range as {
				mention(a.Name, fmt.Sprintf("agents[%d].presets[%d]", i, j))
			}
		}
	}
	written := map[string]bool{}
	for k := range first {
		written[k] = true
	}
	for _, name := range order {
		k := strings.ToLower(name)
		hs := holders(name, written)
		switch at, ok := warned[k]; {
		case len(hs) > 0 && !ok:
			t.Errorf("%s: %s is part of %v and is written without a warning", label, name, hs)
		case len(hs) > 0 && at != first[k]:
			t.Errorf("%s: %s warned at %s, want its first mention %s", label, name, at, first[k])
		case len(hs) == 0 && ok:
			t.Errorf("%s: %s warned at %s, but no unnamed crawler's name holds it", label, name, at)
		}
	}
}

// TestPresetsPartOfKnownNames runs every preset alone, with each other in
// one group, and in two groups with different rules, and asserts that no
// name part of a known crawler's name is written without its warning.
func TestPresetsPartOfKnownNames(t *testing.T) {
	presets := crawlers.Default().Presets()
	for _, p := range presets {
		checkPartOfKnown(t, p, []group{{presets: []string{p}, rule: "disallow: [/]"}})
		for _, q := range presets {
			if p == q {
				continue
			}
			checkPartOfKnown(t, p+"+"+q, []group{{presets: []string{p, q}, rule: "disallow: [/]"}})
			checkPartOfKnown(t, p+"/"+q, []group{
				{presets: []string{p}, rule: "disallow: [/]"},
				{presets: []string{q}, rule: "allow: [/blog/]"},
			})
		}
	}
}

// TestTypedNamesPartOfKnownNames types every name of the catalogue and the
// search list that robots.txt can carry, alone, and the generic words the
// presets used to hold: each is warned about exactly when a known
// crawler's name holds it.
func TestTypedNamesPartOfKnownNames(t *testing.T) {
	var names []string
	for _, a := range crawlers.Default().Agents {
		names = append(names, a.Name)
	}
	for _, s := range crawlers.Search().Crawlers {
		if validate.IsAgentName(s.Name) {
			names = append(names, s.Name)
		}
	}
	names = append(names, "Spider", "LCC", "Code", "Operator", "Cursor", "Trae", "bot")
	for _, n := range names {
		checkPartOfKnown(t, n, []group{{names: []string{n}, rule: "disallow: [/]"}, {names: []string{"\"*\""}, rule: "disallow: [/private/]"}})
	}
}

// TestPartOfKnownNamesSearchEngines: the case. Spider, typed,
// hands its rules to Baiduspider and Sogou's spider; a crawler named in a
// group of its own is not reported again; Googlebot's documented
// followers are no harm.
func TestPartOfKnownNamesSearchEngines(t *testing.T) {
	src := `version: 1
site: {url: "https://example.org/"}
agents:
  - names: [Spider, Googlebot]
    disallow: [/]
  - names: [Baiduspider]
    allow: [/]
`
	doc, errs := manifest.LoadSite("m.yaml", []byte(src), "")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	var got []string
	for _, d := range checkSite(doc, validate.Options{}) {
		if strings.Contains(d.Message, "is part of the name of") {
			got = append(got, d.Path+": "+d.Message)
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "agents[0].names[0]: agent Spider is part of the name of ") ||
		!strings.Contains(got[0], "Sogou web spider (Sogou)") || strings.Contains(got[0], "Baiduspider") {
		t.Errorf("warnings:\n%s", strings.Join(got, "\n"))
	}
}
