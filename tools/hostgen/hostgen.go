// Package hostgen writes the shared-host trees of publish's tests and
// benchmarks, and of tools/writehost for a run by hand: a site manifest
// delegating "~*" to n tenant manifests
// users/uNNNNNNN/public_html/autodisc.yaml, of one small shape
// (ScaleSite), of the sizes users write (RealisticSite), with the users'
// own pages (Host), or with hostile tenants among them (Hostile).
package hostgen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// TB is what the writers need of a test, which testing.TB has: an error
// stops the caller (a test, or tools/writehost, which exits).
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// The mixes of tenants Host writes. MixRealistic writes tenant manifests
// as users write them, of sizes that vary from tenant to tenant;
// MixUniform writes ScaleSite's one small shape for every tenant, the mix
// of the runs BENCHMARKS.md recorded before the realistic one, kept to
// compare with them.
const (
	MixRealistic = "realistic"
	MixUniform   = "uniform"
)

// ScaleSite writes, under dir, a site manifest delegating "~*" to the tenant
// manifests users/uNNNNNNN/public_html/autodisc.yaml, and n such manifests,
// each of the shape of a typical user page: a description, an icon, two
// feeds (one relative), its own robots rules and a delegation with an
// inline delegatee. It returns the site manifest's path. Every tenant is
// valid, so a build of the site renders n + 1 trees.
func ScaleSite(tb TB, dir string, n int) string {
	tb.Helper()
	site := `version: 1
site:
  url: https://isp.example/
  description: A shared host with many user pages
agents:
  - names: ["*"]
    disallow: [/cgi-bin/]
delegations:
  - path: "~*"
    except: [x-isp.txt]
    tenants: "users/*/public_html/autodisc.yaml"
    limits: {bytes: 16777216}   # heavyTenant writes 7.7 MB
files:
  x-isp.txt: hosted
`
	return WriteHost(tb, dir, site, n, func(user string, _ int) []byte {
		return []byte(fmt.Sprintf(`version: 1
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
delegations:
  - path: blog/
    only: [feeds.txt, description.txt]
    inline:
      description: The blog of %[1]s
      feeds: [{url: posts.rss}]
`, user))
	})
}

// WriteHost writes, under dir, the site manifest site and n tenant
// manifests users/uNNNNNNN/public_html/autodisc.yaml, the i-th being
// tenant("uNNNNNNN", i), and returns the site manifest's path.
func WriteHost(tb TB, dir, site string, n int, tenant func(user string, i int) []byte) string {
	tb.Helper()
	manifest := filepath.Join(dir, "site.yaml")
	if err := os.WriteFile(manifest, []byte(site), 0o644); err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		user := fmt.Sprintf("u%07d", i)
		tdir := filepath.Join(dir, "users", user, "public_html")
		if err := os.MkdirAll(tdir, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tdir, "autodisc.yaml"), tenant(user, i), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return manifest
}

// RealisticSite writes, under dir, a site manifest with usage
// preferences, an llms.txt and a delegation of "~*" to n tenant manifests
// users/uNNNNNNN/public_html/autodisc.yaml written by RealisticTenant. It
// returns the site manifest's path. Every tenant is valid.
func RealisticSite(tb TB, dir string, n int) string {
	tb.Helper()
	site := `version: 1
site:
  url: https://isp.example/
  description: A shared host with many user pages
usage:
  train_ai: no
  search: yes
llms_txt:
  title: ISP user pages
  summary: The pages of the host's users, each under /~user/
  details: Each user writes the discovery files of their own pages.
  sections:
    - name: Users
      links:
        - {title: The list of users, url: /users.md, notes: one line a user}
    - name: Optional
      links: [{title: Terms, url: /terms.md}]
agents:
  - names: ["*"]
    disallow: [/cgi-bin/]
  - presets: [ai-training]
    disallow: [/]
    acknowledge: [google-partial, substring-name]
delegations:
  - path: "~*"
    except: [x-isp.txt]
    tenants: "users/*/public_html/autodisc.yaml"
    limits: {bytes: 16777216}   # heavyTenant writes 7.7 MB
files:
  x-isp.txt: hosted
`
	return WriteHost(tb, dir, site, n, func(user string, i int) []byte { return RealisticTenant(user, uint64(i)) })
}

// words make the descriptions; a user's own text, not a repeated one.
var words = strings.Fields(`notes photographs recipes garden travel music
code teaching history maps letters drawings poems chess birds weather
bicycles radio astronomy family archive projects lectures translations`)

// RealisticTenant is the manifest of user, the seed choosing its sizes:
// a description of 3 to 10 words; one to four named agents beside "*";
// the ai-training and ai-search presets; usage preferences on the "*"
// group with a path override and on the ai-search group; an icon; two
// feeds; an inline delegatee; an x- file. One tenant in 20 is heavier:
// 200 to 1,000 disallow rules, a description of up to 60 words (which
// discgen warns is long), a longer x- file, six named agents.
//
// A tenant manifest cannot write an llms.txt (its schema has no
// llms_txt); the site's llms.txt is RealisticSite's.
func RealisticTenant(user string, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0x5ca1e))
	heavy := r.IntN(20) == 0
	var b strings.Builder
	desc := func(max int) string {
		n := 3 + r.IntN(max-2)
		ws := make([]string, n)
		for i := range ws {
			ws[i] = words[r.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	nd, nagents, nrules := 10, 1+r.IntN(4), 1+r.IntN(6)
	if heavy {
		nd, nagents, nrules = 60, 6, 200+r.IntN(801)
	}
	// "The pages" is where the benchmark's edits change it.
	fmt.Fprintf(&b, "version: 1\npath: /~%[1]s/\ndescription: The pages of user %[1]s, on %[2]s\n", user, desc(nd))
	fmt.Fprintf(&b, "icons: [/~%s/icon-%d.png]\n", user, 16<<r.IntN(4))
	fmt.Fprintf(&b, `feeds:
  - url: feed.atom
  - url: /~%[1]s/notes
    type: application/feed+json
agents:
  - names: ["*"]
    disallow:
`, user)
	for i := range nrules {
		fmt.Fprintf(&b, "      - /~%s/private/%d/\n", user, i)
	}
	fmt.Fprintf(&b, `    usage:
      train_ai: no
      search: yes
      paths:
        - {path: /~%[1]s/open/, train_ai: yes}
`, user)
	// Half the users silenced the presets' warnings, as discgen
	// suggests; the others' builds print them.
	ack := ""
	if r.IntN(2) == 0 {
		ack = "    acknowledge: [google-partial, substring-name]\n"
	}
	b.WriteString("  - names: [")
	for i := range nagents {
		if i > 0 {
			b.WriteString(", ")
		}
		w := words[(int(seed)+i*5)%len(words)]
		fmt.Fprintf(&b, "%s%sReader", strings.ToUpper(w[:1]), w[1:])
	}
	fmt.Fprintf(&b, `]
    allow: [/~%[1]s/]
    disallow: [/~%[1]s/drafts/]
  - presets: [ai-training]
    disallow: [/~%[1]s/]
  - presets: [ai-search]
    allow: [/~%[1]s/public/]
    disallow: [/~%[1]s/]
    usage: {search: yes, train_ai: no}
%[2]sdelegations:
  - path: blog/
    only: [feeds.txt, description.txt]
    inline:
      description: The blog of %[1]s
      feeds: [{url: posts.rss}]
files:
  x-contact.txt: "%[1]s@isp.example"
`, user, ack)
	if heavy {
		b.WriteString("  x-about.txt:\n")
		for range 50 {
			fmt.Fprintf(&b, "    - %s\n", desc(12))
		}
	}
	return []byte(b.String())
}

// Host writes n tenants of the mix (RealisticSite's for MixRealistic,
// ScaleSite's for MixUniform), and in each public_html some of the user's
// own files, which discgen must neither read nor list.
func Host(b TB, dir string, n int, mix string) {
	b.Helper()
	switch mix {
	case MixRealistic:
		RealisticSite(b, dir, n)
	case MixUniform:
		ScaleSite(b, dir, n)
	default:
		b.Fatalf("mix %q: want %s or %s", mix, MixRealistic, MixUniform)
	}
	page := []byte(strings.Repeat("<p>A user's own page.</p>\n", 40))
	for i := range n {
		web := filepath.Join(dir, "users", fmt.Sprintf("u%07d", i), "public_html")
		for _, name := range []string{"index.html", "about.html", "photo.jpg"} {
			if err := os.WriteFile(filepath.Join(web, name), page, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
}
