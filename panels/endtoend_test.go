//go:build linux

package panels

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/internal/testing/testenv"
)

// TestCpanelEndToEnd runs the cPanel adapter as cPanel does, as root, with
// the real discgen and runuser, for an account of the user nobody: its
// creation provisions the account's state, so that its first save, as
// nobody, builds; its removal, once its home is gone, removes that state.
// Only getent is a stub, giving nobody a home in the test's home root.
func TestCpanelEndToEnd(t *testing.T) {
	testenv.NeedsLong(t)
	testenv.NeedsLinux(t)
	testenv.NeedsRoot(t) // needs root, as cPanel runs its hooks, to run a save as another user (CI's long job runs as root)
	testenv.NeedsTool(t, "runuser", "apt-get install util-linux")
	testenv.NeedsTool(t, "perl", "apt-get install perl")
	const uid = 65534 // nobody
	dir := livetest.Dir(t)
	bin := filepath.Join(dir, "bin")
	must(t, os.MkdirAll(bin, 0o755))
	discgen := filepath.Join(bin, "discgen")
	if out, err := exec.Command("go", "build", "-o", discgen, "../cmd/discgen").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home", "nobody")
	pub := filepath.Join(home, "public_html")
	must(t, os.MkdirAll(pub, 0o755))
	must(t, os.Chown(home, uid, uid))
	must(t, os.Chown(pub, uid, uid))
	must(t, os.WriteFile(filepath.Join(dir, "passwd"), fmt.Appendf(nil, "nobody:x:%d:%d::%s:/bin/sh\n", uid, uid, home), 0o644))
	must(t, os.WriteFile(filepath.Join(bin, "getent"), []byte(`#!/bin/sh
[ "$1" = passwd ] && [ "$2" = -- ] || exit 1
awk -F: -v n="$3" '$1 == n { print; found = 1 } END { exit !found * 2 }' `+filepath.Join(dir, "passwd")+"\n"), 0o755))
	site := filepath.Join(dir, "site.yaml")
	must(t, os.WriteFile(site, fmt.Appendf(nil, "version: 1\nsite:\n  url: https://isp.example/\n  description: An ISP\ndelegations:\n  - path: \"~*\"\n    tenants: %q\n",
		filepath.Join(dir, "home", "*", "public_html", "autodisc.yaml")), 0o644))
	state := filepath.Join(dir, "state")
	libSrc, err := os.ReadFile("panel.sh")
	must(t, err)
	lib := filepath.Join(dir, "panel.sh")
	must(t, os.WriteFile(lib, libSrc, 0o644))
	conf := filepath.Join(dir, "panel.conf")
	must(t, os.WriteFile(conf, fmt.Appendf(nil, "PATH=%s:/usr/sbin:/usr/bin:/sbin:/bin\nDISCGEN=%s\nDISCGEN_SITE=%s\nDISCGEN_OUT=%s\nDISCGEN_STATE=%s\nDISCGEN_HOME_ROOT=%s\nDISCGEN_LIB=%s\n",
		bin, discgen, site, filepath.Join(dir, "public"), state, filepath.Join(dir, "home"), lib), 0o644))
	src, err := os.ReadFile("cpanel/discgen-hook.sh")
	must(t, err)
	hook := filepath.Join(dir, "discgen-hook.sh")
	must(t, os.WriteFile(hook, []byte(strings.Replace(string(src), "\nconf=/etc/discgen/panel.conf\n", "\nconf="+conf+"\n", 1)), 0o755))

	run := func(event string) (int, string) {
		t.Helper()
		cmd := exec.Command(hook)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"context":{"category":"Whostmgr","event":%q,"stage":"post"},"data":{"user":"nobody","homedir":%q}}`, event, home))
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	save := func() (int, string) {
		t.Helper()
		cmd := exec.Command(discgen, "build", "-f", site, "-o", filepath.Join(dir, "public"), "--state", state, "--tenant-owner",
			"--tenant", filepath.Join(pub, "autodisc.yaml"))
		cmd.Dir = "/"
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	writeManifest := func(desc string) {
		p := filepath.Join(pub, "autodisc.yaml")
		must(t, os.WriteFile(p, fmt.Appendf(nil, "version: 1\npath: /~nobody/\ndescription: %s\n", desc), 0o644))
		must(t, os.Chown(p, uid, uid))
	}

	// Without provisioning, the account's first save is skipped as not
	// provisioned.
	writeManifest("first")
	if code, out := save(); code != 1 || !strings.Contains(out, "not provisioned") {
		t.Fatalf("a save before the account's creation hook: exit %d\n%s", code, out)
	}
	must(t, os.Remove(filepath.Join(pub, "autodisc.yaml")))

	if code, out := run("Accounts::Create"); code != 0 || !strings.Contains(out, "state provisioned for uid 65534") {
		t.Fatalf("Accounts::Create: exit %d\n%s", code, out)
	}
	writeManifest("saved")
	if code, out := save(); code != 0 {
		t.Fatalf("the account's first save, as nobody: exit %d\n%s", code, out)
	}
	desc := filepath.Join(pub, "autodisc", "description.txt")
	if data, err := os.ReadFile(desc); err != nil || string(data) != "saved\n" {
		t.Errorf("%s: %q, %v", desc, data, err)
	}
	if fi, err := os.Stat(desc); err == nil && fi.Sys().(*syscall.Stat_t).Uid != uid {
		t.Errorf("%s belongs to uid %d, want %d", desc, fi.Sys().(*syscall.Stat_t).Uid, uid)
	}

	// Modify: the account's tenant is built as its user.
	writeManifest("modified")
	if code, out := run("Accounts::Modify"); code != 0 {
		t.Fatalf("Accounts::Modify: exit %d\n%s", code, out)
	}
	if data, _ := os.ReadFile(desc); string(data) != "modified\n" {
		t.Errorf("after Accounts::Modify, %s: %q", desc, data)
	}

	// Remove: the state stays while the home does, and goes with it.
	roots, _ := filepath.Glob(filepath.Join(state, "roots", "*", "*"))
	if len(roots) != 1 {
		t.Fatalf("state roots: %v, want one", roots)
	}
	if code, out := run("Accounts::Remove"); code != 1 || !strings.Contains(out, "still exists") {
		t.Errorf("Accounts::Remove with the home there: exit %d\n%s", code, out)
	}
	must(t, os.RemoveAll(home))
	if code, out := run("Accounts::Remove"); code != 0 || !strings.Contains(out, "state removed") {
		t.Errorf("Accounts::Remove: exit %d\n%s", code, out)
	}
	if _, err := os.Lstat(roots[0]); err == nil {
		t.Errorf("the account's state %s is still there", roots[0])
	}
}
