//go:build linux

package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/otheruser"
)

// A tenant's owner controls what root's build gave it in the state
// directory (its own directory: its record, stat cache and journals) and its
// public_html, and any account can open what is world-readable. None of
// it is a lock root's build waits on, nor a command it follows: what a
// tenant plants there defers or refuses that tenant alone, and the site
// and every other tenant are built in the same run.

// ownState is the tenant's own state directory (relative to dir).
func ownState(t *testing.T, dir, tenant string) string {
	t.Helper()
	return path.Dir(recordOf(t, dir, tenant))
}

// killedRootBatch writes the journal root's batch leaves when killed
// after renaming each tenant's new description.txt: the file, written
// with killed, and an intent owning both contents.
func killedRootBatch(t *testing.T, dir string, users ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("discgen output journal 1\n")
	for _, u := range users {
		tenant := "users/" + u + "/public_html"
		killed := "from root's killed build, " + u + "\n"
		rec := readFile(t, dir, recordOf(t, dir, tenant))
		intent := strings.Replace(rec, "\nstate complete\n", "\nstate incomplete\n", 1) +
			fmt.Sprintf("f %x autodisc/description.txt\n", sha256.Sum256([]byte(killed)))
		fmt.Fprintf(&b, "record %d\n%s", len(intent), intent)
		desc := filepath.Join(dir, tenant, "autodisc", "description.txt")
		mustDo(t, os.WriteFile(desc, []byte(killed), 0o644))
	}
	journal := filepath.Join(dir, "state", "journal", "0123456789abcdef.jnl")
	mustDo(t, os.WriteFile(journal, []byte(b.String()), 0o600))
	return journal
}

// timedRun is runAs as root, failing the test when the build takes more
// than a few seconds: waiting on a lock took 10 s.
func timedRun(t *testing.T, exe, dir string, args ...string) (int, string, string) {
	t.Helper()
	start := time.Now()
	code, stdout, stderr := runAs(t, exe, dir, 0, args...)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("root's build took %v: it waited on a lock another account holds", d)
	}
	return code, stdout, stderr
}

// A tenant holding its own journal directory's lock (and its
// public_html's), as its owner's build does, is tried once: root's build
// defers that tenant in one line and builds every other one at once. The
// same after a killed root build whose batch named the tenant: the
// others are recovered and built, and what the build cannot recover
// stays in the journal for the tenant's turn.
func TestRootBuildDefersTenantHoldingItsLock(t *testing.T) {
	dir, exe, full := rootBuiltTree(t)
	alice := "users/alice/public_html"
	release := otheruser.HoldUntil(t, aliceUID, filepath.Join(dir, ownState(t, dir, alice)), false)
	if release == nil {
		t.Fatal("alice could not lock her own journal directory")
	}
	if !otheruser.Hold(t, aliceUID, filepath.Join(dir, alice), false) {
		t.Fatal("alice could not lock her public_html")
	}
	writeTenant(t, dir, "alice", aliceUID, "alice, saved")
	writeTenant(t, dir, "bob", bobUID, "bob, saved")
	deferred := "discgen: error: " + alice + ": its state is locked by another process (its owner's build?); deferred to the next build\n"
	code, stdout, stderr := timedRun(t, exe, dir, full...)
	if code != 1 || !strings.Contains(stderr, deferred) || !strings.Contains(stdout, "users/bob/public_html: 0 added, 1 updated, 0 removed, 2 unchanged\n") ||
		!strings.HasSuffix(stdout, "tenants: 1 built, 0 unchanged, 0 refused, 1 skipped\n") || strings.Contains(stderr, "bob") {
		t.Errorf("root's build beside alice's lock: exit %d\nstdout:\n%sstderr:\n%swant alice deferred, bob built", code, stdout, stderr)
	}

	// Root's build is killed with both in its batch; alice still holds
	// her lock.
	journal := killedRootBatch(t, dir, "alice", "bob")
	writeTenant(t, dir, "bob", bobUID, "bob, saved again")
	code, stdout, stderr = timedRun(t, exe, dir, full...)
	if code != 1 || !strings.Contains(stderr, deferred) || !strings.Contains(stdout, "users/bob/public_html: 0 added, 1 updated, 0 removed, 2 unchanged\n") ||
		!strings.HasSuffix(stdout, "tenants: 1 built, 0 unchanged, 0 refused, 1 skipped\n") {
		t.Errorf("root's build after its killed batch, beside alice's lock: exit %d\nstdout:\n%sstderr:\n%swant alice deferred, bob recovered and built", code, stdout, stderr)
	}
	if got := readFile(t, dir, "users/bob/public_html/autodisc/description.txt"); got != "bob, saved again\n" {
		t.Errorf("bob's description.txt = %q", got)
	}

	// Alice's build ends: the next build recovers and builds her.
	release()
	code, stdout, stderr = timedRun(t, exe, dir, full...)
	if code != 0 || !strings.Contains(stdout, alice+": 0 added, 1 updated, 0 removed, 2 unchanged\n") {
		t.Errorf("root's build once alice's lock is gone: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Errorf("the killed batch's journal is still there: %v", err)
	}
	if got := readFile(t, dir, alice+"/autodisc/description.txt"); got != "alice, saved\n" {
		t.Errorf("alice's description.txt = %q", got)
	}
}

// Whatever a tenant puts at a name in its state directory (a directory
// where root's build writes a temporary file, or where her record goes)
// refuses that tenant at most, never the build: not in the run, and not
// at the start-up recovery of a killed build's journal.
func TestRootBuildBesidePlantedRecordNames(t *testing.T) {
	dir, exe, full := rootBuiltTree(t)
	alice := "users/alice/public_html"
	rec := filepath.Join(dir, recordOf(t, dir, alice))
	if out, err := otheruser.Sh(t, aliceUID, `mkdir "$1.tmp" && echo x > "$1.tmp/x"`, rec); err != nil {
		t.Fatalf("alice's mkdir: %v\n%s", err, out)
	}
	for round := range 2 {
		writeTenant(t, dir, "alice", aliceUID, fmt.Sprintf("alice, saved %d", round))
		writeTenant(t, dir, "bob", bobUID, fmt.Sprintf("bob, saved %d", round))
		code, stdout, stderr := runAs(t, exe, dir, 0, full...)
		if code != 0 || !strings.HasSuffix(stdout, "tenants: 2 built, 0 unchanged, 0 refused, 0 skipped\n") {
			t.Errorf("root's build %d beside alice's directory at %s.tmp: exit %d\nstdout:\n%sstderr:\n%s", round, rec, code, stdout, stderr)
		}
	}

	// Her record itself becomes a directory: she alone is refused, and
	// the journal of a killed build naming her and bob is recovered for
	// bob, and kept for her.
	if out, err := otheruser.Sh(t, aliceUID, `rm -f "$1" && mkdir "$1" && echo x > "$1/x"`, rec); err != nil {
		t.Fatalf("alice's mkdir: %v\n%s", err, out)
	}
	journal := killedRootBatch(t, dir, "bob")
	writeTenant(t, dir, "bob", bobUID, "bob, saved again")
	code, stdout, stderr := runAs(t, exe, dir, 0, full...)
	if code != 1 || !strings.HasSuffix(stdout, "tenants: 1 built, 0 unchanged, 1 refused, 0 skipped\n") ||
		!strings.Contains(stderr, "discgen: error: tenant "+alice) || strings.Contains(stderr, "tenant users/bob") {
		t.Errorf("root's build beside alice's directory at her record: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Errorf("bob's journal is still there: %v", err)
	}
	plantAliceIntent(t, dir, rec)
	code, stdout, stderr = runAs(t, exe, dir, 0, full...)
	if code != 1 || !strings.HasSuffix(stdout, "tenants: 0 built, 1 unchanged, 1 refused, 0 skipped\n") || strings.Contains(stderr, "tenant users/bob") {
		t.Errorf("root's build after a killed batch naming alice: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	// She removes it: her next build by root recovers and builds her.
	if out, err := otheruser.Sh(t, aliceUID, `rm -r "$1"`, rec); err != nil {
		t.Fatalf("alice's rm: %v\n%s", err, out)
	}
	code, stdout, stderr = runAs(t, exe, dir, 0, full...)
	if code != 0 || !strings.Contains(stdout, alice+": ") {
		t.Errorf("root's build once alice removed her directory: exit %d\nstdout:\n%sstderr:\n%s", code, stdout, stderr)
	}
	if js, _ := filepath.Glob(filepath.Join(dir, "state", "journal", "*.jnl")); len(js) != 0 {
		t.Errorf("journals left: %v", js)
	}
}

// plantAliceIntent writes a killed root batch's journal naming alice
// alone, from the record her directory at rec replaced (rebuilt from
// nothing: she owns nothing in it).
func plantAliceIntent(t *testing.T, dir, rec string) {
	t.Helper()
	intent := "discgen output record 2\nname users/alice/public_html\nstate incomplete\n"
	journal := filepath.Join(dir, "state", "journal", "1123456789abcdef.jnl")
	mustDo(t, os.WriteFile(journal, fmt.Appendf(nil, "discgen output journal 1\nrecord %d\n%s", len(intent), intent), 0o600))
}

// Root's verdict about a tenant (why its manifest was refused, kept so
// that the next builds need not check it again) is kept where the tenant
// cannot write: what the tenant writes in its own state directory, even
// under the verdict's own key line, is never printed as root's.
func TestRootVerdictIsNotTheTenants(t *testing.T) {
	dir, exe, full := rootBuiltTree(t)
	alice := "users/alice/public_html"
	manifest := filepath.Join(dir, alice, "autodisc.yaml")
	mustDo(t, os.WriteFile(manifest+".save", []byte("version: 1\npath: /~alice/\ndescription: \"a\\nb\"\n"), 0o644))
	mustDo(t, os.Chown(manifest+".save", aliceUID, aliceUID))
	mustDo(t, os.Rename(manifest+".save", manifest))
	code, _, verdict := runAs(t, exe, dir, 0, full...)
	if code != 1 || !strings.Contains(verdict, alice+"/autodisc.yaml:3:") {
		t.Fatalf("root's build of alice's invalid manifest: exit %d\n%s", code, verdict)
	}

	// Wherever root keeps it, alice writes her own verdict under its key
	// line in her records directory, and tries root's.
	kept, _ := filepath.Glob(filepath.Join(dir, "state", "*", "*", "*", "*", "*", "*", "*", "*.refused.stat"))
	more, _ := filepath.Glob(filepath.Join(dir, "state", "refused", "*", "*", "*"))
	kept = append(kept, more...)
	if len(kept) != 1 {
		t.Fatalf("root's verdicts: %v, want one", kept)
	}
	head := strings.SplitAfterN(readFile(t, dir, mustRel(t, dir, kept[0])), "\n", 3)
	forged := head[0] + head[1] + `[{"file":"/etc/shadow","line":1,"col":1,"message":"forged by alice"}]`
	rec := filepath.Join(dir, recordOf(t, dir, alice))
	mine := strings.TrimSuffix(rec, ".rec") + ".refused.stat"
	for _, f := range []string{mine, kept[0]} {
		out, err := otheruser.Sh(t, aliceUID, `printf '%s' "$2" > "$1.x" && mv -f "$1.x" "$1"`, f, forged)
		t.Logf("alice writes %s: %v %s", f, err, out)
	}
	code, _, stderr := runAs(t, exe, dir, 0, full...)
	if code != 1 || strings.Contains(stderr, "forged") || stderr != verdict {
		t.Errorf("root's build beside alice's verdict: exit %d\n%s\nwant root's own verdict:\n%s", code, stderr, verdict)
	}
}

func mustRel(t *testing.T, dir, p string) string {
	t.Helper()
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// One tenant's state never stops anyone else's build: beside tenants
// that each hold or plant what they can in what they own, and another
// account holding every lock it can open, after a killed root build, a
// root full build builds the site and every other tenant in the same
// run, at once, and exits 1 naming only the tenants it could not build.
func TestRootBuildBesideHostileTenants(t *testing.T) {
	dir, exe, full := rootBuiltTree(t)
	const other = 65520 // an account that is no tenant
	tenants := map[string]int{"carol": 65532, "dave": 65531, "erin": 65530, "frank": 65529, "gina": 65528}
	for name, uid := range tenants {
		home := filepath.Join(dir, "users", name)
		mustDo(t, os.MkdirAll(filepath.Join(home, "public_html"), 0o755))
		mustDo(t, os.Chown(home, uid, uid))
		mustDo(t, os.Chown(filepath.Join(home, "public_html"), uid, uid))
		writeTenant(t, dir, name, uid, name)
	}
	tenants["alice"], tenants["bob"] = aliceUID, bobUID
	if code, stdout, stderr := runAs(t, exe, dir, 0, full...); code != 0 {
		t.Fatalf("root's build of every tenant: exit %d\n%s%s", code, stdout, stderr)
	}
	// Root's next build is killed with bob, carol, dave and gina in its
	// batch.
	killedRootBatch(t, dir, "bob", "carol", "dave", "gina")

	// alice holds her journal directory's lock and her public_html's.
	alice := "users/alice/public_html"
	if !otheruser.Hold(t, aliceUID, filepath.Join(dir, ownState(t, dir, alice)), false) ||
		!otheruser.Hold(t, aliceUID, filepath.Join(dir, alice), false) {
		t.Fatal("alice could not lock what is hers")
	}
	// carol puts a directory where root's build wrote her record's
	// temporary file.
	sh := func(user, script string, args ...string) {
		t.Helper()
		if out, err := otheruser.Sh(t, tenants[user], script, args...); err != nil {
			t.Fatalf("%s: %v\n%s", user, err, out)
		}
	}
	carolRec := filepath.Join(dir, recordOf(t, dir, "users/carol/public_html"))
	sh("carol", `mkdir "$1.tmp" && echo x > "$1.tmp/x"`, carolRec)
	// dave writes a journal of 20,000 intents naming other records.
	var b strings.Builder
	b.WriteString("discgen output journal 1\n")
	for i := range 20_000 {
		in := fmt.Sprintf("discgen output record 2\nname users/x%d/public_html\nstate incomplete\n", i)
		fmt.Fprintf(&b, "record %d\n%s", len(in), in)
	}
	hint := filepath.Join(dir, "hint.jnl")
	mustDo(t, os.WriteFile(hint, []byte(b.String()), 0o644))
	daveJournal := filepath.Join(dir, ownState(t, dir, "users/dave/public_html"))
	sh("dave", `cp "$1" "$2/0123456789abcdef.jnl"`, hint, daveJournal)
	// erin makes her record a directory.
	erinRec := filepath.Join(dir, recordOf(t, dir, "users/erin/public_html"))
	sh("erin", `rm -f "$1" && mkdir "$1" && echo x > "$1/x"`, erinRec)
	// Another account locks every directory it can open.
	locked := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && otheruser.Hold(t, other, p, false) {
			locked++
		}
		return nil
	})
	t.Logf("uid %d holds the lock of %d directories", other, locked)

	for name, uid := range tenants {
		writeTenant(t, dir, name, uid, name+", saved")
	}
	want := map[string]string{alice: "skipped", "users/erin/public_html": "refused"}
	for round := range 2 {
		code, stdout, stderr := timedRun(t, exe, dir, full...)
		var failed []string
		for _, line := range strings.Split(stderr, "\n") {
			if rest, ok := strings.CutPrefix(line, "discgen: error: tenant "); ok {
				failed = append(failed, rest)
			}
		}
		if code != 1 || len(failed) != len(want) {
			t.Errorf("build %d: exit %d, tenants failed: %q, want %v\nstdout:\n%sstderr:\n%s", round, code, failed, want, stdout, stderr)
		}
		for _, f := range failed {
			tenant, _, _ := strings.Cut(f, " (")
			if st, ok := want[tenant]; !ok || !strings.HasSuffix(f, " "+st) {
				t.Errorf("build %d: %s", round, f)
			}
		}
		if round == 0 {
			for _, name := range []string{"bob", "carol", "dave", "frank", "gina"} {
				if !strings.Contains(stdout, "users/"+name+"/public_html: 0 added, 1 updated, 0 removed, 2 unchanged\n") {
					t.Errorf("%s not built:\n%s", name, stdout)
				}
			}
			if !strings.Contains(stdout, "public: 0 added, 0 updated, 0 removed, 3 unchanged\n") {
				t.Errorf("the site not built:\n%s", stdout)
			}
		}
	}
	// dave's journal created nothing of root's in his state.
	var made []string
	filepath.WalkDir(filepath.Join(dir, ownState(t, dir, "users/dave/public_html")), func(p string, d os.DirEntry, err error) error {
		if err == nil && !strings.HasSuffix(p, ".rec") && !strings.HasSuffix(p, ".stat") && !strings.HasSuffix(p, ".jnl") && !d.IsDir() {
			made = append(made, p)
		}
		return nil
	})
	var dirs []string
	entries, _ := os.ReadDir(filepath.Join(dir, ownState(t, dir, "users/dave/public_html")))
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(entries) == 0 || len(dirs) != 0 || len(made) != 0 {
		t.Errorf("dave's journal made %v and %v (his state directory holds %d names)", dirs, made, len(entries))
	}
}
