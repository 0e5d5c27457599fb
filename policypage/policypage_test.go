package policypage_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/generate"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/manifest"
	"github.com/discgen/discgen/policypage"
	"github.com/discgen/discgen/validate"
)

const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`

// hostilePage has the hostile string in every value the page writes.
func hostilePage() *policypage.Page {
	c := policypage.Crawler{Name: hostile, Operator: hostile, Checked: hostile, Fetch: hostile, Rules: []string{hostile},
		Use: hostile, UsePaths: []string{hostile}, Refused: true, Throttle: hostile, Verified: true, Reading: hostile}
	ctl := c
	ctl.Controls = hostile
	return &policypage.Page{SiteURL: hostile, Catalogue: hostile, Revision: hostile,
		Refused: []string{hostile}, Throttled: []string{hostile}, Verified: []string{hostile},
		Sections: []policypage.Section{{ID: hostile, Title: hostile, About: hostile, Crawlers: []policypage.Crawler{c, ctl}}},
		Others:   c}
}

// TestRenderEscapes: a value holding markup is written as text wherever
// the page puts it, in an element or an attribute.
func TestRenderEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := policypage.Render(&b, hostilePage()); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, bad := range []string{"<script", "<img", `"'&`} {
		if strings.Contains(s, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	if n := strings.Count(s, "&lt;script&gt;"); n < 15 {
		t.Errorf("the hostile value is written escaped %d times, want each of the page's values (15 or more)", n)
	}
}

const site = `version: 1
site: {url: "https://example.org/"}
policy_page: /crawler-policy.html
usage: {train_ai: "no"}
agents:
  - presets: [ai-training]
    except_agents: [GPTBot]
    allow: [/]
    throttle: {rate: 1/s, burst: 10}
  - names: [GPTBot]
    disallow: [/]
    enforce: true
  - names: [Googlebot]
    verified: true
    disallow: [/drafts/]
  - names: ["*"]
    disallow: [/tmp/]
`

// TestChromium loads the page a build writes, and the hostile page, in
// headless Chromium, and checks the DOM it builds: a row for every
// crawler with its verdict and status, the date, no script and no element
// made of a value; and prints the page. The page's Content-Security-Policy
// lets Chromium run no script, so what it shows is what a reader without
// scripts reads (Chromium's --dump-dom itself needs scripts on).
func TestChromium(t *testing.T) {
	bin := chromium(t)
	doc, errs := manifest.LoadSite(filepath.Join(t.TempDir(), "site.yaml"), []byte(site), "")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	m, errs := validate.Site(doc, validate.Options{Now: now})
	if m == nil {
		t.Fatal(errs)
	}
	tr, errs := generate.Site(m, generate.Options{Now: now})
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	p := generate.PolicyPage(doc.Value)
	rows := 0
	for _, s := range p.Sections {
		rows += len(s.Crawlers)
	}
	var hb bytes.Buffer
	if err := policypage.Render(&hb, hostilePage()); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	s := dumpDOM(ctx, t, bin, dir, "page.html", tr["crawler-policy.html"].Data)
	got := regexp.MustCompile(`<tr class="crawler" data-name="([^"]*)" data-fetch="([a-z]*)" data-status="([a-z ]*)">`).FindAllStringSubmatch(s, -1)
	if len(got) != rows || rows < 150 {
		t.Errorf("%d crawler rows in the DOM, want %d (the catalogue's)", len(got), rows)
	}
	row := map[string]string{}
	for _, g := range got {
		row[g[1]] = g[2] + " " + g[3]
	}
	for name, want := range map[string]string{
		"GPTBot":      "none refused",
		"Bytespider":  "all throttled",
		"Googlebot":   "some verified",
		"CCBot":       "all throttled",
		"Claude-User": "some ",
		// A control token: never fetches, and the group's throttle and
		// refusal do nothing to it.
		"Google-Extended": "never ",
	} {
		if row[name] != want {
			t.Errorf("%s: %q in the DOM, want %q", name, row[name], want)
		}
	}
	for _, want := range []string{`<time datetime="` + p.Catalogue + `">` + p.Catalogue + `</time>`, `id="others" data-fetch="some"`, "train_ai=no", "Verified by address</strong>: 1 crawler: Googlebot"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in the DOM", want)
		}
	}

	if strings.Contains(s, "<script") || regexp.MustCompile(`<[^>]* on[a-z]+=`).MatchString(s) {
		t.Error("the DOM has a script or an event handler")
	}
	if !strings.Contains(s, `content="default-src 'none'; style-src 'unsafe-inline'"`) {
		t.Error("the DOM has no Content-Security-Policy that forbids scripts")
	}

	// Printable: Chromium prints it to PDF.
	pdf := filepath.Join(dir, "page.pdf")
	print := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile-pdf"),
		"--no-pdf-header-footer", "--print-to-pdf="+pdf, "file://"+filepath.Join(dir, "page.html"))
	if out, err := print.CombinedOutput(); err != nil {
		t.Fatalf("chromium --print-to-pdf: %v\n%s", err, out)
	}
	if data, err := os.ReadFile(pdf); err != nil || !bytes.HasPrefix(data, []byte("%PDF-")) || len(data) < 20000 {
		t.Errorf("no PDF printed (%d bytes, %v)", len(data), err)
	}

	h := dumpDOM(ctx, t, bin, dir, "hostile.html", hb.Bytes())
	for _, bad := range []string{"<script", "<img"} {
		if strings.Contains(h, bad) {
			t.Errorf("the hostile page's DOM has an element %s", bad)
		}
	}
	if n := strings.Count(h, "&lt;script&gt;alert(1)&lt;/script&gt;"); n < 10 {
		t.Errorf("the hostile value is text %d times in the DOM", n)
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

// dumpDOM writes page into dir as name, loads it in headless Chromium
// and returns the DOM it builds.
func dumpDOM(ctx context.Context, t *testing.T, bin, dir, name string, page []byte) string {
	t.Helper()
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile-"+name),
		"--dump-dom", "file://"+file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return string(dom)
}
