package release

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// run runs a command in dir and fails the test if it fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// tree returns the SHA-256 of every regular file under dir, by slash path.
func tree(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	m := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = sha256.Sum256(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The npm packages made from a snapshot release, packed with npm pack and
// installed offline into a scratch Eleventy project: npx discgen build runs
// from the project's postbuild script, after Eleventy, and adds the
// discovery files without touching Eleventy's.
func TestNPMPackages(t *testing.T) {
	testenv.NeedsLong(t)
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		testenv.Unsupported(t, "the test installs the linux-x64 package")
	}
	for _, tool := range []string{"node", "npm", "npx"} {
		testenv.NeedsTool(t, tool, "apt-get install nodejs npm; .ci/run installs it")
	}
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
	r := snapshot(t)
	work := t.TempDir()
	// npm's cache and config stay in the test's directory.
	npmEnv := []string{"npm_config_cache=" + filepath.Join(work, "npm-cache"), "npm_config_userconfig=" + filepath.Join(work, "npmrc"),
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false"}

	pkgs := filepath.Join(work, "pkgs")
	out := run(t, ".", nil, "go", "run", "./npm", "-dist", r.dist, "-o", pkgs)
	dirs := strings.Fields(out)
	if len(dirs) != 7 || filepath.Base(dirs[0]) != "discgen" {
		t.Fatalf("npm wrote %v, want discgen and six platform packages", dirs)
	}
	tgz := filepath.Join(work, "tgz")
	if err := os.Mkdir(tgz, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		pj, err := os.ReadFile(filepath.Join(d, "package.json"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(pj), `"scripts"`) {
			t.Errorf("%s has scripts: no package may run anything at install time\n%s", d, pj)
		}
		run(t, d, npmEnv, "npm", "pack", "--offline", "--silent", "--pack-destination", tgz)
	}
	main := filepath.Join(tgz, "discgen-"+r.version+".tgz")
	platform := filepath.Join(tgz, "discgen-linux-x64-"+r.version+".tgz")
	listing := run(t, ".", nil, "tar", "-tvzf", platform)
	if !strings.Contains(listing, "-rwxr-xr-x") || !strings.Contains(listing, "package/bin/discgen\n") {
		t.Errorf("the linux-x64 package does not hold an executable bin/discgen:\n%s", listing)
	}

	site := filepath.Join(work, "site")
	if err := os.Mkdir(site, 0o755); err != nil {
		t.Fatal(err)
	}
	pj := `{"name": "site", "private": true, "scripts": {"build": "node ` + eleventy + `", "postbuild": "npx discgen build -f site.yaml -o _site"}}` + "\n"
	if err := os.WriteFile(filepath.Join(site, "package.json"), []byte(pj), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(site, "index.md"), []byte("# Hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The registry is out of reach: the platform package is installed from
	// its tarball beside the main one, which npm then takes for discgen's
	// optional dependency; the other platforms' are skipped (wrong os/cpu,
	// and not in the offline cache).
	run(t, site, npmEnv, "npm", "install", "--offline", "--save-dev", main, platform)
	if v := run(t, site, npmEnv, "npx", "discgen", "version"); !strings.HasPrefix(v, "discgen "+r.version+" commit "+r.commit) {
		t.Errorf("npx discgen version: %q", v)
	}
	run(t, site, npmEnv, "npx", "discgen", "init")

	// Eleventy alone, to know its files.
	run(t, site, npmEnv, "node", eleventy)
	before := tree(t, filepath.Join(site, "_site"))
	if _, ok := before["index.html"]; !ok {
		t.Fatalf("Eleventy wrote no index.html: %v", before)
	}
	log := run(t, site, npmEnv, "npm", "run", "build")
	if !strings.Contains(log, "npx discgen build -f site.yaml -o _site") {
		t.Errorf("npm run build did not run the postbuild script:\n%s", log)
	}
	after := tree(t, filepath.Join(site, "_site"))
	for name, sum := range before {
		if after[name] != sum {
			t.Errorf("Eleventy's %s changed or went away", name)
		}
	}
	for _, want := range []string{"robots.txt", "autodisc/index.txt", ".well-known/security.txt"} {
		if _, ok := after[want]; !ok {
			t.Errorf("_site/%s: not written", want)
		}
	}
	for name := range after {
		discovery := name == "robots.txt" || name == "llms.txt" || strings.HasPrefix(name, "autodisc/") || strings.HasPrefix(name, ".well-known/")
		if _, ok := before[name]; !ok && !discovery {
			t.Errorf("_site/%s: written, neither Eleventy's nor a discovery file", name)
		}
	}
	run(t, site, npmEnv, "npx", "discgen", "build", "-f", "site.yaml", "-o", "_site", "--check")
}

// The short way to npm packages from a clone, as the README gives it: a
// binary built here, its platform's package and the main one written by
// -bin, packed and installed offline into an empty project, where npx
// runs it.
func TestNPMLocalPackages(t *testing.T) {
	testenv.NeedsLong(t)
	for _, tool := range []string{"node", "npm", "npx"} {
		testenv.NeedsTool(t, tool, "apt-get install nodejs npm; .ci/run installs it")
	}
	if runtime.GOOS == "windows" {
		testenv.Unsupported(t, "the test runs the packages' shim with a Unix binary")
	}
	work := t.TempDir()
	npmEnv := []string{"npm_config_cache=" + filepath.Join(work, "npm-cache"), "npm_config_userconfig=" + filepath.Join(work, "npmrc"),
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false"}
	bin := filepath.Join(work, "discgen")
	run(t, filepath.Join("..", ".."), []string{"CGO_ENABLED=0"}, "go", "build", "-o", bin, "./cmd/discgen")
	pkgs := filepath.Join(work, "pkgs")
	out := run(t, ".", nil, "go", "run", "./npm", "-bin", bin, "-license", filepath.Join("..", "..", "LICENSE"), "-o", pkgs)
	dirs := strings.Fields(out)
	plat := map[string]string{"linux": "linux", "darwin": "darwin"}[runtime.GOOS] + "-" + map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if len(dirs) != 2 || filepath.Base(dirs[0]) != "discgen" || filepath.Base(dirs[1]) != plat {
		t.Fatalf("npm -bin wrote %v, want discgen and %s", dirs, plat)
	}
	tgz := filepath.Join(work, "tgz")
	if err := os.Mkdir(tgz, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		run(t, d, npmEnv, "npm", "pack", "--offline", "--silent", "--pack-destination", tgz)
	}
	site := filepath.Join(work, "site")
	if err := os.Mkdir(site, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(site, "package.json"), []byte(`{"name": "site", "private": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, site, npmEnv, "npm", "install", "--offline", "--save-dev",
		filepath.Join(tgz, "discgen-0.0.0-local.tgz"), filepath.Join(tgz, "discgen-"+plat+"-0.0.0-local.tgz"))
	if v := run(t, site, npmEnv, "npx", "discgen", "version"); !strings.HasPrefix(v, "discgen ") {
		t.Errorf("npx discgen version: %q", v)
	}
	run(t, site, npmEnv, "npx", "discgen", "init")
	run(t, site, npmEnv, "npx", "discgen", "build", "-f", "site.yaml", "-o", "public")
	if _, err := os.Stat(filepath.Join(site, "public", "robots.txt")); err != nil {
		t.Errorf("npx discgen build wrote no robots.txt: %v", err)
	}
}
