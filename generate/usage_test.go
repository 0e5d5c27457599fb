package generate

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/robots"
	"github.com/discgen/discgen/validate"
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
	if errs := validate.Site(doc, validate.Options{Now: now}); errs.HasErrors() {
		t.Fatalf("validate: %v", errs)
	}
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
			cu = cu || l.Form == robots.UsageContentUsage && l.Path == "" && l.Prefs.TrainAI == robots.PrefNo
			cs = cs || l.Form == robots.UsageContentSignal && l.Prefs.TrainAI == robots.PrefNo
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
		if u := f.Usage(a, "/org/plans.html"); u.Combined().TrainAI != robots.PrefNo {
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
	doc := load(t, b.String())
	_, errs := siteRobots(doc)
	if !strings.Contains(fmt.Sprint(errs), "matching steps") {
		t.Errorf("errors: %v", errs)
	}
}
