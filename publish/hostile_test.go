//go:build unix

package publish

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/testing/testenv"
)

// writeFiles writes files (slash paths relative to root) and returns root.
func writeFiles(t testing.TB, root string, files map[string]string) string {
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
	testenv.Symlink(t, target, link)
}

func tenantYAML(path string) string {
	return "version: 1\npath: " + path + "\ndescription: home of " + path + "\n"
}

const isolationSite = `version: 1
site:
  url: https://isp.example/
delegations:
  - path: "~*"
    only: [description.txt, feeds.txt]
    tenants: "users/*/public_html/autodisc.yaml"
`

// outcome is what a run reported, by directory relative to the site's.
type outcome struct {
	sum    Summary
	status map[string]Status // tenant directory -> status
	diags  map[string]diag.List
	site   *Unit
	sites  []*Unit // every unit not a tenant's, in order
}

func (o outcome) with(st Status) []string {
	var out []string
	for d, s := range o.status {
		if s == st {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// hooked is mod, and the test's hooks h set.
func hooked(h *hooks, mod func(*Options)) func(*Options) {
	return func(o *Options) {
		o.hooks = h
		if mod != nil {
			mod(o)
		}
	}
}

// publishAt runs a build of dir/site.yaml into dir/public, with the state
// in dir/.state, after mod has adjusted the options.
func publishAt(t testing.TB, dir string, mod func(*Options)) outcome {
	t.Helper()
	opt := Options{
		Manifest: filepath.Join(dir, "site.yaml"), Now: goldenNow, Jobs: 4,
		Out: filepath.Join(dir, "public"), StateDir: filepath.Join(dir, ".state"),
	}
	if mod != nil {
		mod(&opt)
	}
	o := outcome{status: map[string]Status{}, diags: map[string]diag.List{}}
	var mu sync.Mutex
	o.sum = Run(opt, func(u *Unit) {
		mu.Lock()
		defer mu.Unlock()
		if u.Kind != Tenant {
			o.sites = append(o.sites, u)
			if u.Kind == Site {
				o.site = u
			}
			if u.Diags.HasErrors() || u.Problem != nil {
				t.Logf("%s: %v %v", u.Dir, u.Diags, u.Problem)
			}
			return
		}
		rel, err := filepath.Rel(dir, u.Dir)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if _, dup := o.status[rel]; dup {
			t.Errorf("%s reported twice", rel)
		}
		o.status[rel] = u.Status
		o.diags[rel] = append(u.Diags, diag.Diagnostic{})[:len(u.Diags)]
		if u.Problem != nil {
			o.diags[rel] = append(o.diags[rel], diag.Diagnostic{Message: u.Problem.Error()})
		}
	})
	return o
}

// reasons joins a tenant's messages.
func (o outcome) reasons(rel string) string {
	var b strings.Builder
	for _, d := range o.diags[rel] {
		b.WriteString(d.Message + "\n")
	}
	return b.String()
}

// wantOnly checks that exactly the tenants in built were built, and that
// each of refused was refused with a message containing its reason.
func (o outcome) wantOnly(t *testing.T, built []string, refused map[string]string) {
	t.Helper()
	if got := o.with(Built); !slices.Equal(got, built) {
		t.Errorf("built %v, want %v", got, built)
	}
	for rel, reason := range refused {
		st, ok := o.status[rel]
		switch {
		case !ok:
			t.Errorf("%s: not reported; want refused (%s)", rel, reason)
		case st != Refused && st != Skipped:
			t.Errorf("%s: %s, want refused or skipped (%s)", rel, st, reason)
		case !strings.Contains(o.reasons(rel), reason):
			t.Errorf("%s: reasons %q do not say %q", rel, o.reasons(rel), reason)
		}
	}
	if n := len(o.with(Refused)) + len(o.with(Skipped)); n != len(refused) {
		t.Errorf("%d refused or skipped (%v %v), want %d", n, o.with(Refused), o.with(Skipped), len(refused))
	}
	if len(refused) > 0 && !o.sum.Failed {
		t.Errorf("a tenant was refused, but the run did not fail")
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Non-regular manifests are refused at once, never opened for reading: a
// FIFO with no writer would block a read forever.
func TestSpecialManifests(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSite,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
	})
	mk := func(user string) string {
		p := filepath.Join(dir, "users", user, "public_html")
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(p, "autodisc.yaml")
	}
	if err := syscall.Mkfifo(mk("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(mk("dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A socket's path is limited to about 100 bytes: bind from inside.
	t.Chdir(filepath.Dir(mk("sock")))
	l, err := net.Listen("unix", "autodisc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	refused := map[string]string{
		"users/fifo/public_html": "is a FIFO (named pipe), not a regular file",
		"users/dir/public_html":  "is a directory, not a regular file",
		"users/sock/public_html": "is a socket, not a regular file",
	}
	if os.Geteuid() == 0 {
		// /dev/null's numbers: reading it would do no harm, but it must
		// not be read at all.
		if err := syscall.Mknod(mk("dev"), syscall.S_IFCHR|0o644, 1<<8|3); err != nil {
			t.Fatalf("mknod: %v", err)
		}
		refused["users/dev/public_html"] = "is a character device, not a regular file"
	} else {
		t.Log("device manifest not tested: mknod needs root")
	}
	done := make(chan outcome)
	go func() { done <- publishAt(t, dir, nil) }()
	select {
	case o := <-done:
		o.wantOnly(t, []string{"users/alice/public_html"}, refused)
		for rel := range refused {
			if exists(filepath.Join(dir, rel, "autodisc")) {
				t.Errorf("%s: autodisc/ written for a refused tenant", rel)
			}
		}
		if !exists(filepath.Join(dir, "users/alice/public_html/autodisc/description.txt")) {
			t.Errorf("alice was not written")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the build did not finish in 60 s: a special file was waited on")
	}
}

// Symlinks on the way to a tenant, or as its manifest, are refused and
// named; nothing is written through them.
func TestSymlinkedTenants(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSite,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/alice/notes.yaml":                tenantYAML("/~eve/"),
		"users/pat/www/autodisc.yaml":           tenantYAML("/~pat/"),
		"users/kim/public_html/autodisc.yaml":   tenantYAML("/~kim/"),
		"users/kim/elsewhere/keep.txt":          "kim's",
		"victim/autodisc.yaml":                  tenantYAML("/~mallory/"),
	})
	users := filepath.Join(dir, "users")
	// A symlinked home, to alice's and to a directory outside users/.
	symlink(t, filepath.Join(users, "alice"), filepath.Join(users, "mallory"))
	symlink(t, filepath.Join(dir, "victim"), filepath.Join(users, "trudy", "public_html"))
	// public_html -> www inside the user's own home.
	symlink(t, "www", filepath.Join(users, "pat", "public_html"))
	// A symlinked manifest.
	symlink(t, "../../alice/notes.yaml", filepath.Join(users, "eve", "public_html", "autodisc.yaml"))
	// A symlinked autodisc/ output directory.
	symlink(t, "../elsewhere", filepath.Join(users, "kim", "public_html", "autodisc"))

	o := publishAt(t, dir, nil)
	o.wantOnly(t, []string{"users/alice/public_html"}, map[string]string{
		"users/mallory":           "is a symlink",
		"users/trudy/public_html": "is a symlink",
		"users/pat/public_html":   "is a symlink",
		"users/eve/public_html":   "is a symlink",
		"users/kim/public_html":   "symlink",
	})
	for _, p := range []string{"victim/autodisc", "users/pat/www/autodisc", "users/kim/elsewhere/index.txt", "users/alice/autodisc"} {
		if exists(filepath.Join(dir, p)) {
			t.Errorf("%s written through a symlink", p)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(users, "alice/public_html/autodisc/description.txt")); string(got) != "home of /~alice/\n" {
		t.Errorf("alice's description is %q", got)
	}
}

// A tenant whose path claims another's space is refused alone; the
// tenant it names is built, and nobody can claim a space whose directory
// does not exist.
func TestPathClaimingAnother(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                               isolationSite,
		"users/alice/public_html/autodisc.yaml":   tenantYAML("/~alice/"),
		"users/mallory/public_html/autodisc.yaml": "# claims alice's space\n" + tenantYAML("/%7Ealice"),
		"users/squat/public_html/autodisc.yaml":   tenantYAML("/~nobody-yet/"),
		"users/bob/public_html/autodisc.yaml":     "version: 1\ndescription: no path at all\n",
	})
	o := publishAt(t, dir, nil)
	o.wantOnly(t, []string{"users/alice/public_html", "users/bob/public_html"}, map[string]string{
		"users/mallory/public_html": "/~alice/ is not this tenant's space: the directory its manifest was found in makes it /~mallory/",
		"users/squat/public_html":   "/~nobody-yet/ is not this tenant's space",
	})
	if d := o.diags["users/mallory/public_html"]; len(d) != 1 || d[0].Line != 3 || d[0].Path != "path" {
		t.Errorf("mallory's error is not at its path (line 3): %v", d)
	}
}

// Unreadable and unwritable directories: as root, permissions do not
// stop discgen, so these run only as another user.
func TestUnreadableTenants(t *testing.T) {
	if os.Geteuid() == 0 {
		asNobody(t)
		return
	}
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSite,
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/shut/public_html/autodisc.yaml":  tenantYAML("/~shut/"),
		"users/ro/public_html/autodisc.yaml":    tenantYAML("/~ro/"),
	})
	shut := filepath.Join(dir, "users/shut")
	ro := filepath.Join(dir, "users/ro/public_html")
	for p, m := range map[string]fs.FileMode{shut: 0, ro: 0o555} {
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
	o := publishAt(t, dir, nil)
	o.wantOnly(t, []string{"users/alice/public_html"}, map[string]string{
		"users/shut":           "permission denied",
		"users/ro/public_html": "permission denied",
	})
}

// asNobody runs the calling test again in a copy of the test binary as
// the user nobody (65534), for what permissions do not stop root from.
func asNobody(t *testing.T) {
	t.Helper()
	if os.Getenv("DISCGEN_TEST_AS_NOBODY") != "" {
		t.Fatal("still root after setuid")
	}
	dir, err := os.MkdirTemp("", "discgen-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "publish.test")
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run", "^"+t.Name()+"$", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DISCGEN_TEST_AS_NOBODY=1", "TMPDIR=/tmp", "HOME=/tmp")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("as nobody, the test did not pass:\n%s", out)
	}
	t.Logf("ran as nobody:\n%s", out)
}

// Ten thousand tenants, one of them a FIFO and one invalid: every other
// one is built, and the two are named.
func TestManyTenantsOneBad(t *testing.T) {
	n := 10000
	if !testenv.Long() {
		n = 2000
	}
	dir := t.TempDir()
	manifest := scaleSite(t, dir, n)
	bad := filepath.Join(dir, "users", "u0000777", "public_html", "autodisc.yaml")
	if err := os.Remove(bad); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(bad, 0o644); err != nil {
		t.Fatal(err)
	}
	invalid := filepath.Join(dir, "users", "u0001234", "public_html", "autodisc.yaml")
	if err := os.WriteFile(invalid, []byte("version: 1\ndescription: \"a\\nb\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	built := 0
	named := map[string]string{}
	sum := Run(Options{Manifest: manifest, Now: goldenNow, Mode: Render}, func(u *Unit) {
		switch {
		case u.Kind != Tenant:
		case u.Status == Built:
			built++
		default:
			named[u.Dir] = u.Status.String() + ": " + u.Diags.Errors()[0].String()
		}
	})
	if built != n-2 {
		t.Errorf("built %d tenants, want %d", built, n-2)
	}
	if !sum.Failed {
		t.Errorf("the run did not fail")
	}
	want := []string{filepath.Dir(bad), filepath.Dir(invalid)}
	for _, w := range want {
		if !strings.HasPrefix(named[w], "refused: ") {
			t.Errorf("%s: %q, want it refused", w, named[w])
		}
	}
	if len(named) != 2 {
		t.Errorf("named %v, want only %v", named, want)
	}
}

// The hostile tenants of a red-team run, each once expensive: 120,000 x-
// files (120,001 files, 477 MB on disk), 40,000 agent names compared pair
// by pair (97 s), and scalars ending in "#" that the node count before
// parsing did not count (345 MB). Each is refused, writes nothing, and the
// build stays within a few seconds of CPU and a bounded heap.
func TestHostileTenantCosts(t *testing.T) {
	var names, files strings.Builder
	names.WriteString("version: 1\nagents:\n  - names: [")
	for i := range 40_000 {
		fmt.Fprintf(&names, "b%d,", i)
	}
	names.WriteString("]\n    disallow: [/]\n")
	files.WriteString("version: 1\nfiles:\n")
	for i := range 120_000 {
		fmt.Fprintf(&files, "  x-%d: a\n", i)
	}
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                             isolationSite[:strings.Index(isolationSite, "    only")] + "    tenants: \"users/*/public_html/autodisc.yaml\"\n",
		"users/alice/public_html/autodisc.yaml": tenantYAML("/~alice/"),
		"users/files/public_html/autodisc.yaml": files.String(),
		"users/names/public_html/autodisc.yaml": names.String(),
		"users/hash/public_html/autodisc.yaml":  "version: 1\nx: {" + strings.Repeat("a#: ,", (4<<20-40)/5) + "}\n",
	})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime()
	o := publishAt(t, dir, nil)
	cpu := cpuTime() - cpu0
	runtime.ReadMemStats(&after)
	o.wantOnly(t, []string{"users/alice/public_html"}, map[string]string{
		"users/files/public_html": "this tenant would write at least 120001 files; a tenant of this delegation writes at most 1000",
		"users/names/public_html": "more than 5000 agent names in this manifest",
		"users/hash/public_html":  "manifest holds more than 250000 YAML nodes",
	})
	for _, u := range []string{"files", "names", "hash"} {
		if exists(filepath.Join(dir, "users", u, "public_html/autodisc")) {
			t.Errorf("%s: written", u)
		}
	}
	grew := int64(after.HeapSys) - int64(before.HeapSys)
	t.Logf("%v of CPU, heap reservation grew by %.1f MiB", cpu.Round(time.Millisecond), float64(grew)/(1<<20))
	if cpu > 10*time.Second {
		t.Errorf("%v of CPU time; the bound is 10 s", cpu)
	}
	if grew > 256<<20 {
		t.Errorf("the heap grew by %.1f MiB; the bound is 256 MiB", float64(grew)/(1<<20))
	}
	// Built again unchanged, the refused tenants are refused with the
	// same reasons at the cost of a few stats: no manifest is read.
	var mu sync.Mutex
	var read []string
	h := &hooks{read: func(d string) {
		mu.Lock()
		defer mu.Unlock()
		read = append(read, d)
	}}
	cpu0 = cpuTime()
	again := publishAt(t, dir, hooked(h, nil))
	cpu = cpuTime() - cpu0
	t.Logf("again: %v of CPU", cpu.Round(time.Millisecond))
	for rel, st := range o.status {
		if again.status[rel] != st && !(st == Built && again.status[rel] == Unchanged) || again.reasons(rel) != o.reasons(rel) {
			t.Errorf("%s: %s (%q) again, was %s (%q)", rel, again.status[rel], again.reasons(rel), st, o.reasons(rel))
		}
	}
	if len(read) != 0 || !again.sum.Failed {
		t.Errorf("built again: manifests read %v, failed %v", read, again.sum.Failed)
	}
}
