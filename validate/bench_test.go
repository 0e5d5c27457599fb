package validate_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/model"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/validate"
)

// realisticTenant is a tenant manifest as users write them: a few named
// agents, the ai-training and ai-search presets, a usage preference, an
// icon, two feeds, an inline delegatee and an x- file.
func realisticTenant(user string) []byte {
	return fmt.Appendf(nil, `version: 1
path: /~%[1]s/
description: The pages of user %[1]s
icons: [/~%[1]s/icon.png]
feeds:
  - url: feed.atom
  - url: /~%[1]s/notes
    type: application/feed+json
agents:
  - names: ["*"]
    disallow: [/~%[1]s/private/]
  - names: [Googlebot, Bingbot, %[1]sbot]
    allow: [/~%[1]s/]
    disallow: [/~%[1]s/drafts/]
  - presets: [ai-training]
    disallow: [/~%[1]s/]
    usage: {train_ai: no}
  - presets: [ai-search]
    allow: [/~%[1]s/public/]
    disallow: [/~%[1]s/]
delegations:
  - path: blog/
    only: [feeds.txt, description.txt]
    inline:
      description: The blog of %[1]s
      feeds: [{url: posts.rss}]
files:
  x-contact.txt: "%[1]s@isp.example"
`, user)
}

// loop runs body b.N times and reports the process's CPU time per
// iteration (cpu-ns/op), which the load of a shared machine disturbs
// less than the wall time.
func loop(b *testing.B, body func()) {
	b.ReportAllocs()
	c0, ok := cpuTime()
	for b.Loop() {
		body()
	}
	if c1, ok1 := cpuTime(); ok && ok1 && b.N > 0 {
		b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkTenant times the three steps a build takes per tenant
// manifest, one tenant per iteration: loading (YAML and schema),
// validating and rendering.
func BenchmarkTenant(b *testing.B) {
	within, err := pathspace.Parse(pathspace.Root(), "/~*/")
	if err != nil {
		b.Fatal(err)
	}
	site, _ := url.Parse("https://isp.example/")
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	data := realisticTenant("u0000001")
	load := func(b *testing.B) *manifest.Doc[manifest.Tenant] {
		doc, errs := manifest.LoadTenant("autodisc.yaml", data)
		if doc == nil || errs.HasErrors() {
			b.Fatalf("load: %v", errs)
		}
		return doc
	}
	check := func(b *testing.B, doc *manifest.Doc[manifest.Tenant]) *model.Tenant {
		m, errs := validate.Tenant(doc, within, validate.AllFiles(), validate.Options{Now: now})
		if m == nil {
			b.Fatalf("validate: %v", errs)
		}
		return m
	}
	b.Run("load", func(b *testing.B) {
		loop(b, func() { load(b) })
	})
	b.Run("validate", func(b *testing.B) {
		doc := load(b)
		loop(b, func() { check(b, doc) })
	})
	b.Run("generate", func(b *testing.B) {
		doc := load(b)
		m := check(b, doc)
		loop(b, func() {
			if _, errs := generate.Tenant(m, site); errs.HasErrors() {
				b.Fatalf("generate: %v", errs)
			}
		})
	})
}
