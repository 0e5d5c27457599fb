package generate

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/discgen/discgen/aipref"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
)

// TestExampleOpenEveryGroup builds examples/site.yaml with --env open: no
// crawler is blocked, and every group of robots.txt (the "*" group and
// those of the presets) says train-ai=n and ai-train=no; each agent reads
// it at any URL.
func TestExampleOpenEveryGroup(t *testing.T) {
	src, err := os.ReadFile("../examples/site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, errs := manifest.LoadSite("site.yaml", src, "open")
	if doc == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	validated(t, doc)
	data, derrs := siteRobots(doc)
	if derrs.HasErrors() {
		t.Fatal(derrs)
	}
	f := robots.Parse(data)
	if len(f.Groups) < 20 {
		t.Fatalf("%d groups: the presets were not expanded", len(f.Groups))
	}
	for _, g := range f.Groups {
		var cu, cs bool
		for _, l := range g.UsageOf().Lines {
			cu = cu || l.Form == robots.UsageContentUsage && l.Path == "" && l.Prefs.TrainAI == aipref.PrefNo
			cs = cs || l.Form == robots.UsageContentSignal && l.Prefs.TrainAI == aipref.PrefNo
		}
		if !cu || !cs {
			t.Errorf("group of line %d (%s) lacks train-ai=n or ai-train=no", g.Agents[0].Num, g.Agents[0].Value)
		}
		for _, r := range g.Rules {
			if r.Pattern != "" && !r.Allow {
				t.Errorf("line %d blocks: %s", r.Num, r)
			}
		}
		a := g.Agents[0].Value
		if u := f.Usage(a, "/org/plans.html"); u.Combined().TrainAI != aipref.PrefNo {
			t.Errorf("%s reads %s", a, u.Combined())
		}
	}
	if !strings.Contains(string(data), "User-agent: GPTBot\n") || !strings.Contains(string(data), "User-agent: *\n") {
		t.Errorf("the training preset or the \"*\" group is missing:\n%s", data)
	}
}

// TestEffectiveUsage merges a group's preferences over the site's.
func TestEffectiveUsage(t *testing.T) {
	site := &manifest.Usage{TrainAI: "no", Search: "yes", Paths: []manifest.UsagePath{{Path: "/blog/", TrainAI: "yes"}}}
	group := &manifest.Usage{Search: "no", Paths: []manifest.UsagePath{{Path: "/blog/", Search: "yes"}}, Formats: []string{"content-usage"}}
	u := EffectiveUsage(site, group)
	if got := u.Prefs.String(); got != "train_ai=no, search=no" {
		t.Errorf("prefs %s", got)
	}
	if p, at := u.Effective("/blog/x"); p.String() != "train_ai=no, search=yes" || at != "/blog/" {
		t.Errorf("/blog/x: %s from %q (the group's path wins over the site's)", p, at)
	}
	if !u.ContentUsage || u.ContentSignal {
		t.Errorf("formats %v %v", u.ContentUsage, u.ContentSignal)
	}
	if EffectiveUsage(nil, nil) != nil || EffectiveUsage(&manifest.Usage{}, nil) != nil {
		t.Error("no preference: want nil")
	}
}

// TestExpectUsageWorkBounded: usage expectations match their URLs against
// the preference lines, so wildcard paths count toward MaxExpectWork like
// wildcard rules; a manifest that would take hours is refused at once.
func TestExpectUsageWorkBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nsite: {url: \"https://example.org/\"}\nagents: [{names: [\"*\"], disallow: []}]\nusage:\n  train_ai: no\n  paths:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "    - {path: \"/%s%d\", train_ai: yes}\n", strings.Repeat("*a", 100), i)
	}
	b.WriteString("expect:\n  - agent: otherbot\n    usage: {train_ai: no}\n    urls:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "      - /%d%s\n", i, strings.Repeat("b", 2000))
	}
	doc := load(t, b.String()).Doc()
	_, errs := siteRobots(doc)
	if !strings.Contains(fmt.Sprint(errs), "matching steps") {
		t.Errorf("errors: %v", errs)
	}
}

// TestUsageNoContradiction builds the manifests of the example of docs/semantics.md
// and of a path's "no" under a site-wide "yes": at every URL, a reader of
// Content-Usage alone, of Content-Signal alone, of both together (a "no"
// wins) and of the Content-Usage header reads no preference other than
// the manifest's, and an expect entry asking the manifest's value passes.
func TestUsageNoContradiction(t *testing.T) {
	for name, src := range map[string]string{
		"a path's yes": `usage: {train_ai: no, search: yes, paths: [{path: /blog/, train_ai: yes}]}
agents: [{names: [GPTBot], disallow: [/drafts/], usage: {search: no}}]
expect:
  - {agent: GPTBot, usage: {train_ai: yes, search: no}, urls: [/blog/a]}
  - {agent: otherbot, usage: {train_ai: yes, search: yes}, urls: [/blog/a]}
  - {agent: otherbot, usage: {train_ai: no, search: yes}, urls: [/, /blogger]}
`,
		"a path's no": `usage: {ai_input: yes, train_ai: yes, paths: [{path: /docs/, ai_input: no, train_ai: no}]}
agents: [{names: ["*"], disallow: []}]
expect:
  - {agent: otherbot, usage: {train_ai: no}, urls: [/docs/a]}
  - {agent: otherbot, usage: {train_ai: yes}, urls: [/, /doc]}
`,
		"a path under a path": `usage: {train_ai: no, paths: [{path: /a/, train_ai: yes}, {path: /a/b/, train_ai: no}]}
agents: [{names: ["*"], disallow: []}]
expect:
  - {agent: otherbot, usage: {train_ai: no}, urls: [/a/b/c, /]}
  - {agent: otherbot, usage: {train_ai: yes}, urls: [/a/c]}
`,
	} {
		t.Run(name, func(t *testing.T) {
			m := load(t, "version: 1\nsite: {url: \"https://example.org/\"}\n"+src)
			doc := m.Doc()
			data, errs := siteRobots(doc)
			if errs.HasErrors() {
				t.Fatalf("%v\n%s", errs, data)
			}
			f := robots.Parse(data)
			access, _ := SiteAccess(m)
			for _, agent := range []string{"GPTBot", "otherbot"} {
				g := doc.Value.Usage
				for _, ag := range doc.Value.Agents {
					if ag.Names[0] == agent {
						g = ag.Usage
					}
				}
				want := EffectiveUsage(doc.Value.Usage, g)
				if g == doc.Value.Usage {
					want = EffectiveUsage(doc.Value.Usage, nil)
				}
				for _, url := range []string{"/", "/blog/", "/blog/a", "/blogger", "/docs/a", "/doc", "/a/", "/a/c", "/a/b/c"} {
					w, _ := want.Effective(url)
					r := f.Usage(agent, url)
					hp, _ := access.Usage.Effective(url)
					for reader, got := range map[string]aipref.Prefs{
						"Content-Usage":  r.ContentUsage,
						"Content-Signal": r.ContentSignal,
						"both":           r.Combined(),
						"header":         hp,
					} {
						for _, c := range aipref.Categories {
							if g := c.Get(got); g != aipref.PrefUnset && g != c.Get(w) {
								t.Errorf("%s at %s: a reader of %s reads %s=%s, the manifest says %s\n%s", agent, url, reader, c.Manifest, g, c.Get(w), data)
							}
						}
					}
				}
			}
		})
	}
}
