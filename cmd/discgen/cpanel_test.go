//go:build linux

package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// cPanel's layout: a user's public_html is user:nobody, mode 0750, and the
// web server, in that group, reads through it. Root's full build with
// --tenant-owner, then the user's save with the command line of docs/shared-host.md
// as the user, then root's build again, work whether the user is in the
// directory's group or not, and the web server reads every file either
// build wrote.
func TestTenantBuildAsItsUserCPanel(t *testing.T) {
	testenv.NeedsRoot(t) // to make a tree owned by other users and run discgen as one of them
	const (
		webGID = 65531 // the web server's group, which public_html has
		webUID = 65530 // the web server, in it
	)
	for _, c := range []struct {
		name   string
		groups []uint32 // alice's supplementary groups
		want   int      // the group alice's build gives what it writes
	}{
		{"user not in the directory's group", nil, aliceUID},
		{"user in the directory's group", []uint32{webGID}, webGID},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, exe := tenantUserTree(t)
			pub := filepath.Join(dir, "users/alice/public_html")
			mustDo(t, os.Chown(pub, aliceUID, webGID))
			mustDo(t, os.Chmod(pub, 0o750))
			full := []string{"build", "-f", "site.yaml", "-o", "public", "--state", "state", "--tenant-owner"}
			if code, stdout, stderr := runAs(t, exe, dir, 0, full...); code != 0 {
				t.Fatalf("root's full build: exit %d\n%s%s", code, stdout, stderr)
			}
			// Root's build gives what it writes the directory's group.
			groupsUnder(t, pub, webGID)
			webReads(t, pub, webUID, webGID)

			writeTenant(t, dir, "alice", aliceUID, "alice, saved")
			code, stdout, stderr := runWith(t, exe, dir, aliceUID, aliceUID, c.groups,
				append(full, "--tenant", "users/alice/public_html/autodisc.yaml")...)
			if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "users/alice/public_html: 0 added, 1 updated, 0 removed, 2 unchanged\n") {
				t.Fatalf("alice's save as alice: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
			}
			if got := readFile(t, dir, "users/alice/public_html/autodisc/description.txt"); got != "alice, saved\n" {
				t.Errorf("alice's description.txt = %q", got)
			}
			if g := groupOf(t, filepath.Join(pub, "autodisc/description.txt")); g != c.want {
				t.Errorf("alice's build gave description.txt group %d, want %d", g, c.want)
			}
			webReads(t, pub, webUID, webGID)

			code, stdout, stderr = runAs(t, exe, dir, 0, full...)
			if code != 0 || stderr != "" || !strings.HasSuffix(stdout, "tenants: 0 built, 2 unchanged, 0 refused, 0 skipped\n") {
				t.Errorf("root's build after alice's: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
			}
			writeTenant(t, dir, "alice", aliceUID, "alice, saved again")
			if code, stdout, stderr := runAs(t, exe, dir, 0, full...); code != 0 || stderr != "" {
				t.Errorf("root's build of alice's second save: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
			}
			if g := groupOf(t, filepath.Join(pub, "autodisc/description.txt")); g != webGID {
				t.Errorf("root's build gave description.txt group %d, want the directory's, %d", g, webGID)
			}
			webReads(t, pub, webUID, webGID)
		})
	}
}

// runWith runs discgen in dir as the user uid, with group gid and the
// supplementary groups (as this process, when all three are root's and
// no group is given).
func runWith(t *testing.T, exe, dir string, uid, gid int, groups []uint32, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME=/nonexistent")
	if uid != 0 || gid != 0 || groups != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: groups}}
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("discgen as uid %d: %v", uid, err)
	}
	return code, stdout.String(), stderr.String()
}

func groupOf(t *testing.T, p string) int {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return int(fi.Sys().(*syscall.Stat_t).Gid)
}

// groupsUnder checks that every file and directory discgen wrote under
// pub (its autodisc/) has the group gid.
func groupsUnder(t *testing.T, pub string, gid int) {
	t.Helper()
	filepath.WalkDir(filepath.Join(pub, "autodisc"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Error(err)
			return nil
		}
		if g := groupOf(t, p); g != gid {
			t.Errorf("%s: group %d, want %d", p, g, gid)
		}
		return nil
	})
}

// webReads reads every file discgen wrote under pub as the web server
// (uid, in group gid), which reaches them through pub by its group.
func webReads(t *testing.T, pub string, uid, gid int) {
	t.Helper()
	var files []string
	filepath.WalkDir(filepath.Join(pub, "autodisc"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatalf("no files under %s", pub)
	}
	cmd := exec.Command("cat", files...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the web server cannot read what discgen wrote: %v\n%s", err, out)
	}
}
