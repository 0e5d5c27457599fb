package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// The quickstarts of docs/quickstarts.md, run with the real site generators where they
// are installed (.ci/run installs Hugo and Jekyll from Debian and Eleventy
// from npm): the generator writes its output directory, discgen build adds
// the discovery files, and after the generator runs again build --check
// finds nothing stale.

// sh runs a command in dir with discgen first on PATH and fails the test
// if it fails.
func sh(t *testing.T, dir, bindir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bindir+string(os.PathListSeparator)+os.Getenv("PATH"), "SOURCE_DATE_EPOCH=1793491200")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// needTool marks a quickstart test, of the long tier, that runs name.
func needTool(t *testing.T, name string) {
	t.Helper()
	testenv.NeedsLong(t)
	pkg := name
	if name == "node" {
		pkg = "nodejs npm"
	}
	testenv.NeedsTool(t, name, "apt-get install "+pkg+"; .ci/run installs it")
}

func wantDiscoveryFiles(t *testing.T, out string) {
	t.Helper()
	for _, f := range []string{"robots.txt", "autodisc/index.txt", ".well-known/security.txt"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestQuickstartHugo(t *testing.T) {
	needTool(t, "hugo")
	bindir := filepath.Dir(buildDiscgen(t))
	dir := t.TempDir()
	sh(t, dir, bindir, "hugo", "new", "site", "mysite")
	site := filepath.Join(dir, "mysite")
	sh(t, site, bindir, "discgen", "init")
	sh(t, site, bindir, "hugo")
	sh(t, site, bindir, "discgen", "build", "-f", "site.yaml", "-o", "public")
	wantDiscoveryFiles(t, filepath.Join(site, "public"))
	if _, err := os.Stat(filepath.Join(site, "public/index.xml")); err != nil {
		t.Errorf("Hugo's own files: %v", err)
	}
	sh(t, site, bindir, "hugo")
	sh(t, site, bindir, "discgen", "build", "-f", "site.yaml", "-o", "public", "--check")

	// With Hugo's robots.txt on, discgen refuses it and says what to do.
	cfg := filepath.Join(site, "hugo.toml")
	if _, err := os.Stat(cfg); err != nil {
		cfg = filepath.Join(site, "config.toml") // hugo new site before 0.112 (Debian has 0.111)
	}
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(data, "enableRobotsTXT = true\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(site, "public")); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(site, ".discgen"))
	sh(t, site, bindir, "hugo")
	cmd := exec.Command(filepath.Join(bindir, "discgen"), "build", "-f", "site.yaml", "-o", "public")
	cmd.Dir = site
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "discgen: hint: Hugo wrote public/robots.txt (enableRobotsTXT is true in "+filepath.Base(cfg)+"): set enableRobotsTXT = false there") {
		t.Errorf("build over Hugo's robots.txt: %v\n%s", err, out)
	}
}

func TestQuickstartEleventy(t *testing.T) {
	needTool(t, "node")
	mods := os.Getenv("DISCGEN_NODE_MODULES")
	if mods == "" {
		mods = filepath.Join("..", "..", ".ci", "tools", "node_modules")
	}
	eleventy, err := filepath.Abs(filepath.Join(mods, "@11ty", "eleventy", "cmd.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(eleventy); err != nil {
		testenv.Missing(t, "@11ty/eleventy: not installed (.ci/run installs it with npm)")
	}
	bindir := filepath.Dir(buildDiscgen(t))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.md"), []byte("# Hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, dir, bindir, "discgen", "init")
	sh(t, dir, bindir, "node", eleventy)
	sh(t, dir, bindir, "discgen", "build", "-f", "site.yaml", "-o", "_site")
	wantDiscoveryFiles(t, filepath.Join(dir, "_site"))
	if _, err := os.Stat(filepath.Join(dir, "_site/index.html")); err != nil {
		t.Errorf("Eleventy's own files: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "_site/site.yaml")); err == nil {
		t.Error("Eleventy published the manifest")
	}
	sh(t, dir, bindir, "node", eleventy)
	sh(t, dir, bindir, "discgen", "build", "-f", "site.yaml", "-o", "_site", "--check")
}

// Astro empties dist/ on every build, so discgen runs after each one:
// here from the project's postbuild script, as docs/quickstarts.md shows. Astro 5 is
// the newest major that runs on Debian's Node 20 (Astro 6 and later want
// Node 22). The project is written by hand: npm create astro fetches its
// templates from GitHub.
func TestQuickstartAstro(t *testing.T) {
	needTool(t, "node")
	mods := os.Getenv("DISCGEN_ASTRO_MODULES")
	if mods == "" {
		mods = filepath.Join("..", "..", ".ci", "tools", "astro", "node_modules")
	}
	mods, err := filepath.Abs(mods)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(mods, "astro", "astro.js")); err != nil {
		testenv.Missing(t, "astro: not installed (.ci/run installs it with npm)")
	}
	bindir := filepath.Dir(buildDiscgen(t))
	dir := t.TempDir()
	for name, data := range map[string]string{
		"package.json":          `{"name": "site", "private": true, "type": "module", "scripts": {"build": "astro build", "postbuild": "discgen build -f site.yaml -o dist"}}` + "\n",
		"astro.config.mjs":      "import { defineConfig } from \"astro/config\";\nexport default defineConfig({});\n",
		"src/pages/index.astro": "---\n---\n<html><body><h1>Hello</h1></body></html>\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(mods, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ASTRO_TELEMETRY_DISABLED", "1")
	t.Setenv("PATH", filepath.Join(mods, ".bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	sh(t, dir, bindir, "discgen", "init")
	sh(t, dir, bindir, "npm", "run", "build")
	wantDiscoveryFiles(t, filepath.Join(dir, "dist"))
	if _, err := os.Stat(filepath.Join(dir, "dist/index.html")); err != nil {
		t.Errorf("Astro's own files: %v", err)
	}
	// astro build alone empties dist/: the discovery files are gone.
	sh(t, dir, bindir, "astro", "build")
	if _, err := os.Stat(filepath.Join(dir, "dist/robots.txt")); err == nil {
		t.Error("astro build kept dist/robots.txt: the quickstarts' advice to run discgen after every build is out of date")
	}
	sh(t, dir, bindir, "npm", "run", "build")
	sh(t, dir, bindir, "discgen", "build", "-f", "site.yaml", "-o", "dist", "--check")
}

func TestQuickstartJekyll(t *testing.T) {
	needTool(t, "jekyll")
	bindir := filepath.Dir(buildDiscgen(t))
	dir := t.TempDir()
	for name, data := range map[string]string{
		"_config.yml": "title: Example\nexclude: [site.yaml, site.schema.json]\n",
		"index.md":    "---\n---\n# Hello\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sh(t, dir, bindir, "discgen", "init")
	sh(t, dir, bindir, "jekyll", "build")
	sh(t, dir, bindir, "discgen", "build", "-f", "site.yaml", "-o", "_site")
	wantDiscoveryFiles(t, filepath.Join(dir, "_site"))
	if _, err := os.Stat(filepath.Join(dir, "_site/site.yaml")); err == nil {
		t.Error("Jekyll published the manifest")
	}
	// Jekyll empties _site/ of what it did not generate: build again after it.
	sh(t, dir, bindir, "jekyll", "build")
	sh(t, dir, bindir, "discgen", "build", "-f", "site.yaml", "-o", "_site")
	sh(t, dir, bindir, "discgen", "build", "-f", "site.yaml", "-o", "_site", "--check")
}

// A plain GitHub Pages repository publishing docs/: .nojekyll keeps Pages'
// Jekyll from dropping .well-known/, a dot directory. The commands are
// the lines of the quickstart's block, run as written in a git
// repository; a fresh clone of it then rebuilds after a change to the
// manifest, which it can only do when the commit holds discgen's records.
func TestQuickstartPages(t *testing.T) {
	bindir := filepath.Dir(buildDiscgen(t))
	testenv.NeedsTool(t, "git", "apt-get install git")
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "quickstarts.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "**A plain GitHub Pages repository**")
	if ok {
		_, block, ok = strings.Cut(block, "```sh\n")
	}
	if ok {
		block, _, ok = strings.Cut(block, "```")
	}
	if !ok {
		t.Fatal("docs/quickstarts.md has no sh block under \"A plain GitHub Pages repository\"")
	}
	dir := t.TempDir()
	git := []string{"-c", "user.name=discgen", "-c", "user.email=discgen@example.org", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}
	sh(t, dir, bindir, "git", append(git, "init", "-q")...)
	for line := range strings.Lines(block) {
		cmd, _, _ := strings.Cut(line, "#") // the comments of the block
		if cmd = strings.TrimSpace(cmd); cmd == "" {
			continue
		}
		cmd = strings.ReplaceAll(cmd, "git ", "git "+strings.Join(git, " ")+" ")
		sh(t, dir, bindir, "sh", "-c", cmd)
	}
	wantDiscoveryFiles(t, filepath.Join(dir, "docs"))
	if _, err := os.Stat(filepath.Join(dir, "docs", ".nojekyll")); err != nil {
		t.Error(err)
	}
	sh(t, dir, bindir, "discgen", "build", "-f", "site.yaml", "-o", "docs", "--check")

	clone := filepath.Join(t.TempDir(), "clone")
	sh(t, dir, bindir, "git", "clone", "-q", dir, clone)
	manifest := filepath.Join(clone, "site.yaml")
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "disallow: [/private/]", "disallow: [/private/, /drafts/]", 1)
	if edited == string(data) {
		t.Fatal("the starter manifest has no \"disallow: [/private/]\" to edit")
	}
	if err := os.WriteFile(manifest, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(t, clone, bindir, "discgen", "build", "-f", "site.yaml", "-o", "docs")
}
