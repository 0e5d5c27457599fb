//go:build linux

package main

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// A control panel creating an account provisions the tenant's state as
// root (build --provision --tenant FILE), before the account has a
// manifest: the account's first save, run as its user, then builds
// instead of failing for want of its state, and nothing else is built.
func TestProvisionBeforeFirstSave(t *testing.T) {
	testenv.NeedsRoot(t) // needs root, to make a tree owned by other users and run discgen as one of them (CI runs as root)
	dir, exe := tenantUserTree(t)
	alice := "users/alice/public_html/autodisc.yaml"
	mustDo(t, os.Remove(filepath.Join(dir, alice))) // a new account: no manifest yet
	common := []string{"build", "-f", "site.yaml", "-o", "public", "--state", "state", "--tenant-owner"}
	provision := append(append([]string{}, common...), "--provision", "--tenant")

	code, stdout, stderr := runAs(t, exe, dir, 0, append(provision, alice)...)
	if code != 0 || stderr != "" || stdout != "users/alice/public_html: state provisioned for uid 65534\n" {
		t.Fatalf("root's provisioning: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	for _, p := range []string{"public", "users/alice/public_html/autodisc", "users/bob/public_html/autodisc"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("provisioning built %s", p)
		}
	}
	// Again: nothing to do, the same line.
	if code, stdout, _ := runAs(t, exe, dir, 0, append(provision, alice)...); code != 0 || stdout != "users/alice/public_html: state provisioned for uid 65534\n" {
		t.Errorf("provisioning again: exit %d\n%s", code, stdout)
	}

	// Alice's first save, as alice, builds.
	writeTenant(t, dir, "alice", aliceUID, "alice's first")
	code, stdout, stderr = runAs(t, exe, dir, aliceUID, append(append([]string{}, common...), "--tenant", alice)...)
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "users/alice/public_html: 3 added") {
		t.Fatalf("alice's first save: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if got := readFile(t, dir, "users/alice/public_html/autodisc/description.txt"); got != "alice's first\n" {
		t.Errorf("alice's description.txt = %q", got)
	}

	// Refused, in one line each, exit 1: not root; a file no glob
	// matches; a tenant directory that is a symlink.
	code, _, stderr = runAs(t, exe, dir, aliceUID, append(provision, alice)...)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--provision: run as root") {
		t.Errorf("provisioning as alice: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runAs(t, exe, dir, 0, append(provision, "elsewhere/autodisc.yaml")...)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "elsewhere/autodisc.yaml: error: no delegation's tenants glob matches this file") {
		t.Errorf("provisioning a file no glob matches: exit %d\n%s", code, stderr)
	}
	mustDo(t, os.MkdirAll(filepath.Join(dir, "users/carol"), 0o755))
	testenv.Symlink(t, "../alice/public_html", filepath.Join(dir, "users/carol/public_html"))
	code, _, stderr = runAs(t, exe, dir, 0, append(provision, "users/carol/public_html/autodisc.yaml")...)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "users/carol/public_html: ") || !strings.Contains(stderr, "symbolic link") {
		t.Errorf("provisioning through a symlink: exit %d\n%s", code, stderr)
	}
	// --provision without --tenant, or with --check, is a usage error.
	if code, _, stderr := runAs(t, exe, dir, 0, append(append([]string{}, common...), "--provision")...); code != 2 {
		t.Errorf("--provision without --tenant: exit %d\n%s", code, stderr)
	}
}

// A control panel removing an account removes the tenant's state as root
// (build --unprovision --tenant FILE) once the account's directory is
// gone, so that a later account of the same name starts without the old
// one's record; while the directory exists, the state is kept.
func TestUnprovisionAfterRemoval(t *testing.T) {
	testenv.NeedsRoot(t) // needs root, to make a tree owned by other users and run discgen as one of them (CI runs as root)
	dir, exe := tenantUserTree(t)
	common := []string{"build", "-f", "site.yaml", "-o", "public", "--state", "state", "--tenant-owner"}
	if code, stdout, stderr := runAs(t, exe, dir, 0, common...); code != 0 {
		t.Fatalf("root's full build: exit %d\n%s%s", code, stdout, stderr)
	}
	aliceState := path.Dir(recordOf(t, dir, "users/alice/public_html"))
	bobRec := recordOf(t, dir, "users/bob/public_html")
	unprovision := append(append([]string{}, common...), "--unprovision", "--tenant", "users/alice/public_html/autodisc.yaml")

	code, stdout, stderr := runAs(t, exe, dir, 0, unprovision...)
	if code != 1 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "users/alice/public_html: error: the directory still exists") {
		t.Errorf("unprovisioning an account whose directory exists: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Lstat(filepath.Join(dir, aliceState)); err != nil {
		t.Errorf("alice's state: %v", err)
	}

	mustDo(t, os.RemoveAll(filepath.Join(dir, "users/alice")))
	code, stdout, stderr = runAs(t, exe, dir, aliceUID, unprovision...)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "--unprovision: run as root") {
		t.Errorf("unprovisioning as alice: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runAs(t, exe, dir, 0, unprovision...)
	if code != 0 || stderr != "" || stdout != "users/alice/public_html: state removed\n" {
		t.Errorf("unprovisioning a removed account: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Lstat(filepath.Join(dir, aliceState)); err == nil {
		t.Errorf("alice's state %s is still there", aliceState)
	}
	if _, err := os.Lstat(filepath.Join(dir, bobRec)); err != nil {
		t.Errorf("bob's record: %v", err)
	}
	code, stdout, _ = runAs(t, exe, dir, 0, unprovision...)
	if code != 0 || stdout != "users/alice/public_html: no state to remove\n" {
		t.Errorf("unprovisioning again: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := runAs(t, exe, dir, 0, append(append([]string{}, common...), "--unprovision", "--provision", "--tenant", "users/alice/public_html/autodisc.yaml")...); code != 2 {
		t.Errorf("--unprovision with --provision: exit %d\n%s", code, stderr)
	}
}
