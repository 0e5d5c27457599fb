//go:build linux

package panels

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// host is a machine for one adapter: a home root with accounts, the
// passwd entries getent reads, root's panel.conf, and stubs of discgen,
// runuser and getent that record their calls in a log.
type host struct {
	t      *testing.T
	dir    string
	root   string // DISCGEN_HOME_ROOT
	bin    string // the stubs
	log    string
	passwd string
	script string // the adapter, installed with the test's panel.conf
	uid    int    // the accounts' uid
	gid    int    // and gid
}

func newHost(t *testing.T, adapter, installAs, homeRoot string) *host {
	t.Helper()
	testenv.NeedsLinux(t)
	testenv.NeedsTool(t, "sh", "a POSIX shell: apt-get install dash")
	dir := t.TempDir()
	h := &host{t: t, dir: dir, root: filepath.Join(dir, homeRoot), bin: filepath.Join(dir, "bin"),
		log: filepath.Join(dir, "calls.log"), passwd: filepath.Join(dir, "passwd"), uid: os.Getuid()}
	h.gid = os.Getgid()
	if h.uid == 0 {
		h.uid, h.gid = 65534, 65534 // root's accounts would be refused: give them nobody's
	}
	must(t, os.MkdirAll(h.root, 0o755))
	must(t, os.MkdirAll(h.bin, 0o755))
	must(t, os.WriteFile(h.passwd, nil, 0o644))
	// The shared part, copied where the test's panel.conf says (read
	// here, so that go test's cache sees a change to it).
	libSrc, err := os.ReadFile("panel.sh")
	must(t, err)
	lib := filepath.Join(dir, "lib", "panel.sh")
	must(t, os.MkdirAll(filepath.Dir(lib), 0o755))
	must(t, os.WriteFile(lib, libSrc, 0o644))
	conf := filepath.Join(dir, "panel.conf")
	must(t, os.WriteFile(conf, fmt.Appendf(nil, "PATH=%s:/usr/bin:/bin\nDISCGEN=%s\nDISCGEN_HOME_ROOT=%s\nDISCGEN_LIB=%s\n",
		h.bin, filepath.Join(h.bin, "discgen"), h.root, lib), 0o644))

	// The adapter as installed, reading the test's panel.conf where a
	// host's is /etc/discgen/panel.conf: that line alone differs.
	src, err := os.ReadFile(adapter)
	must(t, err)
	const line = "\nconf=/etc/discgen/panel.conf\n"
	if strings.Count(string(src), line) != 1 {
		t.Fatalf("%s: want one line %q", adapter, strings.TrimSpace(line))
	}
	h.script = filepath.Join(dir, "installed", installAs)
	must(t, os.MkdirAll(filepath.Dir(h.script), 0o755))
	must(t, os.WriteFile(h.script, []byte(strings.Replace(string(src), line, "\nconf="+conf+"\n", 1)), 0o755))

	// Each stub records its arguments, one [bracketed] each, and discgen
	// the user runuser ran it as (as=, empty for root) and its directory;
	// discgen exits with the status in discgen.exit (default 0).
	h.stub("discgen", `{ printf 'discgen'; for a; do printf ' [%s]' "$a"; done; printf ' as=%s cwd=%s\n' "${STUB_AS-}" "$PWD"; } >>`+h.log+`
[ -n "${STUB_AS-}" ] && f=`+h.bin+`/discgen.user.exit || f=`+h.bin+`/discgen.root.exit
[ -r "$f" ] && exit "$(cat "$f")"
exit 0`)
	h.stub("runuser", `{ printf 'runuser'; for a; do printf ' [%s]' "$a"; done; echo; } >>`+h.log+`
[ "$1" = -u ] && [ "$3" = -- ] || exit 125
STUB_AS=$2; export STUB_AS; shift 3; exec "$@"`)
	h.stub("getent", `[ "$1" = passwd ] && [ "$2" = -- ] || exit 1
awk -F: -v n="$3" '$1 == n { print; found = 1 } END { exit !found * 2 }' `+h.passwd)
	return h
}

func (h *host) stub(name, body string) {
	must(h.t, os.WriteFile(filepath.Join(h.bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
}

// account adds a user whose home is home (relative to the home root, or
// absolute) with the directories dirs made in it, owned by the user.
func (h *host) account(name, home string, dirs ...string) string {
	h.t.Helper()
	if !filepath.IsAbs(home) {
		home = filepath.Join(h.root, home)
	}
	f, err := os.OpenFile(h.passwd, os.O_APPEND|os.O_WRONLY, 0)
	must(h.t, err)
	fmt.Fprintf(f, "%s:x:%d:%d::%s:/bin/sh\n", name, h.uid, h.gid, home)
	must(h.t, f.Close())
	for _, d := range append([]string{"."}, dirs...) {
		p := filepath.Join(home, d)
		must(h.t, os.MkdirAll(p, 0o755))
		must(h.t, os.Chown(p, h.uid, h.gid))
	}
	return home
}

// run runs the adapter as its panel does, and returns its exit status,
// its stderr and the calls the stubs recorded.
func (h *host) run(stdin string, env []string, args ...string) (int, string, []string) {
	h.t.Helper()
	os.Remove(h.log)
	cmd := exec.Command(h.script, args...)
	cmd.Dir = h.dir
	// What a panel passes, and what it must not change: a DISCGEN or
	// PATH of its users' choosing is not read.
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "DISCGEN=/nonexistent/discgen", "DISCGEN_LIB=/nonexistent/lib.sh",
		"DISCGEN_HOME_ROOT=/", "DISCGEN_DOCROOT=..", "DISCGEN_STATE=/tmp/elsewhere", "DISCGEN_SITE=/tmp/site.yaml"}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		h.t.Fatal(err)
	}
	data, err := os.ReadFile(h.log)
	if err != nil && !os.IsNotExist(err) {
		h.t.Fatal(err)
	}
	var calls []string
	for l := range strings.Lines(string(data)) {
		calls = append(calls, strings.TrimSuffix(l, "\n"))
	}
	return code, stderr.String(), calls
}

func (h *host) exits(who string, code int) {
	must(h.t, os.WriteFile(filepath.Join(h.bin, "discgen."+who+".exit"), fmt.Append(nil, code), 0o644))
}

// The calls an account's creation makes: root's provisioning, then, when
// the account has a manifest, its build as its user.
func (h *host) provision(file string) string {
	return "discgen [build] [-f] [/etc/discgen/site.yaml] [-o] [/srv/www/public] [--state] [/var/lib/discgen] [--tenant-owner] [--provision] [--tenant] [" + file + "] as= cwd=/"
}

func (h *host) remove(file string) string {
	return "discgen [build] [-f] [/etc/discgen/site.yaml] [-o] [/srv/www/public] [--state] [/var/lib/discgen] [--tenant-owner] [--unprovision] [--tenant] [" + file + "] as= cwd=/"
}

func (h *host) save(user, file string) []string {
	args := "[build] [-f] [/etc/discgen/site.yaml] [-o] [/srv/www/public] [--state] [/var/lib/discgen] [--tenant-owner] [--tenant] [" + file + "]"
	return []string{
		"runuser [-u] [" + user + "] [--] [" + filepath.Join(h.bin, "discgen") + "] " + args,
		"discgen " + args + " as=" + user + " cwd=/",
	}
}

func (h *host) want(what string, code int, stderr string, calls []string, wantCode int, wantCalls ...string) {
	h.t.Helper()
	if code != wantCode || strings.Join(calls, "\n") != strings.Join(wantCalls, "\n") {
		h.t.Errorf("%s: exit %d, stderr:\n%s\ncalls:\n%s\nwant exit %d, calls:\n%s", what, code, stderr,
			strings.Join(calls, "\n"), wantCode, strings.Join(wantCalls, "\n"))
	}
}

// refused checks a refusal: exit 1, one line on stderr naming the
// adapter and saying why (one of the reasons why separates with "|"),
// and nothing run.
func (h *host) refused(what, panel string, code int, stderr string, calls []string, why string) {
	h.t.Helper()
	said := false
	for w := range strings.SplitSeq(why, "|") {
		said = said || strings.Contains(stderr, w)
	}
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "discgen "+panel+": ") ||
		!said || len(calls) > 0 {
		h.t.Errorf("%s: exit %d, stderr:\n%s\ncalls:\n%s\nwant exit 1, one line saying %q, nothing run", what, code, stderr, strings.Join(calls, "\n"), why)
	}
}

// hostile are account names no panel makes, with what the refusal says.
var hostile = []struct{ name, why string }{
	{"../x", "is not a user name"},
	{"a;b", `"a?b" is not a user name`},
	{"a\nb", "is not a user name"},
	{"-rf", "is not a user name"},
	{strings.Repeat("a", 33), "longer than 32 characters"},
	{"", "is empty"},
}

func TestCpanel(t *testing.T) {
	testenv.NeedsTool(t, "perl", "apt-get install perl (cPanel's own is /usr/local/cpanel/3rdparty/bin/perl)")
	h := newHost(t, "cpanel/discgen-hook.sh", "discgen-hook.sh", "home")
	alice := h.account("alice", "alice", "public_html")
	file := alice + "/public_html/autodisc.yaml"
	hook := func(event string, data map[string]string) string {
		var kv []string
		for k, v := range data {
			kv = append(kv, fmt.Sprintf("%q:%q", k, v))
		}
		return fmt.Sprintf(`{"context":{"category":"Whostmgr","event":%q,"stage":"post","point":"main"},"data":{%s},"hook":{"exectype":"script","stage":"post"}}`,
			event, strings.Join(kv, ","))
	}
	create := func(user, home string) string {
		return hook("Accounts::Create", map[string]string{"user": user, "domain": "alice.example", "homedir": home, "homeroot": h.root})
	}

	code, stderr, calls := h.run(create("alice", alice), nil)
	h.want("Accounts::Create, no manifest", code, stderr, calls, 0, h.provision(file))
	// Without homedir (as in a restore), the home is the system's.
	code, stderr, calls = h.run(hook("Accounts::Create", map[string]string{"user": "alice", "domain": "alice.example"}), nil)
	h.want("Accounts::Create, no homedir", code, stderr, calls, 0, h.provision(file))

	must(t, os.WriteFile(file, []byte("version: 1\n"), 0o644))
	code, stderr, calls = h.run(create("alice", alice), nil)
	h.want("Accounts::Create, a manifest from the skeleton", code, stderr, calls, 0, append([]string{h.provision(file)}, h.save("alice", file)...)...)

	alice2 := h.account("alice2", "alice2", "public_html")
	file2 := alice2 + "/public_html/autodisc.yaml"
	code, stderr, calls = h.run(hook("Accounts::Modify", map[string]string{"user": "alice", "newuser": "alice2"}), nil)
	h.want("Accounts::Modify, renamed", code, stderr, calls, 0, h.provision(file2))
	code, stderr, calls = h.run(hook("Accounts::Modify", map[string]string{"user": "alice", "newuser": ""}), nil)
	h.want("Accounts::Modify", code, stderr, calls, 0, append([]string{h.provision(file)}, h.save("alice", file)...)...)

	code, stderr, calls = h.run(hook("Accounts::Remove", map[string]string{"user": "alice"}), nil)
	h.want("Accounts::Remove", code, stderr, calls, 0, h.remove(file))
	code, stderr, calls = h.run(hook("Accounts::Remove", map[string]string{"user": "../alice"}), nil)
	h.refused("Accounts::Remove of ../alice", "cpanel", code, stderr, calls, "is not a user name")

	// discgen's failures are the hook's, with discgen's own status.
	h.exits("user", 1)
	code, stderr, calls = h.run(create("alice", alice), nil)
	h.want("Accounts::Create, the user's build fails", code, stderr, calls, 1, append([]string{h.provision(file)}, h.save("alice", file)...)...)
	h.exits("root", 1)
	code, stderr, calls = h.run(create("alice", alice), nil)
	h.want("Accounts::Create, provisioning fails", code, stderr, calls, 1, h.provision(file))
	h.exits("root", 0)
	h.exits("user", 0)

	for _, c := range hostile {
		code, stderr, calls = h.run(create(c.name, alice), nil)
		h.refused(fmt.Sprintf("Accounts::Create of %q", c.name), "cpanel", code, stderr, calls, c.why)
		if c.name == "" {
			continue // an empty newuser: not renamed
		}
		code, stderr, calls = h.run(hook("Accounts::Modify", map[string]string{"user": "alice", "newuser": c.name}), nil)
		h.refused(fmt.Sprintf("Accounts::Modify to %q", c.name), "cpanel", code, stderr, calls, c.why)
	}
	accountRefusals(t, h, "cpanel", func(user, home string) (int, string, []string) {
		return h.run(create(user, home), nil)
	}, "public_html")
	code, stderr, calls = h.run(create("alice", h.root+"/bob"), nil)
	h.refused("Accounts::Create, homedir not the user's", "cpanel", code, stderr, calls, "the panel says its home is")
	code, stderr, calls = h.run("not json", nil)
	h.refused("not JSON", "cpanel", code, stderr, calls, "standard input is not a JSON object")
	code, stderr, calls = h.run(hook("Accounts::Suspend", map[string]string{"user": "alice"}), nil)
	h.refused("another event", "cpanel", code, stderr, calls, "not one this hook is for")
}

// accountRefusals runs the refusals every adapter makes of the account
// the panel names: its home a symbolic link, outside the home root, not
// the user's; its site's directory a symbolic link or missing; root's
// uid; no such user. run runs the adapter for the account user whose home
// is home.
func accountRefusals(t *testing.T, h *host, panel string, run func(user, home string) (int, string, []string), site string) {
	t.Helper()
	elsewhere := filepath.Join(h.dir, "elsewhere")
	must(t, os.MkdirAll(filepath.Join(elsewhere, site), 0o755))
	must(t, os.Chown(elsewhere, h.uid, h.gid))
	mallory := filepath.Join(h.root, "mallory")
	testenv.Symlink(t, elsewhere, mallory)
	h.account("mallory", mallory)
	code, stderr, calls := run("mallory", mallory)
	h.refused("a home that is a symbolic link", panel, code, stderr, calls, "is a symbolic link")

	h.account("eve", filepath.Join(h.dir, "outside"), site)
	code, stderr, calls = run("eve", filepath.Join(h.dir, "outside"))
	// An adapter that knows the home the panel gives the account says
	// that the system's is not it.
	h.refused("a home outside the home root", panel, code, stderr, calls, "is not in "+h.root+"|the panel says its home is")

	trudy := h.account("trudy", "trudy", filepath.Dir(site))
	testenv.Symlink(t, filepath.Join(elsewhere, site), filepath.Join(trudy, site))
	code, stderr, calls = run("trudy", trudy)
	h.refused("a site directory that is a symbolic link", panel, code, stderr, calls, "is a symbolic link")

	oscar := h.account("oscar", "oscar")
	code, stderr, calls = run("oscar", oscar)
	h.refused("no site directory", panel, code, stderr, calls, "is not a directory")

	f, err := os.OpenFile(h.passwd, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	fmt.Fprintf(f, "toor:x:0:0::%s:/bin/sh\n", filepath.Join(h.root, "toor"))
	must(t, f.Close())
	must(t, os.MkdirAll(filepath.Join(h.root, "toor", site), 0o755))
	code, stderr, calls = run("toor", filepath.Join(h.root, "toor"))
	h.refused("root's uid", panel, code, stderr, calls, "is root's uid")

	code, stderr, calls = run("nobody-here", filepath.Join(h.root, "nobody-here"))
	h.refused("no such user", panel, code, stderr, calls, "no such user")

	if os.Getuid() == 0 {
		// A home that belongs to another uid: only root can make one.
		walter := h.account("walter", "walter", site)
		must(t, os.Chown(walter, 4242, 4242))
		code, stderr, calls = run("walter", walter)
		h.refused("a home of another uid", panel, code, stderr, calls, "belongs to uid 4242")
	}
}

func TestPlesk(t *testing.T) {
	h := newHost(t, "plesk/discgen-event.sh", "plesk-event.sh", "vhosts")
	home := h.account("alice_ftp", "alice.example", "httpdocs")
	file := home + "/httpdocs/autodisc.yaml"
	env := func(prefix, user, domain string) []string {
		return []string{prefix + "SYSTEM_USER=" + user, prefix + "DOMAIN_NAME=" + domain}
	}
	code, stderr, calls := h.run("", env("NEW_", "alice_ftp", "alice.example"), "create")
	h.want("phys_hosting_create", code, stderr, calls, 0, h.provision(file))
	must(t, os.WriteFile(file, []byte("version: 1\n"), 0o644))
	code, stderr, calls = h.run("", append(env("NEW_", "alice_ftp", "alice.example"), env("OLD_", "alice_old", "alice.example")...), "update")
	h.want("phys_hosting_update", code, stderr, calls, 0, append([]string{h.provision(file)}, h.save("alice_ftp", file)...)...)
	code, stderr, calls = h.run("", env("OLD_", "alice_ftp", "alice.example"), "delete")
	h.want("phys_hosting_delete", code, stderr, calls, 0, h.remove(file))
	code, stderr, calls = h.run("", env("OLD_", "alice_ftp", "../../etc"), "delete")
	h.refused("phys_hosting_delete of ../../etc", "plesk", code, stderr, calls, "OLD_DOMAIN_NAME")

	for _, c := range hostile {
		code, stderr, calls = h.run("", env("NEW_", c.name, "alice.example"), "create")
		h.refused(fmt.Sprintf("NEW_SYSTEM_USER %q", c.name), "plesk", code, stderr, calls, c.why)
	}
	for _, d := range []string{"../etc", "a;b.example", "a\nb.example", "-x.example", "A.example", ""} {
		code, stderr, calls = h.run("", env("NEW_", "alice_ftp", d), "create")
		h.refused(fmt.Sprintf("NEW_DOMAIN_NAME %q", d), "plesk", code, stderr, calls, "NEW_DOMAIN_NAME")
	}
	// The system user's home is not the domain's webspace.
	h.account("bob_ftp", "bob.example", "httpdocs")
	code, stderr, calls = h.run("", env("NEW_", "bob_ftp", "alice.example"), "create")
	h.refused("a user of another webspace", "plesk", code, stderr, calls, "the panel says its home is")
	accountRefusals(t, h, "plesk", func(user, home string) (int, string, []string) {
		return h.run("", env("NEW_", user, filepath.Base(home)), "create")
	}, "httpdocs")
	code, stderr, calls = h.run("", env("NEW_", "alice_ftp", "alice.example"))
	h.refused("no argument", "plesk", code, stderr, calls, "give create, update or delete")
}

func TestDirectAdmin(t *testing.T) {
	for _, as := range []string{"user_create_post/discgen.sh", "user_create_post.sh"} {
		h := newHost(t, "directadmin/discgen-hook.sh", "scripts/custom/"+as, "home")
		home := h.account("alice", "alice", "domains/alice.example/public_html")
		file := home + "/domains/alice.example/public_html/autodisc.yaml"
		code, stderr, calls := h.run("", []string{"username=alice", "domain=alice.example", "passwd=secret", "creator=admin"})
		h.want(as, code, stderr, calls, 0, h.provision(file))
	}
	h := newHost(t, "directadmin/discgen-hook.sh", "scripts/custom/domain_change_post/discgen.sh", "home")
	home := h.account("alice", "alice", "domains/alice.example/public_html", "domains/new.example/public_html")
	file := home + "/domains/new.example/public_html/autodisc.yaml"
	must(t, os.WriteFile(file, []byte("version: 1\n"), 0o644))
	code, stderr, calls := h.run("", []string{"username=alice", "domain=alice.example", "newdomain=new.example"})
	h.want("domain_change_post", code, stderr, calls, 0, append([]string{h.provision(file)}, h.save("alice", file)...)...)

	h = newHost(t, "directadmin/discgen-hook.sh", "scripts/custom/user_destroy_post/discgen.sh", "home")
	code, stderr, calls = h.run("", []string{"username=alice"})
	h.want("user_destroy_post", code, stderr, calls, 0)
	code, stderr, calls = h.run("", []string{"username=a;b"})
	h.refused("user_destroy_post of a;b", "directadmin", code, stderr, calls, "is not a user name")

	h = newHost(t, "directadmin/discgen-hook.sh", "scripts/custom/user_create_post/discgen.sh", "home")
	h.account("alice", "alice", "domains/alice.example/public_html")
	for _, c := range hostile {
		code, stderr, calls = h.run("", []string{"username=" + c.name, "domain=alice.example"})
		h.refused(fmt.Sprintf("username %q", c.name), "directadmin", code, stderr, calls, c.why)
	}
	code, stderr, calls = h.run("", []string{"username=alice", "domain=../../etc"})
	h.refused("domain ../../etc", "directadmin", code, stderr, calls, "is not a domain name")
	accountRefusals(t, h, "directadmin", func(user, home string) (int, string, []string) {
		return h.run("", []string{"username=" + user, "domain=d.example"})
	}, "domains/d.example/public_html")

	h = newHost(t, "directadmin/discgen-hook.sh", "scripts/custom/all_pre.sh", "home")
	code, stderr, calls = h.run("", []string{"username=alice"})
	h.refused("installed as another hook", "directadmin", code, stderr, calls, "install as scripts/custom/")
}

func TestHestiaCP(t *testing.T) {
	h := newHost(t, "hestiacp/discgen.sh", "data/templates/web/nginx/default.sh", "home")
	home := h.account("alice", "alice", "web/alice.example/public_html")
	docroot := home + "/web/alice.example/public_html"
	file := docroot + "/autodisc.yaml"
	code, stderr, calls := h.run("", nil, "alice", "alice.example", "192.0.2.1", h.root, docroot)
	h.want("the template trigger", code, stderr, calls, 0, h.provision(file))
	must(t, os.WriteFile(file, []byte("version: 1\n"), 0o644))
	code, stderr, calls = h.run("", nil, "alice", "alice.example", "192.0.2.1", h.root, docroot)
	h.want("the template trigger, with a manifest", code, stderr, calls, 0, append([]string{h.provision(file)}, h.save("alice", file)...)...)

	for _, c := range hostile {
		code, stderr, calls = h.run("", nil, c.name, "alice.example", "192.0.2.1", h.root, docroot)
		h.refused(fmt.Sprintf("user %q", c.name), "hestiacp", code, stderr, calls, "user")
	}
	code, stderr, calls = h.run("", nil, "alice", "alice.example", "192.0.2.1", h.root, home+"/web/other.example/public_html")
	h.refused("another domain's document root", "hestiacp", code, stderr, calls, "document root")
	code, stderr, calls = h.run("", nil, "alice", "alice.example", "192.0.2.1", "/", "/alice/web/alice.example/public_html")
	h.refused("another home root", "hestiacp", code, stderr, calls, "home root")
	code, stderr, calls = h.run("", nil, "alice", "alice.example")
	h.refused("two arguments", "hestiacp", code, stderr, calls, "want 5 arguments")
	accountRefusals(t, h, "hestiacp", func(user, home string) (int, string, []string) {
		return h.run("", nil, user, "d.example", "192.0.2.1", h.root, filepath.Join(h.root, user, "web/d.example/public_html"))
	}, "web/d.example/public_html")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
