package report

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/pathspace"
	"github.com/discgen/discgen/sitebuild"
	"github.com/discgen/discgen/tree"
)

var now = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// examplePage builds examples/site.yaml and its report page.
func examplePage(t *testing.T, extra ...string) (*Page, []byte) {
	t.Helper()
	const file = "../examples/site.yaml"
	res, diags := sitebuild.Build(sitebuild.Options{Manifest: file, Now: now, Tenants: true})
	if res == nil {
		t.Fatal(diags)
	}
	in := Input{Manifest: "examples/site.yaml", Site: res.Doc.Value, Tree: res.Tree, Diags: diags, URLs: extra}
	for _, tn := range res.Tenants {
		in.Tenants = append(in.Tenants, Tenant{Manifest: tn.Manifest, Space: tn.Space, Tree: tn.Tree})
	}
	p := Build(in)
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	return p, b.Bytes()
}

// plansLine is the line of the example's robots.txt that disallows
// /org/plans.html in the "*" group: the last group, so the last such line
// (GPTBot's group, which inherits the "*" rules, has one too).
func plansLine(t *testing.T) int {
	t.Helper()
	res, diags := sitebuild.Build(sitebuild.Options{Manifest: "../examples/site.yaml", Now: now})
	if res == nil {
		t.Fatal(diags)
	}
	line := 0
	for i, l := range strings.Split(string(res.Tree["robots.txt"].Data), "\n") {
		if l == "Disallow: /org/plans.html" {
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatal("the example's robots.txt does not disallow /org/plans.html")
	}
	return line
}

func cell(p *Page, agent, path string) *Cell {
	for i := range p.Rows {
		if p.Rows[i].Path != path {
			continue
		}
		for j := range p.Rows[i].Cells {
			if p.Rows[i].Cells[j].Agent == agent {
				return &p.Rows[i].Cells[j]
			}
		}
	}
	return nil
}

// TestBuild checks the page's data for the example: the agents, the URLs
// and their sources, verdicts with their rule and line, the delegation
// tree with tenants, and the files.
func TestBuild(t *testing.T) {
	p, _ := examplePage(t, "https://www.fict.org/extra/page.html")
	var names []string
	for _, a := range p.Agents {
		names = append(names, a.Name)
	}
	if got := strings.Join(names, " "); got != "unhipbot webcrawler excite GPTBot ai-training * otherbot" {
		t.Errorf("agents = %s", got)
	}
	c := cell(p, "otherbot", "/org/plans.html")
	if c == nil || c.Allowed || c.Rule != "Disallow: /org/plans.html" || c.Line != plansLine(t) || c.Expect != "ok" {
		t.Errorf("otherbot /org/plans.html = %+v", c)
	}
	if c := cell(p, "webcrawler", "/extra/page.html"); c == nil || !c.Allowed || c.Rule != "" {
		t.Errorf("--url cell = %+v", c)
	}
	if c := cell(p, "*", "/sitemap.xml"); c == nil || c.Allowed {
		t.Errorf("sitemap cell = %+v", c)
	}
	if p.Differ != 0 {
		t.Errorf("%d cells differ under the 1996 reading; the example has none", p.Differ)
	}
	tree := p.Tree
	if len(tree.Children) != 2 || tree.Children[0].Space != "/~*/" || len(tree.Children[0].Children) != 2 ||
		tree.Children[0].Children[0].Space != "/~alice/" || tree.Children[1].Kind != "inline" || tree.Children[1].Grant != "all except robots.txt" {
		t.Errorf("delegation tree: %+v", tree.Children)
	}
	if len(p.Files) != 29 {
		t.Errorf("%d files, want the site's 21 and the tenants' 8", len(p.Files))
	}
}

// TestBuildDiffers marks a cell where the 1996 reading differs: a wildcard
// rule, which the 1996 draft reads literally.
func TestBuildDiffers(t *testing.T) {
	m := &manifest.Site{Site: manifest.SiteInfo{URL: "https://example.org/"},
		Agents: []manifest.Group{{Names: []string{"*"}, Disallow: []string{"/*.pdf$"}}}}
	tr := tree.Tree{"robots.txt": {Data: []byte("User-agent: *\nDisallow: /*.pdf$\n")}}
	p := Build(Input{Site: m, Tree: tr, URLs: []string{"/a.pdf"}})
	c := cell(p, "otherbot", "/a.pdf")
	if c == nil || c.Allowed || !c.Differs || c.Line != 2 || p.Differ != 4 {
		t.Errorf("cell = %+v, %d differ; want disallowed by line 2, allowed under 1996, for /a.pdf and /.pdf in both columns", c, p.Differ)
	}
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "1996: allowed, no rule matches") {
		t.Errorf("the page does not mark the 1996 reading:\n%s", b.String())
	}
}

// TestRenderSelfContained checks that the page loads nothing and runs
// nothing, and that two renders are identical.
func TestRenderSelfContained(t *testing.T) {
	_, a := examplePage(t)
	_, b := examplePage(t)
	if !bytes.Equal(a, b) {
		t.Error("two renders of the same input differ")
	}
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "@import", "url("} {
		if bytes.Contains(a, []byte(bad)) {
			t.Errorf("the page holds %q", bad)
		}
	}
}

// TestChromium renders the example's page in headless Chromium and checks
// the structure of the DOM it builds.
func TestChromium(t *testing.T) {
	bin := chromium(t)
	p, html := examplePage(t, "/private/x.html")
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, html, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s := dumpDOM(ctx, t, bin, dir, page)
	if !strings.Contains(s, `<table id="matrix" class="matrix">`) {
		t.Fatalf("no matrix table in the DOM:\n%s", s)
	}
	cells := regexp.MustCompile(`<td class="cell [^"]*" data-agent="([^"]*)" data-url="([^"]*)" data-verdict="([a-z]+)"`).FindAllStringSubmatch(s, -1)
	if want := len(p.Agents) * len(p.Rows); len(cells) != want || want != 7*18 {
		t.Errorf("%d cells in the DOM, want %d agents x %d URLs = %d", len(cells), len(p.Agents), len(p.Rows), len(p.Agents)*len(p.Rows))
	}
	verdict := map[string]string{}
	for _, c := range cells {
		verdict[c[1]+" "+c[2]] = c[3]
	}
	for k, want := range map[string]string{
		"unhipbot /index.html":       "disallowed",
		"webcrawler /org/plans.html": "allowed",
		"otherbot /org/about.html":   "allowed",
		"otherbot /private/x.html":   "disallowed",
		"* /robots.txt":              "allowed",
	} {
		if verdict[k] != want {
			t.Errorf("%s: %q in the DOM, want %s", k, verdict[k], want)
		}
	}
	if n := strings.Count(s, `class="node `); n != 5 {
		t.Errorf("%d nodes in the delegation tree, want 5 (site, /~*/, alice, bob, /projects/)", n)
	}
	if !strings.Contains(s, fmt.Sprintf("line %d: Disallow: /org/plans.html", plansLine(t))) {
		t.Error("the deciding rule and line are not in the DOM")
	}

	// Printable: Chromium prints it to PDF.
	pdf := filepath.Join(dir, "report.pdf")
	print := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile2"),
		"--no-pdf-header-footer", "--print-to-pdf="+pdf, "file://"+page)
	if out, err := print.CombinedOutput(); err != nil {
		t.Fatalf("chromium --print-to-pdf: %v\n%s", err, out)
	}
	data, err := os.ReadFile(pdf)
	if err != nil || !bytes.HasPrefix(data, []byte("%PDF-")) || len(data) < 10000 {
		t.Errorf("no PDF printed (%d bytes, %v)", len(data), err)
	}
}

// chromium returns the path of Chromium, for a test of the long tier.
func chromium(t *testing.T) string {
	t.Helper()
	testenv.NeedsLong(t)
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Missing(t, "chromium: not installed (apt-get install chromium; .ci/run installs it)")
	return ""
}

// dumpDOM loads page in headless Chromium and returns the DOM it builds.
// Flags such as --window-size go before --dump-dom.
func dumpDOM(ctx context.Context, t *testing.T, bin, dir, page string, flags ...string) string {
	t.Helper()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + filepath.Join(dir, "profile")}, flags...)
	cmd := exec.CommandContext(ctx, bin, append(args, "--dump-dom", "file://"+page)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return string(dom)
}

// TestChromiumPresets checks the preset columns in the DOM Chromium builds:
// a cell per URL in each, marked with its preset and the agent asked.
func TestChromiumPresets(t *testing.T) {
	bin := chromium(t)
	p, html := presetPage(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, html, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s := dumpDOM(ctx, t, bin, dir, page)
	cells := regexp.MustCompile(`<td class="cell [^"]*" data-agent="([^"]*)" data-url="([^"]*)" data-verdict="([a-z]+)" data-preset="([^"]*)"`).FindAllStringSubmatch(s, -1)
	if len(cells) != 2*len(p.Rows) || len(p.Rows) < 4 {
		t.Errorf("%d preset cells in the DOM, want 2 presets x %d URLs", len(cells), len(p.Rows))
	}
	got := map[string]string{}
	for _, c := range cells {
		got[c[4]+" "+c[2]] = c[1] + " " + c[3]
	}
	for k, want := range map[string]string{
		"ai-training /blog/x.html": "AI2Bot disallowed",
		"ai-user /blog/x.html":     "amazon-QBusiness allowed",
		"ai-user /private/":        "AI2Bot-DeepResearchEval disallowed",
	} {
		if got[k] != want {
			t.Errorf("%s: %q in the DOM, want %q", k, got[k], want)
		}
	}
	if !strings.Contains(s, `data-preset="ai-user"><span class="agent">ai-user</span>`) {
		t.Error("no header for the ai-user column in the DOM")
	}
}

// TestBuildNoRobots reports a manifest without agents: every verdict is
// allowed and the page says why.
func TestBuildNoRobots(t *testing.T) {
	m := &manifest.Site{Site: manifest.SiteInfo{URL: "https://example.org/"}}
	p := Build(Input{Site: m, Tree: tree.Tree{"autodisc/index.txt": {Data: []byte("x\n")}}, URLs: []string{"/a"}})
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	if c := cell(p, "*", "/a"); c == nil || !c.Allowed || !p.NoRobots || !strings.Contains(b.String(), "defines no robots.txt") {
		t.Errorf("cell %+v, page:\n%s", c, b.String())
	}
}

// presetManifest groups the agents of two presets: ai-user's
// AI2Bot-DeepResearchEval shares the letters Google reads (AI) with
// ai-training's AI2Bot, so it gets that group's rules too there.
const presetManifest = `version: 1
site: {url: "https://example.org/"}
agents:
  - presets: [ai-training]
    except_agents: [CCBot]
    disallow: [/]
  - presets: [ai-user]
    disallow: [/private/]
  - names: [GPTBot]
    allow: [/blog/]
    disallow: [/]
  - names: ["*"]
    disallow: [/admin/]
`

// presetPage builds presetManifest and its report page.
func presetPage(t *testing.T) (*Page, []byte) {
	t.Helper()
	mf := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(mf, []byte(presetManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	res, diags := sitebuild.Build(sitebuild.Options{Manifest: mf, Now: now})
	if res == nil {
		t.Fatal(diags)
	}
	p := Build(Input{Manifest: "site.yaml", Site: res.Doc.Value, Tree: res.Tree, Diags: diags, URLs: []string{"/blog/x.html"}})
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	return p, b.Bytes()
}

// TestBuildPresets checks the columns of presets: one per preset, holding
// the agents it adds that have no column of their own, each cell giving
// the verdicts most of them get and naming the others.
func TestBuildPresets(t *testing.T) {
	p, html := presetPage(t)
	var names []string
	for _, a := range p.Agents {
		names = append(names, fmt.Sprintf("%s(%d)", a.Name, len(a.Members)))
	}
	// ai-training's 28 agents but CCBot (left out) and GPTBot (listed).
	if got := strings.Join(names, " "); got != "GPTBot(0) ai-training(26) ai-user(44) *(0) otherbot(0)" || p.PresetAgents != 70 {
		t.Errorf("columns = %s, %d preset agents", got, p.PresetAgents)
	}
	for _, a := range p.Agents {
		if a.Preset == "ai-training" && (slices.Contains(a.Members, "CCBot") || slices.Contains(a.Members, "GPTBot")) {
			t.Errorf("ai-training's column holds CCBot or GPTBot: %v", a.Members)
		}
	}
	presetCell := func(preset, path string) *Cell {
		for i := range p.Rows {
			for j := range p.Rows[i].Cells {
				if c := &p.Rows[i].Cells[j]; p.Rows[i].Path == path && c.Preset == preset {
					return c
				}
			}
		}
		t.Fatalf("no %s cell for %s", preset, path)
		return nil
	}
	if c := presetCell("ai-training", "/blog/x.html"); c.Allowed || c.Agent != "AI2Bot" || c.Share != 26 || len(c.Others) != 0 || c.ShareText() != "all 26 agents (asked as AI2Bot)" {
		t.Errorf("ai-training /blog/x.html = %+v, %q", c, c.ShareText())
	}
	// Google reads AI2Bot-DeepResearchEval as AI, and gives it
	// ai-training's Disallow: / as well.
	c := presetCell("ai-user", "/blog/x.html")
	if !c.Allowed || c.Agent != "amazon-QBusiness" || c.Share != 43 || !slices.Equal(c.Others, []string{"AI2Bot-DeepResearchEval"}) {
		t.Errorf("ai-user /blog/x.html = %+v", c)
	}
	if c := presetCell("ai-user", "/private/"); c.Allowed || c.Share != 44 {
		t.Errorf("ai-user /private/ = %+v", c)
	}
	if c := cell(p, "GPTBot", "/blog/x.html"); c == nil || !c.Allowed {
		t.Errorf("GPTBot /blog/x.html = %+v", c)
	}
	for _, want := range []string{
		`<span class="agent">ai-user</span><span class="note">preset: 44 agents, AI2Bot-DeepResearchEval first</span>`,
		`43 of 44 agents (asked as amazon-QBusiness); the other verdicts: AI2Bot-DeepResearchEval`,
		`<strong>5</strong> columns (70 agents of presets, one column per preset) × <strong>5</strong> URLs`,
	} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// manyTenants is a site with one tenants delegation and n tenants.
func manyTenants(t *testing.T, n int) Input {
	t.Helper()
	site := &manifest.Site{Delegations: []manifest.Delegation{{Path: "~*", Only: []string{"description.txt"}, Tenants: "home/*/autodisc.yaml"}}}
	site.Site.URL = "https://example.org/"
	in := Input{Manifest: "site.yaml", Site: site, Tree: tree.Tree{"autodisc/index.txt": {Data: []byte("subdirectories.txt\n")}}}
	for i := range n {
		sp, err := pathspace.Parse(pathspace.Root(), fmt.Sprintf("/~u%04d/", i))
		if err != nil {
			t.Fatal(err)
		}
		in.Tenants = append(in.Tenants, Tenant{Manifest: fmt.Sprintf("home/u%04d/autodisc.yaml", i), Space: sp,
			Tree: tree.Tree{"autodisc/index.txt": {Data: []byte("description.txt\n")}, "autodisc/description.txt": {Data: []byte("x\n")}}})
	}
	return in
}

// A host's thousands of tenants are folded in groups and their files
// summed, so the page stays readable (and a fraction of the size); a few
// tenants are listed one by one, as before.
func TestManyTenants(t *testing.T) {
	few := Build(manyTenants(t, listTenants))
	del := few.Tree.Children[0]
	if len(del.Children) != listTenants || len(del.Groups) != 0 || few.TenantFiles != 0 || len(few.Files) != 1+2*listTenants {
		t.Errorf("%d tenants: %d listed, %d groups, %d files listed, %d summed", listTenants, len(del.Children), len(del.Groups), len(few.Files), few.TenantFiles)
	}

	const n = 1201
	p := Build(manyTenants(t, n))
	del = p.Tree.Children[0]
	if len(del.Children) != 0 || del.Tenants != n || len(del.Groups) != 3 {
		t.Fatalf("%d tenants: %d listed, %d counted, %d groups", n, len(del.Children), del.Tenants, len(del.Groups))
	}
	if g := del.Groups[2]; g.Label != "/~u1000/ … /~u1200/" || len(g.Nodes) != 201 {
		t.Errorf("last group %q holds %d", g.Label, len(g.Nodes))
	}
	if len(p.Files) != 1 || p.TenantFiles != 2*n || p.TenantBytes != n*(len("description.txt\n")+2) {
		t.Errorf("files: %d listed, %d summed in %d bytes", len(p.Files), p.TenantFiles, p.TenantBytes)
	}
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"1201 tenants, folded in groups of up to 500",
		`<details><summary><code>/~u0000/ … /~u0499/</code> (500)</summary>`,
		"<li><code>/~u0007/</code> description.txt, index.txt</li>",
		"the autodisc/ files of 1201 tenants, 2402 in all",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "home/u0007/autodisc.yaml") {
		t.Error("a folded tenant's row names its manifest: the glob says where it is")
	}
}

// The URLs of an expect entry that asserts usage alone are rows of the
// matrix, as those of allowed and disallowed are; with no urls, its "/".
func TestUsageExpectURLs(t *testing.T) {
	m := &manifest.Site{Site: manifest.SiteInfo{URL: "https://example.org/"}, Expect: []manifest.Expect{
		{Agent: "GPTBot", Usage: &manifest.UsageExpect{TrainAI: "n"}, URLs: []string{"/articles/", "/shop/"}},
		{Agent: "CCBot", Usage: &manifest.UsageExpect{TrainAI: "n"}},
	}}
	p := Build(Input{Site: m, Tree: tree.Tree{"robots.txt": {Data: []byte("User-agent: *\nDisallow:\n")}}})
	var got []string
	for _, r := range p.Rows {
		got = append(got, r.Path)
	}
	for _, want := range []string{"/", "/articles/", "/shop/"} {
		if !slices.Contains(got, want) {
			t.Errorf("rows %q lack %s", got, want)
		}
	}
}

const verifiedManifest = `version: 1
site:
  url: https://www.example.com
agents:
  - names: [Googlebot]
    verified: true
    disallow: [/private/]
  - names: ["*"]
    disallow: [/private/]
`

// TestVerifiedColumn checks that a group served as verified by address
// says so in its agents' columns, where the page gives their verdicts.
func TestVerifiedColumn(t *testing.T) {
	mf := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(mf, []byte(verifiedManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	res, diags := sitebuild.Build(sitebuild.Options{Manifest: mf, Now: now})
	if res == nil {
		t.Fatal(diags)
	}
	p := Build(Input{Manifest: "site.yaml", Site: res.Doc.Value, Tree: res.Tree, Diags: diags})
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range p.Agents {
		got = append(got, fmt.Sprintf("%s:%v", a.Name, a.Verified))
	}
	if s := strings.Join(got, " "); !strings.HasPrefix(s, "Googlebot:true *:false") {
		t.Errorf("columns = %s, want Googlebot verified and * not", s)
	}
	if n := strings.Count(b.String(), `<span class="verified">verified by address</span></th>`); n != 1 {
		t.Errorf("%d columns marked verified on the page, want 1", n)
	}
}

// probedDOM lays a copy of page out in headless Chromium at 1,440 px, as
// a laptop shows it, with probe (a script that marks the body with what
// it measured) put in before </body>, and returns the DOM.
func probedDOM(t *testing.T, bin string, page []byte, probe string) []byte {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	probed := bytes.Replace(page, []byte("</body>"), []byte(probe+"</body>"), 1)
	if bytes.Equal(probed, page) {
		t.Fatal("the page has no </body>")
	}
	if err := os.WriteFile(file, probed, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	return []byte(dumpDOM(ctx, t, bin, dir, file, "--window-size=1440,900"))
}

// wrapProbe, put into a copy of the page, marks the body with the rule
// lines Chromium breaks inside a word: for each character of a rule, the
// line it is laid out on, and a break between two characters of a word.
const wrapProbe = `<script>
addEventListener("load", () => {
  const bad = [];
  for (const el of document.querySelectorAll(".cell .rule")) {
    const text = el.firstChild;
    if (!text || text.nodeType !== 3) continue;
    const s = text.data, r = document.createRange();
    let top = null;
    for (let i = 0; i < s.length; i++) {
      r.setStart(text, i); r.setEnd(text, i + 1);
      const rect = r.getClientRects()[0];
      if (!rect) continue;
      if (top !== null && rect.top > top + 1 && s[i] !== " " && s[i - 1] !== " ") {
        bad.push(s.slice(0, i) + "|" + s.slice(i));
      }
      top = rect.top;
    }
  }
  document.body.setAttribute("data-midword", String(bad.length));
  document.body.setAttribute("data-midword-first", bad[0] || "");
  document.body.setAttribute("data-rules", String(document.querySelectorAll(".cell .rule").length));
});
</script>`

// TestChromiumWraps lays the example's page out at 1,440 px, as a laptop
// shows it, and checks that no rule's text is broken inside a word
// ("line 2: Disallo" / "w: /private/").
func TestChromiumWraps(t *testing.T) {
	bin := chromium(t)
	_, html := examplePage(t, "/private/x.html")
	dom := probedDOM(t, bin, html, wrapProbe)
	m := regexp.MustCompile(`data-midword="(\d+)" data-midword-first="([^"]*)" data-rules="(\d+)"`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe did not run:\n%.2000s", dom)
	}
	if string(m[3]) == "0" {
		t.Fatal("no rule text on the page to lay out")
	}
	if string(m[1]) != "0" {
		t.Errorf("%s of %s rules broken inside a word at 1,440 px, first: %q", m[1], m[3], m[2])
	}
}

// fitProbe, put into a copy of the page, marks the body with the width
// of the verdict matrix and the width its box leaves it.
const fitProbe = `<script>
addEventListener("load", () => {
  const table = document.querySelector("table.matrix");
  document.body.setAttribute("data-matrix", String(table ? table.offsetWidth : -1));
  document.body.setAttribute("data-room", String(table ? table.parentElement.clientWidth : -1));
});
</script>`

// TestChromiumFits lays the example's page out at 1,440 px and checks
// that the verdict matrix fits the window: every agent's column is seen
// without scrolling sideways, as docs/report.png shows it, the notes on
// a URL's licence and reservation wrapping in its cell.
func TestChromiumFits(t *testing.T) {
	bin := chromium(t)
	_, html := examplePage(t, "/private/x.html")
	dom := probedDOM(t, bin, html, fitProbe)
	m := regexp.MustCompile(`data-matrix="(-?\d+)" data-room="(-?\d+)"`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe did not run:\n%.2000s", dom)
	}
	width, _ := strconv.Atoi(string(m[1]))
	room, _ := strconv.Atoi(string(m[2]))
	if width <= 0 || room <= 0 {
		t.Fatalf("no matrix on the page (width %d, room %d)", width, room)
	}
	if width > room {
		t.Errorf("the matrix is %d px wide at 1,440 px, where its box leaves %d: its right columns need a sideways scroll", width, room)
	}
}
