//go:build linux

package main

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// Root's full build journals its batches in the build's state directory,
// readable by root only: a batch names what it writes for every tenant in
// it. When one was killed while writing alice's tenant, her own build
// cannot read what it left there: it refuses the file as not discgen's,
// overwriting nothing, and root's next build recovers the journal into her
// record and builds her tenant.
func TestTenantBuildBesideKilledRootBatch(t *testing.T) {
	dir, exe, full := rootBuiltTree(t)

	// What root's batch left when killed after renaming alice's new
	// description.txt: the file, and the batch's journal, whose intent
	// owns both contents.
	desc := "users/alice/public_html/autodisc/description.txt"
	killed := "from root's killed build\n"
	rec := readFile(t, dir, recordOf(t, dir, "users/alice/public_html"))
	if !strings.Contains(rec, "\nstate complete\n") {
		t.Fatalf("alice's record:\n%s", rec)
	}
	intent := strings.Replace(rec, "\nstate complete\n", "\nstate incomplete\n", 1) +
		fmt.Sprintf("f %x autodisc/description.txt\n", sha256.Sum256([]byte(killed)))
	journal := filepath.Join(dir, "state", "journal", "0123456789abcdef.jnl")
	mustDo(t, os.WriteFile(journal, fmt.Appendf(nil, "discgen output journal 1\nrecord %d\n%s", len(intent), intent), 0o600))
	mustDo(t, os.WriteFile(filepath.Join(dir, desc), []byte(killed), 0o644))
	mustDo(t, os.Chown(filepath.Join(dir, desc), aliceUID, aliceUID))

	// Alice saves: her build refuses the file it cannot own, and changes
	// nothing.
	writeTenant(t, dir, "alice", aliceUID, "alice, saved")
	before := snapshot(t, dir)
	code, stdout, stderr := runAs(t, exe, dir, aliceUID, append(full, "--tenant", "users/alice/public_html/autodisc.yaml")...)
	if code != 1 || !strings.Contains(stderr, "autodisc/description.txt") || strings.Contains(stderr, "permission denied") {
		t.Errorf("alice's build beside root's killed batch: exit %d\nstdout:\n%sstderr:\n%s\nwant exit 1, description.txt refused", code, stdout, stderr)
	}
	if after := snapshot(t, dir); !maps.Equal(before, after) {
		for p, v := range after {
			if before[p] != v {
				t.Errorf("alice's build changed %s", p)
			}
		}
	}

	// Root's next build recovers its journal and builds her save.
	code, stdout, stderr = runAs(t, exe, dir, 0, full...)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "users/alice/public_html: 0 added, 1 updated, 0 removed, 2 unchanged\n") {
		t.Errorf("root's build after its killed batch: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Errorf("root's killed batch's journal not recovered: %v", err)
	}
	if got := readFile(t, dir, desc); got != "alice, saved\n" {
		t.Errorf("alice's description.txt = %q", got)
	}
	writeTenant(t, dir, "alice", aliceUID, "alice, saved again")
	if code, stdout, stderr := runAs(t, exe, dir, aliceUID, append(full, "--tenant", "users/alice/public_html/autodisc.yaml")...); code != 0 || stderr != "" {
		t.Errorf("alice's build after root's recovery: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
}

// A build of alice's own, killed after renaming her new description.txt,
// leaves its journal in her tenant's own journal directory: root's next
// full build recovers it there, owns what it left, and builds her tenant.
func TestRootRecoversKilledTenantBuild(t *testing.T) {
	dir, exe, full := rootBuiltTree(t)
	desc := "users/alice/public_html/autodisc/description.txt"
	killed := "from alice's killed build\n"
	recFile := recordOf(t, dir, "users/alice/public_html")
	rec := readFile(t, dir, recFile)
	intent := strings.Replace(rec, "\nstate complete\n", "\nstate incomplete\n", 1) +
		fmt.Sprintf("f %x autodisc/description.txt\n", sha256.Sum256([]byte(killed)))
	journal := filepath.Join(dir, filepath.Dir(recFile), "0123456789abcdef.jnl")
	mustDo(t, os.WriteFile(journal, fmt.Appendf(nil, "discgen output journal 1\nrecord %d\n%s", len(intent), intent), 0o600))
	mustDo(t, os.Chown(journal, aliceUID, aliceUID))
	mustDo(t, os.WriteFile(filepath.Join(dir, desc), []byte(killed), 0o644))
	mustDo(t, os.Chown(filepath.Join(dir, desc), aliceUID, aliceUID))

	code, stdout, stderr := runAs(t, exe, dir, 0, full...)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "users/alice/public_html: 0 added, 1 updated, 0 removed, 2 unchanged\n") {
		t.Errorf("root's build after alice's killed build: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Errorf("alice's killed build's journal not recovered: %v", err)
	}
	if got := readFile(t, dir, desc); got != "alice\n" {
		t.Errorf("alice's description.txt = %q", got)
	}
}

// rootBuiltTree is tenantUserTree after root's full build, and that
// build's arguments. It skips unless run as root.
func rootBuiltTree(t *testing.T) (dir, exe string, full []string) {
	t.Helper()
	testenv.NeedsRoot(t) // needs root, to make a tree owned by other users and run discgen as one of them (CI runs as root)
	dir, exe = tenantUserTree(t)
	full = []string{"build", "-f", "site.yaml", "-o", "public", "--state", "state", "--tenant-owner"}
	if code, stdout, stderr := runAs(t, exe, dir, 0, full...); code != 0 {
		t.Fatalf("root's full build: exit %d\n%s%s", code, stdout, stderr)
	}
	return dir, exe, full
}

// A journal in alice's own journal directory is only a hint for her own
// record, and within its bound: one whose intent would take the record
// past the lines her delegation lets it hold is not merged. Root's build
// refuses her alone, with the line past the bound, and leaves her record
// and journal as they were; the site and the other tenants are built.
func TestRootRecoveryKeepsTenantRecordWithinBound(t *testing.T) {
	dir, exe, full := rootBuiltTree(t)
	recFile := recordOf(t, dir, "users/alice/public_html")
	rec := readFile(t, dir, recFile)
	var intent strings.Builder
	intent.WriteString(strings.Replace(rec, "\nstate complete\n", "\nstate incomplete\n", 1))
	for i := range 8100 { // the default delegation's records hold 8,064 paths
		fmt.Fprintf(&intent, "f %x p%05d.txt\n", sha256.Sum256([]byte("p\n")), i)
	}
	journal := filepath.Join(dir, filepath.Dir(recFile), "0123456789abcdef.jnl")
	mustDo(t, os.WriteFile(journal, fmt.Appendf(nil, "discgen output journal 1\nrecord %d\n%s", intent.Len(), intent.String()), 0o600))
	mustDo(t, os.Chown(journal, aliceUID, aliceUID))
	writeTenant(t, dir, "alice", aliceUID, "alice, saved") // her tenant is built, not fresh

	code, stdout, stderr := runAs(t, exe, dir, 0, full...)
	if code != 1 || !strings.Contains(stderr, "ownership record names more than 8064 paths") || strings.Count(stderr, "users/") != strings.Count(stderr, "users/alice/") {
		t.Errorf("root's build beside alice's journal past her bound: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if got := readFile(t, dir, recFile); got != rec {
		t.Errorf("alice's record was changed: %d bytes, was %d", len(got), len(rec))
	}
	if _, err := os.Stat(journal); err != nil {
		t.Errorf("alice's journal: %v, want it left", err)
	}
}
