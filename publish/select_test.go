//go:build unix

package publish

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// --tenant builds the named manifests alone, each confined as in a full
// walk, and leaves the site's tree alone.
func TestTenantFiles(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSite,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/bob/public_html/autodisc.yaml":   tenantYAML("/~bob/"),
		"users/pat/www/autodisc.yaml":           tenantYAML("/~pat/"),
		"elsewhere/autodisc.yaml":               tenantYAML("/~alice/"),
	})
	symlink(t, "www", filepath.Join(dir, "users/pat/public_html"))
	// carol's manifest is a FIFO: were the others walked, it would be
	// reported.
	if err := os.MkdirAll(filepath.Join(dir, "users/carol/public_html"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "users/carol/public_html/autodisc.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{
		filepath.Join(dir, "users/alice/public_html/autodisc.yaml"),
		filepath.Join(dir, "users/pat/public_html/autodisc.yaml"),
		filepath.Join(dir, "users/dave/public_html/autodisc.yaml"),
		filepath.Join(dir, "elsewhere/autodisc.yaml"),
	}
	o := publishAt(t, dir, func(o *Options) { o.Tenants = files })
	o.wantOnly(t, []string{"users/alice/public_html"}, map[string]string{
		"users/pat/public_html": "is a symlink",
		"users/dave":            "no such file or directory",
		"elsewhere":             "no delegation's tenants glob matches this file",
	})
	if len(o.status) != 4 {
		t.Errorf("reported %v, want the four files alone", o.status)
	}
	if exists(filepath.Join(dir, "public")) {
		t.Errorf("--tenant wrote the site's tree")
	}
	if exists(filepath.Join(dir, "users/bob/public_html/autodisc")) {
		t.Errorf("--tenant built a tenant it was not given")
	}
	if !exists(filepath.Join(dir, "users/alice/public_html/autodisc/description.txt")) {
		t.Errorf("alice was not written")
	}
}

// snapshot reads every file and symlink below dir but the state
// directory, by slash path.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && d.Name() == ".state":
			return filepath.SkipDir
		case d.IsDir():
			out[rel+"/"] = ""
		case d.Type()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[rel] = "-> " + l
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// N shards together write exactly the tree one full build writes, each
// tenant in one shard, the site in shard 1 alone.
func TestShardsMakeTheFullBuild(t *testing.T) {
	const n, shards = 60, 3
	full, split := t.TempDir(), t.TempDir()
	for _, d := range []string{full, split} {
		scaleSite(t, d, n)
		writeFiles(t, d, map[string]string{"users/liar/public_html/autodisc.yaml": tenantYAML("/~u0000001/")})
	}
	if o := publishAt(t, full, nil); len(o.with(Built)) != n {
		t.Fatalf("full build: %d built, want %d", len(o.with(Built)), n)
	}
	seen := map[string]int{}
	for _, k := range []int{2, 3, 1} {
		o := publishAt(t, split, func(o *Options) { o.Shard, o.Shards = k, shards })
		if len(o.with(Built)) == 0 {
			t.Errorf("shard %d/%d built nothing", k, shards)
		}
		for d := range o.status {
			seen[d]++
		}
		if site := exists(filepath.Join(split, "public")); site != (k == 1) {
			t.Errorf("after shard %d: site tree written = %v", k, site)
		}
	}
	if len(seen) != n+1 {
		t.Errorf("the shards reported %d tenants, want %d", len(seen), n+1)
	}
	for d, c := range seen {
		if c != 1 {
			t.Errorf("%s reported by %d shards", d, c)
		}
	}
	a, b := snapshot(t, full), snapshot(t, split)
	if !maps.Equal(a, b) {
		for _, p := range slices.Sorted(maps.Keys(a)) {
			if b[p] != a[p] {
				t.Errorf("%s: full %q, shards %q", p, a[p], b[p])
			}
		}
		for p := range b {
			if _, ok := a[p]; !ok {
				t.Errorf("%s: written by the shards alone", p)
			}
		}
	}
}

// A second build with nothing changed reports every tenant unchanged; a
// changed manifest, or an output changed on disk, rebuilds that tenant
// alone.
func TestUnchangedTenants(t *testing.T) {
	dir := t.TempDir()
	scaleSite(t, dir, 20)
	if o := publishAt(t, dir, nil); len(o.with(Built)) != 20 {
		t.Fatalf("first build: %v", o.status)
	}
	// Every journal is gone once the build has returned (the site's
	// lock file stays).
	js, _ := filepath.Glob(filepath.Join(dir, ".state", "journal", "*"))
	if js = slices.DeleteFunc(js, func(p string) bool { return strings.HasSuffix(p, ".lock") }); len(js) != 0 {
		t.Errorf("journals left after the build: %v", js)
	}
	o := publishAt(t, dir, nil)
	if len(o.with(Unchanged)) != 20 {
		t.Fatalf("second build: %v", o.status)
	}
	m := filepath.Join(dir, "users/u0000003/public_html/autodisc.yaml")
	data, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(m, bytes.Replace(data, []byte("The pages of"), []byte("The new pages of"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "users/u0000007/public_html/autodisc/feeds.txt")); err != nil {
		t.Fatal(err)
	}
	o = publishAt(t, dir, nil)
	if got, want := o.with(Built), []string{"users/u0000003/public_html", "users/u0000007/public_html"}; !slices.Equal(got, want) {
		t.Errorf("built %v, want %v", got, want)
	}
	desc, _ := os.ReadFile(filepath.Join(dir, "users/u0000003/public_html/autodisc/description.txt"))
	if !strings.HasPrefix(string(desc), "The new pages of") {
		t.Errorf("description.txt is %q", desc)
	}
	if !exists(filepath.Join(dir, "users/u0000007/public_html/autodisc/feeds.txt")) {
		t.Errorf("a removed output was not written again")
	}
}

// --tenant-owner gives every file and directory written in a tenant's
// directory to the owner of that directory.
func TestTenantOwner(t *testing.T) {
	testenv.NeedsRoot(t) // --tenant-owner changes owners, which needs root: run the tests as root (CI does) to cover it
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml": isolationSite,
		"users/alice/public_html/autodisc.yaml": "version: 1\ndescription: alice\n" +
			"delegations:\n  - {path: blog/, only: [description.txt], inline: {description: the blog}}\n",
		"users/bob/public_html/autodisc.yaml": tenantYAML("/~bob/"),
	})
	const uid, gid = 4321, 8765
	web := filepath.Join(dir, "users/alice/public_html")
	if err := os.Chown(web, uid, gid); err != nil {
		t.Fatal(err)
	}
	o := publishAt(t, dir, func(o *Options) { o.TenantOwner = true })
	if got := o.with(Built); len(got) != 2 {
		t.Fatalf("built %v: %v", got, o.diags)
	}
	n := 0
	filepath.WalkDir(web, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == web || d.Name() == "autodisc.yaml" {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != uid || st.Gid != gid {
			t.Errorf("%s belongs to %d:%d, want %d:%d", p, st.Uid, st.Gid, uid, gid)
		}
		n++
		return nil
	})
	if n < 5 {
		t.Errorf("checked %d paths; want autodisc/, blog/, blog/autodisc/ and their files", n)
	}
	fi, err := os.Stat(filepath.Join(dir, "users/bob/public_html/autodisc/description.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 0 {
		t.Errorf("bob's file belongs to %d, want root, who owns bob's directory", st.Uid)
	}
}

// A glob with more or fewer '*' than its delegation refuses that
// delegation at its tenants key; the other delegations are built.
func TestWildcardCountMismatch(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml": isolationSite + `  - path: "/teams/*/"
    tenants: "teams/*/sites/*/autodisc.yaml"
`,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"teams/red/sites/one/autodisc.yaml":     "version: 1\ndescription: red\n",
	})
	o := publishAt(t, dir, nil)
	o.wantOnly(t, []string{"users/alice/public_html"}, nil)
	if !o.sum.Failed || o.site == nil {
		t.Fatalf("the run did not fail: %+v", o.sum)
	}
	var msgs []string
	Run(Options{Manifest: filepath.Join(dir, "site.yaml"), Now: goldenNow, Mode: Render}, func(u *Unit) {
		for _, d := range u.Diags {
			msgs = append(msgs, d.String())
		}
	})
	want := `site.yaml:9:14: delegations[1].tenants: "teams/*/sites/*/autodisc.yaml" has 2 '*' but the delegation path "/teams/*/" has 1`
	if len(msgs) != 1 || !strings.Contains(msgs[0], want) {
		t.Errorf("diagnostics %q, want one containing %q", msgs, want)
	}
	if exists(filepath.Join(dir, "teams/red/sites/one/autodisc")) {
		t.Errorf("a tenant of the refused delegation was built")
	}
}

// A glob that also matches the site manifest does not make it a tenant,
// nor a second manifest of its directory.
func TestGlobMatchesSite(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site/site.yaml": strings.NewReplacer("users/*/public_html/autodisc.yaml", "../*/*.yaml", `"~*"`, `"~*-*"`).Replace(isolationSite),
		"alice/a.yaml":   "version: 1\ndescription: alice\n",
	})
	var built, other []string
	Run(Options{Manifest: filepath.Join(dir, "site/site.yaml"), Now: goldenNow, Mode: Render}, func(u *Unit) {
		if u.Kind == Tenant && u.Status == Built {
			built = append(built, filepath.Base(u.Dir))
		} else if u.Diags.HasErrors() {
			other = append(other, u.Diags.Errors()[0].String())
		}
	})
	if !slices.Equal(built, []string{"alice"}) || len(other) != 0 {
		t.Errorf("built %v, errors %v; want alice alone and no error", built, other)
	}
}

// A check beside a killed build's journal says so, and counts what the
// journal names as discgen's, as the next build will once it has recovered
// the journal; the check itself recovers nothing.
func TestCheckReadsJournal(t *testing.T) {
	dir := t.TempDir()
	scaleSite(t, dir, 2)
	if o := publishAt(t, dir, nil); o.sum.Failed {
		t.Fatalf("first build: %v", o.status)
	}
	const tenant = "users/u0000000/public_html"
	check := func(mode Mode) (warned, foreign bool) {
		o := publishAt(t, dir, func(opt *Options) { opt.Mode = mode })
		if o.site == nil {
			t.Fatal("no site unit reported")
		}
		for _, d := range o.site.Diags {
			warned = warned || strings.Contains(d.String(), "holds the journal of a build")
		}
		return warned, strings.Contains(o.reasons(tenant), "changed since discgen wrote it")
	}
	if warned, foreign := check(Check); warned || foreign {
		t.Fatalf("a check after a clean build: warned %v, foreign %v", warned, foreign)
	}
	// A build killed after it replaced one of the tenant's files, which
	// its complete record does not own: its journal names the new bytes.
	killed := "written by the killed build\n"
	writeFiles(t, dir, map[string]string{tenant + "/autodisc/description.txt": killed})
	if _, foreign := check(Check); !foreign {
		t.Fatal("a replaced file without a journal is not reported as changed")
	}
	sum := sha256.Sum256([]byte(killed))
	intent := fmt.Sprintf("discgen output record 2\nname %s\nstate incomplete\nd autodisc\nf %x autodisc/description.txt\n", tenant, sum)
	writeFiles(t, dir, map[string]string{".state/journal/0123456789abcdef.jnl": fmt.Sprintf("discgen output journal 1\nrecord %d\n%s", len(intent), intent)})
	for _, mode := range []Mode{Check, DryRun} {
		if warned, foreign := check(mode); !warned || foreign {
			t.Errorf("mode %d beside the journal: warned %v (want true), foreign %v (want false)", mode, warned, foreign)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".state/journal/0123456789abcdef.jnl")); err != nil {
		t.Errorf("a check touched the journal: %v", err)
	}
	// A build recovers it and rewrites the file; the warning goes.
	if o := publishAt(t, dir, nil); o.sum.Failed {
		t.Fatalf("build: %v %s", o.status, o.reasons(tenant))
	}
	if warned, foreign := check(Check); warned || foreign {
		t.Errorf("a check after the recovering build: warned %v, foreign %v", warned, foreign)
	}
}
