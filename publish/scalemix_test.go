package publish

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// The scale benchmark's tenant mixes. "realistic" (the default) writes
// tenant manifests as users write them, of sizes that vary from tenant to
// tenant; "uniform" writes scaleSite's one small shape for every tenant,
// the mix of the runs BENCHMARKS.md recorded before the realistic one, kept
// to compare with them. DISCGEN_SCALE_MIX chooses.
const (
	mixRealistic = "realistic"
	mixUniform   = "uniform"
)

// scaleMix is the mix DISCGEN_SCALE_MIX names.
func scaleMix(tb testing.TB) string {
	switch m := os.Getenv("DISCGEN_SCALE_MIX"); m {
	case "", mixRealistic:
		return mixRealistic
	case mixUniform:
		return mixUniform
	default:
		tb.Fatalf("DISCGEN_SCALE_MIX=%q: want %s or %s", m, mixRealistic, mixUniform)
		return ""
	}
}

// realisticSite writes, under dir, a site manifest with usage
// preferences, an llms.txt and a delegation of "~*" to n tenant manifests
// users/uNNNNNNN/public_html/autodisc.yaml written by realisticTenant. It
// returns the site manifest's path. Every tenant is valid.
func realisticSite(tb testing.TB, dir string, n int) string {
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
	return writeHost(tb, dir, site, n, func(user string, i int) []byte { return realisticTenant(user, uint64(i)) })
}

// words make the descriptions; a user's own text, not a repeated one.
var words = strings.Fields(`notes photographs recipes garden travel music
code teaching history maps letters drawings poems chess birds weather
bicycles radio astronomy family archive projects lectures translations`)

// realisticTenant is the manifest of user, the seed choosing its sizes:
// a description of 3 to 10 words; one to four named agents beside "*";
// the ai-training and ai-search presets; usage preferences on the "*"
// group with a path override and on the ai-search group; an icon; two
// feeds; an inline delegatee; an x- file. One tenant in 20 is heavier:
// 200 to 1,000 disallow rules, a description of up to 60 words (which
// discgen warns is long), a longer x- file, six named agents.
//
// A tenant manifest cannot write an llms.txt (its schema has no
// llms_txt); the site's llms.txt is realisticSite's.
func realisticTenant(user string, seed uint64) []byte {
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

// TestRealisticSite builds a small realistic host: no tenant refused, none
// with an error, and the heavier tenants among them.
func TestRealisticSite(t *testing.T) {
	const n = 200
	built, heavy, refused := 0, 0, 0
	for i := range n {
		if strings.Contains(string(realisticTenant("u", uint64(i))), "x-about.txt") {
			heavy++
		}
	}
	if heavy == 0 || heavy > n/5 {
		t.Errorf("%d heavier tenants of %d, want a few", heavy, n)
	}
	sum := Run(Options{Manifest: realisticSite(t, t.TempDir(), n), Now: goldenNow, Mode: Render}, func(u *Unit) {
		if u.Diags.HasErrors() || u.Status == Refused {
			if refused++; refused <= 3 {
				t.Errorf("%s: %v: %v", u.Manifest, u.Status, u.Diags)
			}
		}
		if u.Kind == Tenant && u.Status == Built {
			built++
		}
	})
	if !sum.SiteOK || sum.Failed || built != n {
		t.Fatalf("realistic site: %+v, %d tenants built, want %d", sum, built, n)
	}
}
