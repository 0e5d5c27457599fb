package build

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/diag"
)

// writeFiles writes files (slash paths relative to root) and returns root.
func writeFiles(t *testing.T, root string, files map[string]string) string {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
}

func tenantYAML(path string) string {
	return "version: 1\npath: " + path + "\ndescription: home of " + path + "\n"
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"site/site.yaml": "",
		"site/users/bob/public_html/autodisc.yaml":   "",
		"site/users/alice/public_html/autodisc.yaml": "",
		"site/users/carol/public_html/other.yaml":    "",
		"site/users/deep/a/b/autodisc.yaml":          "",
		"site/flat/one.yaml":                         "",
		"site/flat/two.yaml":                         "",
		"home/zed/public_html/autodisc.yaml":         "",
	})
	// A directory the glob matches is not a manifest.
	if err := os.MkdirAll(filepath.Join(root, "site/users/dir/public_html/autodisc.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(root, "site")
	type want struct{ show, within string }
	for _, c := range []struct {
		name, dir, pattern string
		want               []want
	}{
		{"relative", site, "users/*/public_html/autodisc.yaml", []want{
			{"site/users/alice/public_html/autodisc.yaml", "site/users/alice"},
			{"site/users/bob/public_html/autodisc.yaml", "site/users/bob"},
		}},
		{"relative with dot-dot", filepath.Join(site, "users"), "../users/*/public_html/autodisc.yaml", []want{
			{"site/users/alice/public_html/autodisc.yaml", "site/users/alice"},
			{"site/users/bob/public_html/autodisc.yaml", "site/users/bob"},
		}},
		{"absolute", site, filepath.Join(root, "home/*/public_html/autodisc.yaml"), []want{
			{"home/zed/public_html/autodisc.yaml", "home/zed"},
		}},
		{"wildcard inside a segment", site, "users/[ab]*/public_html/*.yaml", []want{
			{"site/users/alice/public_html/autodisc.yaml", "site/users/alice"},
			{"site/users/bob/public_html/autodisc.yaml", "site/users/bob"},
		}},
		{"double star", site, "users/**/autodisc.yaml", []want{
			{"site/users/alice/public_html/autodisc.yaml", "site/users/alice"},
			{"site/users/bob/public_html/autodisc.yaml", "site/users/bob"},
			{"site/users/deep/a/b/autodisc.yaml", "site/users/deep"},
		}},
		{"no wildcard", site, "users/bob/public_html/autodisc.yaml", []want{
			{"site/users/bob/public_html/autodisc.yaml", "site/users/bob/public_html"},
		}},
		{"wildcard in the last segment", site, "flat/*.yaml", []want{
			{"site/flat/one.yaml", "site/flat"},
			{"site/flat/two.yaml", "site/flat"},
		}},
		{"nothing", site, "nobody/*/autodisc.yaml", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := discover(c.dir, c.pattern)
			if err != nil {
				t.Fatal(err)
			}
			var gotw []want
			for _, f := range got {
				if !filepath.IsAbs(f.abs) || !filepath.IsAbs(f.within) {
					t.Errorf("%s: abs %q and within %q must be absolute", f.show, f.abs, f.within)
				}
				rel := func(p string) string {
					r, err := filepath.Rel(root, p)
					if err != nil {
						t.Fatal(err)
					}
					return filepath.ToSlash(r)
				}
				if rel(f.abs) != rel(f.show) {
					t.Errorf("show %q and abs %q name different files", f.show, f.abs)
				}
				gotw = append(gotw, want{rel(f.show), rel(f.within)})
			}
			if !slices.Equal(gotw, c.want) {
				t.Errorf("discover(%q) =\n%v\nwant\n%v", c.pattern, gotw, c.want)
			}
		})
	}
}

func TestDiscoverShowsPathAsGiven(t *testing.T) {
	root := writeFiles(t, t.TempDir(), map[string]string{"u/a/x.yaml": ""})
	t.Chdir(root)
	got, err := discover(".", "u/*/x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].show != filepath.FromSlash("u/a/x.yaml") {
		t.Fatalf("got %+v, want the relative path u/a/x.yaml", got)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got[0].abs != filepath.Join(wd, "u", "a", "x.yaml") || got[0].within != filepath.Join(wd, "u", "a") {
		t.Errorf("abs %s, within %s: want them below %s", got[0].abs, got[0].within, wd)
	}
	got, err = discover(".", "*/a/x.yaml")
	if err != nil || len(got) != 1 || got[0].within != filepath.Join(wd, "u") {
		t.Errorf("a glob starting with a wildcard: %+v, %v; want within %s", got, err, filepath.Join(wd, "u"))
	}
}

func TestDiscoverBadPattern(t *testing.T) {
	if _, err := discover(t.TempDir(), "users/[/x.yaml"); err == nil {
		t.Fatal("discover accepted an invalid pattern")
	}
}

func TestReadConfined(t *testing.T) {
	root := writeFiles(t, t.TempDir(), map[string]string{
		"home/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"home/alice/secret.yaml":               "alice's secret",
		"home/bob/public_html/real.yaml":       tenantYAML("/~bob/"),
	})
	home := filepath.Join(root, "home")
	// mallory's public_html is alice's; eve's manifest is alice's file;
	// bob's manifest links to another file of his own.
	symlink(t, filepath.Join(home, "alice/public_html"), filepath.Join(home, "mallory/public_html"))
	symlink(t, "../../alice/secret.yaml", filepath.Join(home, "eve/public_html/autodisc.yaml"))
	symlink(t, "real.yaml", filepath.Join(home, "bob/public_html/autodisc.yaml"))

	found, err := discover(root, "home/*/public_html/autodisc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	read := map[string]string{}
	for _, f := range found {
		user := filepath.Base(f.within)
		data, err := readConfined(f.within, f.abs)
		if user == "mallory" && err == nil {
			t.Errorf("mallory: read %s", f.abs)
		}
		if err != nil {
			read[user] = "error"
			continue
		}
		read[user] = string(data)
	}
	// The glob does not follow mallory's symlinked directory; were it to,
	// the read would have to fail.
	if r, found := read["mallory"]; found && r != "error" {
		t.Errorf("mallory: read %q through a symlink to alice's directory", r)
	}
	delete(read, "mallory")
	want := map[string]string{
		"alice": tenantYAML("/~alice/"),
		"bob":   tenantYAML("/~bob/"),
		"eve":   "error",
	}
	for user, w := range want {
		if read[user] != w {
			t.Errorf("%s: read %q, want %q", user, read[user], w)
		}
	}
	if len(read) != len(want) {
		t.Errorf("read %v, want the manifests of %v", read, want)
	}
}

func TestReadConfinedLimit(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("#\n", 3<<20)
	writeFiles(t, dir, map[string]string{"autodisc.yaml": big})
	if _, err := readConfined(dir, filepath.Join(dir, "autodisc.yaml")); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("read a %d-byte manifest: %v", len(big), err)
	}
}

// TestTenantSymlinkEscape builds a site whose users link their way into
// alice's directory: alice is built once, from her own manifest; the
// symlinked manifest is refused with a message; the symlinked directory
// is not entered.
func TestTenantSymlinkEscape(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSite,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/alice/notes.yaml":                tenantYAML("/~eve/"),
	})
	symlink(t, filepath.Join(dir, "users/alice/public_html"), filepath.Join(dir, "users/mallory/public_html"))
	symlink(t, "../../alice/notes.yaml", filepath.Join(dir, "users/eve/public_html/autodisc.yaml"))
	res := Run(Options{Manifest: filepath.Join(dir, "site.yaml"), Now: goldenNow})
	if got, want := tenantRoots(t, res, dir), []string{"users/alice/public_html"}; !slices.Equal(got, want) {
		t.Errorf("built tenants %v, want %v", got, want)
	}
	errs := errorsOf(res.Diags)
	eve := filepath.Join(dir, "users/eve/public_html/autodisc.yaml") + ": cannot read tenant manifest: "
	if res.FailedTenants != 1 || len(errs) != 1 || !strings.HasPrefix(errs[0], eve) {
		t.Errorf("%d failed, errors:\n%s\nwant eve's manifest refused", res.FailedTenants, strings.Join(errs, "\n"))
	}
}

const isolationSite = `version: 1
site:
  url: https://isp.example/
delegations:
  - path: "~*"
    only: [description.txt, feeds.txt]
    tenants: "users/*/public_html/autodisc.yaml"
`

// runSite writes files under a new directory and builds its site.yaml.
func runSite(t *testing.T, files map[string]string) (*Result, string) {
	t.Helper()
	dir := writeFiles(t, t.TempDir(), files)
	return Run(Options{Manifest: filepath.Join(dir, "site.yaml"), Now: goldenNow}), dir
}

// tenantRoots lists the built tenants by their directory relative to dir.
func tenantRoots(t *testing.T, res *Result, dir string) []string {
	t.Helper()
	var out []string
	for _, o := range res.Tenants {
		rel, err := filepath.Rel(dir, o.Root)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

func errorsOf(l diag.List) []string {
	var out []string
	for _, d := range l.Errors() {
		out = append(out, d.String())
	}
	return out
}

func TestTenantIsolation(t *testing.T) {
	res, dir := runSite(t, map[string]string{
		"site.yaml":                             isolationSite,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/bob/public_html/autodisc.yaml":   "version: 1\npath: /~bob/\ndescription: Bob\nicons: [/~bob/me.png]\n",
		"users/carol/public_html/autodisc.yaml": "version: 1\npath: /~carol/\ndescription: [not, a, string]\n",
		"users/dave/public_html/autodisc.yaml":  tenantYAML("/~dave/"),
	})
	if res.Site == nil {
		t.Fatalf("the site was not built: %v", res.Diags)
	}
	if got, want := tenantRoots(t, res, dir), []string{"users/alice/public_html", "users/dave/public_html"}; !slices.Equal(got, want) {
		t.Errorf("built tenants %v, want %v", got, want)
	}
	if res.FailedTenants != 2 {
		t.Errorf("FailedTenants = %d, want 2", res.FailedTenants)
	}
	errs := errorsOf(res.Diags)
	bob := filepath.Join(dir, "users/bob/public_html/autodisc.yaml") + ":4:1: icons: "
	carol := filepath.Join(dir, "users/carol/public_html/autodisc.yaml") + ":3:14: description: "
	if len(errs) != 2 || !strings.HasPrefix(errs[0], bob) || !strings.HasPrefix(errs[1], carol) {
		t.Errorf("errors:\n%s\nwant one at %s and one at %s", strings.Join(errs, "\n"), bob, carol)
	}
	for _, o := range res.Tenants {
		if string(o.Tree["autodisc/index.txt"].Data) != "description.txt\n" {
			t.Errorf("%s: index.txt is %q", o.Manifest, o.Tree["autodisc/index.txt"].Data)
		}
	}
}

func TestTenantSpaceConflict(t *testing.T) {
	res, dir := runSite(t, map[string]string{
		"site.yaml":                               isolationSite,
		"users/alice/public_html/autodisc.yaml":   tenantYAML("/~alice/"),
		"users/mallory/public_html/autodisc.yaml": "# claims alice's space\n" + tenantYAML("/%7Ealice"),
		"users/bob/public_html/autodisc.yaml":     tenantYAML("/~bob/"),
	})
	if got, want := tenantRoots(t, res, dir), []string{"users/bob/public_html"}; !slices.Equal(got, want) {
		t.Errorf("built tenants %v, want only bob's", got)
	}
	if res.FailedTenants != 2 {
		t.Errorf("FailedTenants = %d, want 2", res.FailedTenants)
	}
	errs := errorsOf(res.Diags)
	alice := filepath.Join(dir, "users/alice/public_html/autodisc.yaml") + ":2:7: path: /~alice/ is also claimed by "
	mallory := filepath.Join(dir, "users/mallory/public_html/autodisc.yaml") + ":3:7: path: /~alice/ is also claimed by "
	if len(errs) != 2 || !strings.HasPrefix(errs[0], alice) || !strings.HasPrefix(errs[1], mallory) {
		t.Errorf("errors:\n%s\nwant one at %s and one at %s", strings.Join(errs, "\n"), alice, mallory)
	}
}

func TestTenantDirectoryConflict(t *testing.T) {
	res, dir := runSite(t, map[string]string{
		"site.yaml": strings.Replace(isolationSite, "users/*/public_html/autodisc.yaml", "users/**/*.yaml", 1),
		// One directory, two manifests: both would write its autodisc/.
		"users/alice/a.yaml": tenantYAML("/~alice/"),
		"users/alice/b.yaml": tenantYAML("/~alice2/"),
		// A tenant whose directory holds another's.
		"users/bob/x.yaml":      tenantYAML("/~bob/"),
		"users/bob-x/x.yaml":    tenantYAML("/~bobx/"), // sorts between bob and bob/sub
		"users/bob/sub/x.yaml":  tenantYAML("/~bob2/"),
		"users/carol/one.yaml":  tenantYAML("/~carol/"),
		"users/carolyn/x.yaml":  tenantYAML("/~carolyn/"),
		"users/carol2/cc/x.yml": tenantYAML("/~carol2/"),
	})
	if got, want := tenantRoots(t, res, dir), []string{"users/bob-x", "users/carol", "users/carolyn"}; !slices.Equal(got, want) {
		t.Errorf("built tenants %v, want %v", got, want)
	}
	if res.FailedTenants != 4 {
		t.Errorf("FailedTenants = %d, want 4:\n%s", res.FailedTenants, strings.Join(errorsOf(res.Diags), "\n"))
	}
}

func TestTenantMatchedTwice(t *testing.T) {
	res, dir := runSite(t, map[string]string{
		"site.yaml": isolationSite + `  - path: /team/
    tenants: "users/*/public_html/autodisc.yaml"
`,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
	})
	if len(res.Tenants) != 0 || res.FailedTenants != 1 {
		t.Fatalf("built %v, %d failed; want the tenant refused", tenantRoots(t, res, dir), res.FailedTenants)
	}
	errs := errorsOf(res.Diags)
	if len(errs) != 1 || !strings.Contains(errs[0], "delegations[0].tenants and delegations[1].tenants") {
		t.Errorf("errors: %v", errs)
	}
}

func TestGlobMatchesSite(t *testing.T) {
	res, dir := runSite(t, map[string]string{
		"site.yaml":                             strings.Replace(isolationSite, "users/*/public_html/autodisc.yaml", "**/*.yaml", 1),
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
	})
	if got := tenantRoots(t, res, dir); !slices.Equal(got, []string{"users/alice/public_html"}) || res.Diags.HasErrors() {
		t.Errorf("built %v, diagnostics %v: want alice alone, the site manifest left out", got, res.Diags)
	}
}

func TestInvalidSiteBuildsNoTenant(t *testing.T) {
	res, _ := runSite(t, map[string]string{
		"site.yaml":                             isolationSite + "icons: [\"bad uri\"]\n",
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
	})
	if res.Site != nil || len(res.Tenants) != 0 || !res.Diags.HasErrors() {
		t.Fatalf("site %v, tenants %d, diags %v: want nothing built and an error", res.Site, len(res.Tenants), res.Diags)
	}
}

// Tenants choose their own paths: however many claim one space, each gets
// one error, not one per other claimant.
func TestTenantManyClaimants(t *testing.T) {
	const n = 200
	files := map[string]string{"site.yaml": isolationSite}
	for i := range n {
		files[fmt.Sprintf("users/u%03d/public_html/autodisc.yaml", i)] = tenantYAML("/~root/")
	}
	files["users/zed/public_html/autodisc.yaml"] = tenantYAML("/~zed/")
	res, dir := runSite(t, files)
	if got, want := tenantRoots(t, res, dir), []string{"users/zed/public_html"}; !slices.Equal(got, want) {
		t.Errorf("built tenants %v, want only zed's", got)
	}
	errs := errorsOf(res.Diags)
	if res.FailedTenants != n || len(errs) != n {
		t.Fatalf("FailedTenants = %d with %d errors, want %d of each", res.FailedTenants, len(errs), n)
	}
	if want := fmt.Sprintf("and %d others", n-2); !strings.HasSuffix(errs[0], want) {
		t.Errorf("error %q does not end with %q", errs[0], want)
	}
}

// SiteOnly builds the site and leaves the tenants alone: not read, not
// reported.
func TestSiteOnly(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSite,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/bob/public_html/autodisc.yaml":   "version: 1\npath: /~bob/\ndescription: \"a\\nb\"\n",
	})
	full := Run(Options{Manifest: filepath.Join(dir, "site.yaml"), Now: goldenNow})
	if len(full.Tenants) != 1 || full.FailedTenants != 1 {
		t.Fatalf("full build: %d tenants, %d failed; want 1 and 1", len(full.Tenants), full.FailedTenants)
	}
	res := Run(Options{Manifest: filepath.Join(dir, "site.yaml"), Now: goldenNow, SiteOnly: true})
	if res.Site == nil || len(res.Tenants) != 0 || res.FailedTenants != 0 || res.Diags.HasErrors() {
		t.Errorf("site only: site %v, %d tenants, %d failed, diags %v", res.Site != nil, len(res.Tenants), res.FailedTenants, res.Diags)
	}
}
