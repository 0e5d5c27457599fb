//go:build linux

package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// The control panel's save on a shared host runs "discgen build --tenant
// FILE" as the tenant's own user, with the command line of root's full
// build (the same -o and --state). It rebuilds that tenant's files and
// record and nothing else, refuses another user's tenant in one line, and
// root's next full build finds the tenant as the user's build left it.
// Whatever the user writes in the state root's build gave it (a forged
// record, symlinks) makes root's build touch nothing outside the tenant's
// own directory.

const (
	aliceUID = 65534 // nobody
	bobUID   = 65533
)

func TestTenantBuildAsItsUser(t *testing.T) {
	testenv.NeedsRoot(t) // needs root, to make a tree owned by other users and run discgen as one of them (CI runs as root)
	dir, exe := tenantUserTree(t)
	full := []string{"build", "-f", "site.yaml", "-o", "public", "--state", "state", "--tenant-owner"}
	alice := func(args ...string) (int, string, string) {
		return runAs(t, exe, dir, aliceUID, append(append([]string{}, full...), args...)...)
	}
	// Before root's build has made her state, alice's build says that her
	// tenant is not provisioned, and how it is: its status is "not
	// provisioned", not "refused" (a word for what a manifest says),
	// counted among the skipped, in text and in JSON.
	code, stdout, stderr := alice("--tenant", "users/alice/public_html/autodisc.yaml")
	want := "discgen: error: users/alice/public_html: not provisioned: this user may not make its state in state (permission denied); " +
		"a build run as root with --tenant-owner makes it: build --provision, which a control panel runs when it creates the account, or root's full build\n" +
		"discgen: error: tenant users/alice/public_html (/~alice/) not provisioned\n"
	if code != 1 || !strings.HasSuffix(stderr, want) || !strings.Contains(stdout, "0 refused, 1 skipped") {
		t.Errorf("alice's build before root's: exit %d\nstdout:\n%sstderr:\n%swant stderr ending\n%s", code, stdout, stderr, want)
	}
	code, stdout, stderr = alice("--tenant", "users/alice/public_html/autodisc.yaml", "--format", "json")
	if code != 1 || !strings.Contains(stdout, `"directory":"users/alice/public_html","space":"/~alice/","status":"not provisioned"`) ||
		!strings.Contains(stdout, `"skipped":1`) || !strings.HasSuffix(stderr, "discgen: error: tenant users/alice/public_html (/~alice/) not provisioned\n") {
		t.Errorf("alice's build before root's, in JSON: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "users/alice/public_html/autodisc")); err == nil {
		t.Error("alice's build wrote her files without her state")
	}
	if code, stdout, stderr := runAs(t, exe, dir, 0, full...); code != 0 {
		t.Fatalf("root's full build: exit %d\n%s%s", code, stdout, stderr)
	}

	// Alice saves, and her build runs as her.
	before := snapshot(t, dir)
	writeTenant(t, dir, "alice", aliceUID, "alice, saved")
	code, stdout, stderr = alice("--tenant", "users/alice/public_html/autodisc.yaml")
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "users/alice/public_html: 0 added, 1 updated, 0 removed, 2 unchanged\n") {
		t.Fatalf("alice's build as alice: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	after := snapshot(t, dir)
	aliceRec := recordOf(t, dir, "users/alice/public_html")
	aliceState := path.Dir(aliceRec)
	for p, v := range after {
		changed := before[p] != v
		mine := strings.HasPrefix(p, "users/alice/") || p == aliceState || strings.HasPrefix(p, aliceState+"/")
		if changed && !mine {
			t.Errorf("alice's build changed %s, which is not hers", p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("alice's build removed %s", p)
		}
	}
	if before[aliceRec] == after[aliceRec] {
		t.Errorf("alice's record %s was not rewritten", aliceRec)
	}
	if got := readFile(t, dir, "users/alice/public_html/autodisc/description.txt"); got != "alice, saved\n" {
		t.Errorf("alice's description.txt = %q", got)
	}

	// Bob's tenant is not hers: one line says why, and nothing changes.
	before = snapshot(t, dir)
	code, _, stderr = alice("--tenant", "users/bob/public_html/autodisc.yaml")
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	want = fmt.Sprintf("users/bob/public_html belongs to uid %d, not to this user (uid %d)", bobUID, aliceUID)
	if code != 1 || len(lines) != 2 || !strings.Contains(lines[0], want) || !strings.HasPrefix(lines[1], "discgen: error: tenant users/bob/public_html") {
		t.Errorf("alice's build of bob's tenant: exit %d, stderr:\n%s\nwant exit 1 and one line saying %q, then the tenant's status", code, stderr, want)
	}
	if after := snapshot(t, dir); !maps.Equal(before, after) {
		t.Errorf("alice's build of bob's tenant changed files")
	}

	// Root's next full build finds everything as the builds left it.
	code, stdout, stderr = runAs(t, exe, dir, 0, full...)
	if code != 0 || stderr != "" || !strings.HasSuffix(stdout, "tenants: 0 built, 2 unchanged, 0 refused, 0 skipped\n") {
		t.Errorf("root's full build after alice's: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}

	// Alice forges her record to own bob's file and a file of root's:
	// root's build refuses her tenant for it, and touches neither.
	victim := filepath.Join(dir, "victim")
	mustDo(t, os.WriteFile(victim, []byte("root's\n"), 0o644))
	bobIndex := readFile(t, dir, "users/bob/public_html/autodisc/index.txt")
	recFile := filepath.Join(dir, aliceRec)
	rec := readFile(t, dir, aliceRec)
	forged := rec
	for _, p := range []string{"../bob/public_html/autodisc/index.txt", "../../../victim", victim} {
		h := sha256.Sum256([]byte(bobIndex))
		if !strings.Contains(p, "bob") {
			h = sha256.Sum256([]byte("root's\n"))
		}
		forged += fmt.Sprintf("f %x %s\n", h, p)
	}
	asUser(t, aliceUID, recFile, forged)
	writeTenant(t, dir, "alice", aliceUID, "alice, saved again")
	code, stdout, stderr = runAs(t, exe, dir, 0, full...)
	if code != 1 || !strings.Contains(stderr, aliceRec+":8: corrupt ownership record: path not below the output root\n") ||
		!strings.Contains(stdout, "tenants: 0 built, 1 unchanged, 1 refused, 0 skipped\n") {
		t.Errorf("root's build beside alice's forged record: exit %d\nstdout:\n%sstderr:\n%s\nwant alice refused for her record", code, stdout, stderr)
	}
	if got := readFile(t, dir, "users/bob/public_html/autodisc/index.txt"); got != bobIndex {
		t.Errorf("root's build changed bob's index.txt, which alice's record claimed: %q", got)
	}

	// Alice puts her record back, and symlinks to a file of root's where
	// root's build writes her state: it writes through none of them.
	asUser(t, aliceUID, recFile, rec)
	mustDo(t, os.Symlink(victim, recFile+".tmp"))
	stat := strings.TrimSuffix(recFile, ".rec") + ".stat"
	mustDo(t, os.Remove(stat))
	mustDo(t, os.Symlink(victim, stat))
	code, stdout, stderr = runAs(t, exe, dir, 0, full...)
	if code != 0 || !strings.Contains(stdout, "users/alice/public_html: 0 added, 1 updated, 0 removed, 2 unchanged\n") {
		t.Errorf("root's build beside alice's symlinks: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if got := readFile(t, dir, "victim"); got != "root's\n" {
		t.Errorf("root's build wrote %q through alice's state into a file outside her directory", got)
	}
	if got := readFile(t, dir, "users/alice/public_html/autodisc/description.txt"); got != "alice, saved again\n" {
		t.Errorf("after root's build, alice's description.txt = %q", got)
	}
	// And her own build, then root's, go on as before.
	writeTenant(t, dir, "alice", aliceUID, "alice, saved a third time")
	if code, stdout, stderr := alice("--tenant", "users/alice/public_html/autodisc.yaml"); code != 0 || stderr != "" {
		t.Errorf("alice's build after root's: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runAs(t, exe, dir, 0, full...); code != 0 || !strings.HasSuffix(stdout, "tenants: 0 built, 2 unchanged, 0 refused, 0 skipped\n") {
		t.Errorf("root's last build: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
}

// asUser replaces the file name with data, as the user uid would.
func asUser(t *testing.T, uid int, name, data string) {
	t.Helper()
	mustDo(t, os.WriteFile(name+".new", []byte(data), 0o644))
	mustDo(t, os.Chown(name+".new", uid, uid))
	mustDo(t, os.Rename(name+".new", name))
}

// tenantUserTree makes a site delegating ~alice and ~bob to their users'
// directories, readable by every user, and a copy of this test binary
// named discgen that they can run.
func tenantUserTree(t *testing.T) (dir, exe string) {
	dir, err := os.MkdirTemp("", "discgen-tenant-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	mustDo(t, os.Chmod(dir, 0o755))
	site := "version: 1\nsite:\n  url: https://isp.example/\n  description: A shared host\ndelegations:\n  - path: \"~*\"\n    tenants: \"users/*/public_html/autodisc.yaml\"\n"
	mustDo(t, os.WriteFile(filepath.Join(dir, "site.yaml"), []byte(site), 0o644))
	for _, u := range []struct {
		name string
		uid  int
	}{{"alice", aliceUID}, {"bob", bobUID}} {
		home := filepath.Join(dir, "users", u.name)
		mustDo(t, os.MkdirAll(filepath.Join(home, "public_html"), 0o755))
		mustDo(t, os.Chown(home, u.uid, u.uid))
		mustDo(t, os.Chown(filepath.Join(home, "public_html"), u.uid, u.uid))
		writeTenant(t, dir, u.name, u.uid, u.name)
	}
	self, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer self.Close()
	exe = filepath.Join(dir, "bin", "discgen")
	mustDo(t, os.Mkdir(filepath.Dir(exe), 0o755))
	f, err := os.OpenFile(exe, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(f, self)
	mustDo(t, err)
	mustDo(t, f.Close())
	return dir, exe
}

// writeTenant saves user's manifest, as that user.
func writeTenant(t *testing.T, dir, user string, uid int, desc string) {
	t.Helper()
	name := filepath.Join(dir, "users", user, "public_html", "autodisc.yaml")
	body := fmt.Sprintf("version: 1\npath: /~%s/\ndescription: %s\nfeeds:\n  - url: feed.atom\n", user, desc)
	mustDo(t, os.WriteFile(name+".save", []byte(body), 0o644))
	mustDo(t, os.Chown(name+".save", uid, uid))
	mustDo(t, os.Rename(name+".save", name))
}

// runAs runs discgen in dir as the user uid (and its group of the same
// number).
func runAs(t *testing.T, exe, dir string, uid int, args ...string) (int, string, string) {
	t.Helper()
	return runWith(t, exe, dir, uid, uid, nil, args...)
}

// snapshot is every file and directory under dir but the binary, each
// with its type, owner, size, mtime, inode and content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "bin" {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		v := fmt.Sprintf("%v %d:%d %d %d %d", fi.Mode(), st.Uid, st.Gid, fi.Size(), fi.ModTime().UnixNano(), st.Ino)
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		m[filepath.ToSlash(rel)] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// recordOf finds the record named name under dir/state.
func recordOf(t *testing.T, dir, name string) string {
	t.Helper()
	recs, _ := filepath.Glob(filepath.Join(dir, "state", "own", "*", "*", "*.rec"))
	for _, r := range recs {
		data, err := os.ReadFile(r)
		if err == nil && bytes.Contains(data, []byte("\nname "+name+"\n")) {
			rel, _ := filepath.Rel(dir, r)
			return filepath.ToSlash(rel)
		}
	}
	t.Fatalf("no record named %s in %s/state/own (found %v)", name, dir, recs)
	return ""
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A full build run by a user other than root, on a host of many users,
// says in one line why it writes none of the others' tenants and how
// many, rather than two lines a tenant; its own tenant is built.
func TestFullBuildAsOneUser(t *testing.T) {
	testenv.NeedsRoot(t) // to make a tree owned by other users and run discgen as one of them
	dir, exe, full := manyUsersBuilt(t)
	writeTenant(t, dir, "alice", aliceUID, "alice, saved")
	code, stdout, stderr := runAs(t, exe, dir, aliceUID, full...)
	want := fmt.Sprintf("discgen: error: 4 tenants refused: their directories belong to other users (users/bob/public_html, users/carol/public_html, users/dave/public_html and 1 more), and a build not run as root (uid %d) writes only its own user's tenants; run the full build as root with --tenant-owner\n", aliceUID)
	if code != 1 || stderr != want || !strings.HasSuffix(stdout, "tenants: 1 built, 0 unchanged, 4 refused, 0 skipped\n") {
		t.Errorf("alice's full build: exit %d\nstdout:\n%sstderr:\n%swant stderr:\n%s", code, stdout, stderr, want)
	}
}

// On a host whose homes are closed to other users (mode 0750, as cPanel
// and most panels make them), a full build run by a user other than root
// cannot open the others' directories: it says so in one line, with the
// count and a few names, rather than two lines a tenant; its own tenant
// is built.
func TestFullBuildAsOneUserClosedHomes(t *testing.T) {
	testenv.NeedsRoot(t) // to make a tree owned by other users and run discgen as one of them
	dir, exe, full := manyUsersBuilt(t)
	for _, name := range []string{"bob", "carol", "dave", "erin"} {
		mustDo(t, os.Chmod(filepath.Join(dir, "users", name), 0o750))
	}
	writeTenant(t, dir, "alice", aliceUID, "alice, saved")
	code, stdout, stderr := runAs(t, exe, dir, aliceUID, full...)
	want := fmt.Sprintf("discgen: error: 4 tenants skipped: this user (uid %d) may not open their directories (users/bob, users/carol, users/dave and 1 more): they belong to other users, and a build not run as root writes only its own user's tenants; run the full build as root with --tenant-owner\n", aliceUID)
	if code != 1 || stderr != want || !strings.HasSuffix(stdout, "tenants: 1 built, 0 unchanged, 0 refused, 4 skipped\n") {
		t.Errorf("alice's full build: exit %d\nstdout:\n%sstderr:\n%swant stderr:\n%s", code, stdout, stderr, want)
	}
	// In JSON, each tenant is an element as before.
	code, stdout, _ = runAs(t, exe, dir, aliceUID, append(full, "--format", "json")...)
	if code != 1 || strings.Count(stdout, `"status":"skipped"`) != 4 {
		t.Errorf("alice's full build in JSON: exit %d, %d skipped tenants in\n%s", code, strings.Count(stdout, `"status":"skipped"`), stdout)
	}
}

// manyUsersBuilt is tenantUserTree with three more users' tenants (carol,
// dave, erin), built by root's full build, whose arguments it returns.
func manyUsersBuilt(t *testing.T) (dir, exe string, full []string) {
	t.Helper()
	dir, exe = tenantUserTree(t)
	for i, name := range []string{"carol", "dave", "erin"} {
		uid := bobUID - 1 - i
		home := filepath.Join(dir, "users", name)
		mustDo(t, os.MkdirAll(filepath.Join(home, "public_html"), 0o755))
		mustDo(t, os.Chown(home, uid, uid))
		mustDo(t, os.Chown(filepath.Join(home, "public_html"), uid, uid))
		writeTenant(t, dir, name, uid, name)
	}
	full = []string{"build", "-f", "site.yaml", "-o", "public", "--state", "state", "--tenant-owner"}
	if code, stdout, stderr := runAs(t, exe, dir, 0, full...); code != 0 {
		t.Fatalf("root's full build: exit %d\n%s%s", code, stdout, stderr)
	}
	return dir, exe, full
}
