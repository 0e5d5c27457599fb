//go:build linux

package panels

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/output"
)

// e2eUID is the account of the end-to-end tests: nobody, a user runuser
// can become on any Linux system.
const e2eUID = 65534

// e2e is a host for one adapter run as its panel runs it, as root, with
// the real discgen and runuser: a home root, a site manifest whose
// delegation finds the panel's tenant directories, root's panel.conf, and
// a state directory. Only getent is a stub, giving nobody a home in the
// test's home root; DISCGEN is a wrapper that logs the uid each call runs
// as and its arguments, then runs the real discgen.
type e2e struct {
	t                             *testing.T
	dir, root, bin, discgen, site string
	out, state, conf, log, passwd string
}

// newE2E makes the host: homeRoot is the panel's home root below the
// test's directory, path and glob the site's delegation (the glob below
// the home root).
func newE2E(t *testing.T, homeRoot, path, glob string) *e2e {
	t.Helper()
	testenv.NeedsLong(t)
	testenv.NeedsLinux(t)
	testenv.NeedsRoot(t) // needs root, as panels run their hooks, to run a save as another user (CI's long job runs as root)
	testenv.NeedsTool(t, "runuser", "apt-get install util-linux")
	dir := livetest.Dir(t)
	e := &e2e{t: t, dir: dir, root: filepath.Join(dir, homeRoot), bin: filepath.Join(dir, "bin"), site: filepath.Join(dir, "site.yaml"),
		out: filepath.Join(dir, "public"), state: filepath.Join(dir, "state"), conf: filepath.Join(dir, "panel.conf"),
		log: filepath.Join(dir, "log", "calls.log"), passwd: filepath.Join(dir, "passwd")}
	must(t, os.MkdirAll(e.root, 0o755))
	must(t, os.MkdirAll(e.bin, 0o755))
	e.discgen = filepath.Join(e.bin, "discgen")
	if out, err := exec.Command("go", "build", "-o", e.discgen, "../cmd/discgen").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The log is written by the calls run as nobody too.
	must(t, os.MkdirAll(filepath.Dir(e.log), 0o777))
	must(t, os.Chmod(filepath.Dir(e.log), 0o777))
	must(t, os.WriteFile(filepath.Join(e.bin, "discgen-logged"), []byte(`#!/bin/sh
{ printf 'uid=%s' "$(id -u)"; for a; do printf ' [%s]' "$a"; done; echo; } >>`+e.log+`
exec `+e.discgen+` "$@"
`), 0o755))
	must(t, os.WriteFile(e.passwd, nil, 0o644))
	must(t, os.WriteFile(filepath.Join(e.bin, "getent"), []byte(`#!/bin/sh
[ "$1" = passwd ] && [ "$2" = -- ] || exit 1
awk -F: -v n="$3" '$1 == n { print; found = 1 } END { exit !found * 2 }' `+e.passwd+"\n"), 0o755))
	must(t, os.WriteFile(e.site, fmt.Appendf(nil, "version: 1\nsite:\n  url: https://isp.example/\n  description: An ISP\ndelegations:\n  - path: %q\n    tenants: %q\n",
		path, filepath.Join(e.root, glob)), 0o644))
	libSrc, err := os.ReadFile("panel.sh")
	must(t, err)
	lib := filepath.Join(dir, "panel.sh")
	must(t, os.WriteFile(lib, libSrc, 0o644))
	must(t, os.WriteFile(e.conf, fmt.Appendf(nil, "PATH=%s:/usr/sbin:/usr/bin:/sbin:/bin\nDISCGEN=%s\nDISCGEN_SITE=%s\nDISCGEN_OUT=%s\nDISCGEN_STATE=%s\nDISCGEN_HOME_ROOT=%s\nDISCGEN_LIB=%s\n",
		e.bin, filepath.Join(e.bin, "discgen-logged"), e.site, e.out, e.state, e.root, lib), 0o644))
	return e
}

// install copies the adapter to installAs below the test's directory,
// reading the test's panel.conf, and returns its path.
func (e *e2e) install(adapter, installAs string) string {
	e.t.Helper()
	src, err := os.ReadFile(adapter)
	must(e.t, err)
	p := filepath.Join(e.dir, "installed", installAs)
	must(e.t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(e.t, os.WriteFile(p, []byte(strings.Replace(string(src), "\nconf=/etc/discgen/panel.conf\n", "\nconf="+e.conf+"\n", 1)), 0o755))
	return p
}

// account gives nobody the home home (below the home root) with the
// directories dirs in it, all nobody's.
func (e *e2e) account(home string, dirs ...string) string {
	e.t.Helper()
	home = filepath.Join(e.root, home)
	must(e.t, os.WriteFile(e.passwd, fmt.Appendf(nil, "nobody:x:%d:%d::%s:/bin/sh\n", e2eUID, e2eUID, home), 0o644))
	for _, d := range append([]string{"."}, dirs...) {
		p := home
		for _, c := range strings.Split(d, "/") {
			p = filepath.Join(p, c)
			must(e.t, os.MkdirAll(p, 0o755))
			must(e.t, os.Chown(p, e2eUID, e2eUID))
		}
	}
	return home
}

// run runs the adapter as its panel does, as root, with args and the
// panel's environment env (and values of DISCGEN_* a panel's user may
// have put there, which it must not read), and returns its exit status,
// its output (stdout and stderr) and the discgen calls it made.
func (e *e2e) run(script string, env []string, args ...string) (int, string, []string) {
	e.t.Helper()
	e.clearLog()
	cmd := exec.Command(script, args...)
	cmd.Dir = e.dir
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "DISCGEN=/nonexistent/discgen", "DISCGEN_STATE=/tmp/elsewhere", "DISCGEN_HOME_ROOT=/"}, env...)
	code, out := e.exec(cmd)
	data, err := os.ReadFile(e.log)
	if err != nil && !os.IsNotExist(err) {
		e.t.Fatal(err)
	}
	var calls []string
	for l := range strings.Lines(string(data)) {
		calls = append(calls, strings.TrimSuffix(l, "\n"))
	}
	return code, out, calls
}

// clearLog empties the log of discgen's calls, which calls run as
// nobody write too.
func (e *e2e) clearLog() {
	must(e.t, os.WriteFile(e.log, nil, 0o666))
	must(e.t, os.Chmod(e.log, 0o666))
}

func (e *e2e) exec(cmd *exec.Cmd) (int, string) {
	e.t.Helper()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		e.t.Fatal(err)
	}
	return 0, string(out)
}

// save is the account's save, as the panel's file manager or the user's
// shell runs it: discgen build --tenant as nobody.
func (e *e2e) save(file string) (int, string) {
	e.t.Helper()
	cmd := exec.Command(e.discgen, "build", "-f", e.site, "-o", e.out, "--state", e.state, "--tenant-owner", "--tenant", file)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: e2eUID, Gid: e2eUID}}
	return e.exec(cmd)
}

// manifest writes the tenant manifest of the directory dir, as nobody's.
func (e *e2e) manifest(dir, desc string) {
	e.t.Helper()
	p := filepath.Join(dir, "autodisc.yaml")
	must(e.t, os.WriteFile(p, fmt.Appendf(nil, "version: 1\ndescription: %s\n", desc), 0o644))
	must(e.t, os.Chown(p, e2eUID, e2eUID))
}

// described checks that dir's build wrote desc, nobody's.
func (e *e2e) described(what, dir, desc string) {
	e.t.Helper()
	p := filepath.Join(dir, "autodisc", "description.txt")
	data, err := os.ReadFile(p)
	if err != nil || string(data) != desc+"\n" {
		e.t.Errorf("%s: %s: %q, %v; want %q", what, p, data, err, desc)
		return
	}
	if fi, err := os.Stat(p); err != nil || fi.Sys().(*syscall.Stat_t).Uid != e2eUID {
		e.t.Errorf("%s: %s is not nobody's", what, p)
	}
}

// calls checks what the adapter ran: each call's uid and the flags that
// tell it apart (--provision, --unprovision, or a build), on file.
func (e *e2e) calls(what string, code int, out string, calls []string, wantCode int, want ...string) {
	e.t.Helper()
	var got []string
	for _, c := range calls {
		kind := "build"
		switch {
		case strings.Contains(c, " [--provision] "):
			kind = "provision"
		case strings.Contains(c, " [--unprovision] "):
			kind = "unprovision"
		}
		uid, _, _ := strings.Cut(c, " ")
		got = append(got, uid+" "+kind)
		for _, a := range []string{"[-f] [" + e.site + "]", "[-o] [" + e.out + "]", "[--state] [" + e.state + "]", "[--tenant-owner]"} {
			if !strings.Contains(c, a) {
				e.t.Errorf("%s: a call without %s: %s", what, a, c)
			}
		}
	}
	if code != wantCode || !slices.Equal(got, want) {
		e.t.Errorf("%s: exit %d, calls %q, want exit %d, calls %q; output:\n%s", what, code, got, wantCode, want, out)
	}
}

// refused checks a refusal: exit 1, one line naming the adapter that says
// why, and nothing run.
func (e *e2e) refused(what, panel string, code int, out string, calls []string, why string) {
	e.t.Helper()
	if code != 1 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "discgen "+panel+": ") || !strings.Contains(out, why) || len(calls) > 0 {
		e.t.Errorf("%s: exit %d, output:\n%s\ncalls:\n%s\nwant exit 1, one line saying %q, nothing run", what, code, out, strings.Join(calls, "\n"), why)
	}
}

// stateRoots returns the tenants' own state directories.
func (e *e2e) stateRoots() []string {
	own := filepath.Dir(filepath.Dir(output.RootStateDir(e.state, "any")))
	roots, _ := filepath.Glob(filepath.Join(own, "*", "*"))
	return roots
}

// notProvisioned checks that a save before the panel's hook ran is
// skipped as not provisioned.
func (e *e2e) notProvisioned(docroot string) {
	e.t.Helper()
	e.manifest(docroot, "first")
	if code, out := e.save(filepath.Join(docroot, "autodisc.yaml")); code != 1 || !strings.Contains(out, ") not provisioned\n") {
		e.t.Fatalf("a save before the account's creation hook: exit %d\n%s", code, out)
	}
}

const provisioned = "state provisioned for uid 65534"

// TestCpanelEndToEnd runs the cPanel adapter as cPanel does, as root, with
// the real discgen and runuser, for an account of the user nobody: its
// creation provisions the account's state, so that its first save, as
// nobody, builds; its removal, once its home is gone, removes that state.
func TestCpanelEndToEnd(t *testing.T) {
	testenv.NeedsTool(t, "perl", "apt-get install perl")
	e := newE2E(t, "home", "~*", "*/public_html/autodisc.yaml")
	home := e.account("nobody", "public_html")
	pub := filepath.Join(home, "public_html")
	hook := e.install("cpanel/discgen-hook.sh", "discgen-hook.sh")
	run := func(event, user string) (int, string, []string) {
		t.Helper()
		cmd := exec.Command(hook)
		cmd.Dir = e.dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", "DISCGEN_STATE=/tmp/elsewhere"}
		cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"context":{"category":"Whostmgr","event":%q,"stage":"post"},"data":{"user":%q,"homedir":%q}}`, event, user, home))
		e.clearLog()
		code, out := e.exec(cmd)
		data, _ := os.ReadFile(e.log)
		return code, out, slices.Collect(func(yield func(string) bool) {
			for l := range strings.Lines(string(data)) {
				if !yield(strings.TrimSuffix(l, "\n")) {
					return
				}
			}
		})
	}

	e.notProvisioned(pub)
	must(t, os.Remove(filepath.Join(pub, "autodisc.yaml")))
	code, out, calls := run("Accounts::Create", "nobody")
	e.calls("Accounts::Create", code, out, calls, 0, "uid=0 provision")
	if !strings.Contains(out, provisioned) {
		t.Errorf("Accounts::Create says:\n%s", out)
	}
	e.manifest(pub, "saved")
	if code, out := e.save(filepath.Join(pub, "autodisc.yaml")); code != 0 {
		t.Fatalf("the account's first save, as nobody: exit %d\n%s", code, out)
	}
	e.described("the first save", pub, "saved")

	// Modify: the account's tenant is built as its user.
	e.manifest(pub, "modified")
	code, out, calls = run("Accounts::Modify", "nobody")
	e.calls("Accounts::Modify", code, out, calls, 0, "uid=0 provision", "uid=65534 build")
	e.described("Accounts::Modify", pub, "modified")

	code, out, calls = run("Accounts::Create", "../nobody")
	e.refused("Accounts::Create of ../nobody", "cpanel", code, out, calls, "is not a user name")

	// Remove: the state stays while the home does, and goes with it.
	roots := e.stateRoots()
	if len(roots) != 1 {
		t.Fatalf("state roots: %v, want one", roots)
	}
	code, out, calls = run("Accounts::Remove", "nobody")
	e.calls("Accounts::Remove with the home there", code, out, calls, 1, "uid=0 unprovision")
	if !strings.Contains(out, "still exists") {
		t.Errorf("Accounts::Remove with the home there says:\n%s", out)
	}
	must(t, os.RemoveAll(home))
	code, out, calls = run("Accounts::Remove", "nobody")
	e.calls("Accounts::Remove", code, out, calls, 0, "uid=0 unprovision")
	if !strings.Contains(out, "state removed") {
		t.Errorf("Accounts::Remove says:\n%s", out)
	}
	if _, err := os.Lstat(roots[0]); err == nil {
		t.Errorf("the account's state %s is still there", roots[0])
	}
}

// TestPleskEndToEnd runs the Plesk adapter as Plesk runs an event handler,
// as root, with the real discgen and runuser: the subscription's system
// user nobody, its webspace vhosts/alice.example. Creation (with a
// skeleton's autodisc.yaml) provisions the state as root and builds as
// nobody; an update builds the new manifest as nobody; deletion removes
// the state once the webspace is gone and refuses while it is there; a
// name or domain that is not what Plesk passes is refused in one line.
func TestPleskEndToEnd(t *testing.T) {
	e := newE2E(t, "vhosts", "/sites/*/", "*/httpdocs/autodisc.yaml")
	home := e.account("alice.example", "httpdocs")
	docroot := filepath.Join(home, "httpdocs")
	handler := e.install("plesk/discgen-event.sh", "plesk-event.sh")
	env := func(prefix, user, domain string) []string {
		return []string{prefix + "SYSTEM_USER=" + user, prefix + "DOMAIN_NAME=" + domain}
	}

	e.notProvisioned(docroot)
	e.manifest(docroot, "skeleton")
	code, out, calls := e.run(handler, env("NEW_", "nobody", "alice.example"), "create")
	e.calls("phys_hosting_create", code, out, calls, 0, "uid=0 provision", "uid=65534 build")
	if !strings.Contains(out, provisioned) {
		t.Errorf("phys_hosting_create says:\n%s", out)
	}
	e.described("phys_hosting_create", docroot, "skeleton")
	e.manifest(docroot, "saved")
	if code, out := e.save(filepath.Join(docroot, "autodisc.yaml")); code != 0 {
		t.Fatalf("a save, as nobody: exit %d\n%s", code, out)
	}
	e.described("a save", docroot, "saved")
	e.manifest(docroot, "updated")
	code, out, calls = e.run(handler, append(env("NEW_", "nobody", "alice.example"), env("OLD_", "nobody", "alice.example")...), "update")
	e.calls("phys_hosting_update", code, out, calls, 0, "uid=0 provision", "uid=65534 build")
	e.described("phys_hosting_update", docroot, "updated")

	code, out, calls = e.run(handler, env("NEW_", "nobody;id", "alice.example"), "create")
	e.refused("NEW_SYSTEM_USER nobody;id", "plesk", code, out, calls, `NEW_SYSTEM_USER "nobody?id" is not a user name`)
	code, out, calls = e.run(handler, env("NEW_", "nobody", "../alice.example"), "create")
	e.refused("NEW_DOMAIN_NAME ../alice.example", "plesk", code, out, calls, "is not a domain name")
	code, out, calls = e.run(handler, env("NEW_", "nobody", "bob.example"), "create")
	e.refused("a domain that is not the user's webspace", "plesk", code, out, calls, "the panel says its home is")

	roots := e.stateRoots()
	if len(roots) != 1 {
		t.Fatalf("state roots: %v, want one", roots)
	}
	code, out, calls = e.run(handler, env("OLD_", "nobody", "alice.example"), "delete")
	e.calls("phys_hosting_delete with the webspace there", code, out, calls, 1, "uid=0 unprovision")
	if !strings.Contains(out, "still exists") {
		t.Errorf("phys_hosting_delete with the webspace there says:\n%s", out)
	}
	must(t, os.RemoveAll(home))
	code, out, calls = e.run(handler, env("OLD_", "nobody", "alice.example"), "delete")
	e.calls("phys_hosting_delete", code, out, calls, 0, "uid=0 unprovision")
	if _, err := os.Lstat(roots[0]); err == nil || !strings.Contains(out, "state removed") {
		t.Errorf("phys_hosting_delete left %s (%v):\n%s", roots[0], err, out)
	}
}

// TestDirectAdminEndToEnd runs the DirectAdmin adapter as DirectAdmin runs
// its hooks, as root, with the real discgen and runuser: the user nobody,
// its domain's site home/nobody/domains/alice.example/public_html (and
// home/nobody/public_html a symbolic link to it, which DirectAdmin makes
// and nothing follows). user_create_post provisions and builds as nobody;
// domain_change_post does so for the new domain; user_destroy_post builds
// nothing and leaves the state (it names no domain), exit 0; a username
// or domain that is not what DirectAdmin passes is refused in one line.
func TestDirectAdminEndToEnd(t *testing.T) {
	e := newE2E(t, "home", "/~*/*/", "*/domains/*/public_html/autodisc.yaml")
	home := e.account("nobody", "domains/alice.example/public_html", "domains/new.example/public_html")
	must(t, os.Symlink("domains/alice.example/public_html", filepath.Join(home, "public_html")))
	docroot := filepath.Join(home, "domains/alice.example/public_html")
	create := e.install("directadmin/discgen-hook.sh", "scripts/custom/user_create_post/discgen.sh")
	change := e.install("directadmin/discgen-hook.sh", "scripts/custom/domain_change_post/discgen.sh")
	destroy := e.install("directadmin/discgen-hook.sh", "scripts/custom/user_destroy_post/discgen.sh")

	e.notProvisioned(docroot)
	e.manifest(docroot, "skeleton")
	code, out, calls := e.run(create, []string{"username=nobody", "domain=alice.example", "passwd=secret", "creator=admin"})
	e.calls("user_create_post", code, out, calls, 0, "uid=0 provision", "uid=65534 build")
	if !strings.Contains(out, provisioned) {
		t.Errorf("user_create_post says:\n%s", out)
	}
	e.described("user_create_post", docroot, "skeleton")
	e.manifest(docroot, "saved")
	if code, out := e.save(filepath.Join(docroot, "autodisc.yaml")); code != 0 {
		t.Fatalf("a save, as nobody: exit %d\n%s", code, out)
	}
	e.described("a save", docroot, "saved")

	newRoot := filepath.Join(home, "domains/new.example/public_html")
	e.manifest(newRoot, "new domain")
	code, out, calls = e.run(change, []string{"username=nobody", "domain=alice.example", "newdomain=new.example"})
	e.calls("domain_change_post", code, out, calls, 0, "uid=0 provision", "uid=65534 build")
	e.described("domain_change_post", newRoot, "new domain")

	code, out, calls = e.run(create, []string{"username=no body", "domain=alice.example"})
	e.refused("username \"no body\"", "directadmin", code, out, calls, `username "no?body" is not a user name`)
	code, out, calls = e.run(change, []string{"username=nobody", "domain=alice.example", "newdomain=../../etc"})
	e.refused("newdomain ../../etc", "directadmin", code, out, calls, "is not a domain name")
	code, out, calls = e.run(create, []string{"username=nobody", "domain=other.example"})
	e.refused("a domain the user does not have", "directadmin", code, out, calls, "is not a directory")

	roots := e.stateRoots()
	code, out, calls = e.run(destroy, []string{"username=nobody"})
	e.calls("user_destroy_post", code, out, calls, 0)
	if len(roots) != 2 || !slices.Equal(e.stateRoots(), roots) {
		t.Errorf("state roots %v before user_destroy_post (want two), %v after (want the same)", roots, e.stateRoots())
	}
}

// TestHestiaCPEndToEnd runs the HestiaCP adapter as Hestia runs a web
// template's trigger, as root, with the real discgen and runuser:
// arguments USER DOMAIN IP HOMEDIR DOCROOT for the user nobody's domain
// alice.example. The trigger provisions and builds as nobody, and again
// on a rebuild; arguments that are not what Hestia passes are refused in
// one line.
func TestHestiaCPEndToEnd(t *testing.T) {
	e := newE2E(t, "home", "/~*/*/", "*/web/*/public_html/autodisc.yaml")
	home := e.account("nobody", "web/alice.example/public_html")
	docroot := filepath.Join(home, "web/alice.example/public_html")
	trigger := e.install("hestiacp/discgen.sh", "data/templates/web/nginx/default.sh")

	e.notProvisioned(docroot)
	e.manifest(docroot, "skeleton")
	code, out, calls := e.run(trigger, nil, "nobody", "alice.example", "192.0.2.1", e.root, docroot)
	e.calls("the template trigger", code, out, calls, 0, "uid=0 provision", "uid=65534 build")
	if !strings.Contains(out, provisioned) {
		t.Errorf("the template trigger says:\n%s", out)
	}
	e.described("the template trigger", docroot, "skeleton")
	e.manifest(docroot, "saved")
	if code, out := e.save(filepath.Join(docroot, "autodisc.yaml")); code != 0 {
		t.Fatalf("a save, as nobody: exit %d\n%s", code, out)
	}
	e.described("a save", docroot, "saved")
	e.manifest(docroot, "rebuilt")
	code, out, calls = e.run(trigger, nil, "nobody", "alice.example", "192.0.2.1", e.root, docroot)
	e.calls("the template trigger on a rebuild", code, out, calls, 0, "uid=0 provision", "uid=65534 build")
	e.described("the template trigger on a rebuild", docroot, "rebuilt")

	code, out, calls = e.run(trigger, nil, "-nobody", "alice.example", "192.0.2.1", e.root, docroot)
	e.refused("user -nobody", "hestiacp", code, out, calls, "is not a user name")
	code, out, calls = e.run(trigger, nil, "nobody", "alice.example", "192.0.2.1", e.root, filepath.Join(home, "web/alice.example/public_html/../../../.."))
	e.refused("a document root with ..", "hestiacp", code, out, calls, "document root")
	code, out, calls = e.run(trigger, nil, "nobody", "alice.example", "192.0.2.1", "/home", "/home/nobody/web/alice.example/public_html")
	e.refused("another home root", "hestiacp", code, out, calls, "home root")
}
