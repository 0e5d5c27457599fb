//go:build linux

package output

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/confined"
	"github.com/discgen/discgen/internal/testing/livetest"
	"github.com/discgen/discgen/internal/testing/otheruser"
	"github.com/discgen/discgen/output/internal/journal"
	"github.com/discgen/discgen/output/internal/record"
)

// What another local account can open, it can lock: nothing a build run
// as root waits on may be such a thing. Each test has the account (the
// user nobody) take what it can, then times root's build beside it.

// writeBeside writes a small tree into root with state, and fails the
// test unless it succeeds within a second: a build that waits on another
// account's lock takes LockWait (2 s here) and fails.
func writeBeside(t *testing.T, root, state string) {
	t.Helper()
	start := time.Now()
	_, _, err := Write(root, files("a.txt", "a "+time.Now().String()+"\n"), Options{StateDir: state, NoSync: true, LockWait: 2 * time.Second})
	if err != nil {
		t.Errorf("root's build beside another account's lock: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("root's build beside another account's lock took %v", d)
	}
}

// Root's journal directory (STATE/journal) is root's alone, mode 0700,
// and one an earlier build made 0755 is narrowed: no other account can
// open it, and so none can lock it.
func TestJournalDirIsRootsAlone(t *testing.T) {
	base, root, state, jdir := oldJournalDir(t)
	writeBeside(t, root, state)
	if fi, err := os.Stat(jdir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s after root's build: %v %v, want mode 0700", jdir, fi.Mode(), err)
	}
	if otheruser.Hold(t, otheruser.Nobody, jdir, false) {
		t.Errorf("uid %d opened and locked root's journal directory", otheruser.Nobody)
	}
	writeBeside(t, root, state)
	// A new state directory gets its journal directory 0700 at once.
	state2 := filepath.Join(base, "state2")
	writeBeside(t, filepath.Join(base, "public2"), state2)
	if fi, err := os.Stat(filepath.Join(state2, record.JournalDir)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("a new journal directory: %v %v, want mode 0700", fi.Mode(), err)
	}
}

// An account that opened root's journal directory while an earlier
// version left it 0755 keeps its descriptor once the directory is
// narrowed, and its flock on it: root's locks are files in the
// directory, which it cannot open, so root's builds and recoveries go on
// beside it at once.
func TestOldJournalDirDescriptorLocksNothing(t *testing.T) {
	_, root, state, jdir := oldJournalDir(t)
	if !otheruser.Hold(t, otheruser.Nobody, jdir, false) {
		t.Fatalf("uid %d could not lock %s, mode 0755", otheruser.Nobody, jdir)
	}
	writeBeside(t, root, state)
	if fi, err := os.Stat(jdir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s after root's build: %v %v, want mode 0700", jdir, fi.Mode(), err)
	}
	writeBeside(t, root, state)
	// A killed build's journal is recovered beside the old descriptor.
	c, err := Plan(root, files("b.txt", "b\n"), Options{StateDir: state, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	in := c.intent(nil)
	c.Close()
	jl := journal.Open(state, 0, false, root)
	if jl.Err != nil {
		t.Fatal(jl.Err)
	}
	if err := jl.Write([][]byte{in.Marshal()}, false, nil); err != nil {
		t.Fatal(err)
	}
	jl.Close(true) // killed: the journal stays, unlocked
	if n, _, err := Recover(state); n != 1 || err != nil {
		t.Errorf("Recover beside the old descriptor's lock = %d, %v; want 1 root recovered", n, err)
	}
	if js := journals(t, state); len(js) != 0 {
		t.Errorf("journals left: %v", js)
	}
}

// The output root is no lock: any account can open a 0755 directory (a
// userdir's public_html, the site's output directory) and hold its
// flock, and root's build goes on beside it.
func TestOutputRootIsNoLock(t *testing.T) {
	otheruser.NeedRoot(t)
	base := livetest.Dir(t)
	root, state := filepath.Join(base, "public"), filepath.Join(base, "state")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(root, 0o755)
	if !otheruser.Hold(t, otheruser.Nobody, root, false) {
		t.Fatalf("uid %d could not lock %s, which every account can open", otheruser.Nobody, root)
	}
	writeBeside(t, root, state)
	writeBeside(t, root, state)
}

// A journal in a root's own journal directory is its owner's to write:
// root's build takes it only as a hint for that root's own record. An
// intent naming any other record creates nothing (it made one
// root-owned record, and its fan-out directories, per name, which the
// owner could not remove), and thousands cost no more than a few.
func TestOwnJournalIsOnlyAHint(t *testing.T) {
	otheruser.NeedRoot(t)
	base := livetest.Dir(t)
	state, name := filepath.Join(base, "state"), "users/alice/public_html"
	root := filepath.Join(base, name)
	own := RootStateDir(state, name)
	owner := &Owner{UID: otheruser.Nobody, GID: otheruser.Nobody}
	if _, err := PrepareRootState(own, name, owner); err != nil {
		t.Fatal(err)
	}
	opt := Options{StateDir: own, FormerStateDir: state, JournalDir: state, Record: name, Owner: owner, NoSync: true}
	if _, _, err := Write(root, files("a.txt", "a\n"), opt); err != nil {
		t.Fatal(err)
	}
	entries := func() map[string]bool {
		m := map[string]bool{}
		filepath.Walk(state, func(p string, _ os.FileInfo, err error) error {
			m[p] = true
			return nil
		})
		return m
	}
	before := entries()

	// The owner's journal: 5,000 minimal intents naming other records,
	// and one naming its own, claiming b.txt.
	var b strings.Builder
	b.WriteString(journal.Magic + "\n")
	add := func(rec string) {
		fmt.Fprintf(&b, "record %d\n%s", len(rec), rec)
	}
	for i := range 5000 {
		add(fmt.Sprintf("discgen output record 2\nname other/%d\nstate incomplete\n", i))
	}
	add(fmt.Sprintf("discgen output record 2\nname %s\nstate incomplete\nf %x b.txt\n", name, sha256.Sum256([]byte("b\n"))))
	tmp := filepath.Join(base, "hint.jnl")
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	jnl := filepath.Join(record.JournalDirOf(own), "0123456789abcdef.jnl")
	if out, err := otheruser.Sh(t, otheruser.Nobody, `cp "$1" "$2"`, tmp, jnl); err != nil {
		t.Fatalf("the owner's journal: %v\n%s", err, out)
	}

	start := time.Now()
	n, _, err := Recover(own)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Recover of the owner's journal took %v", d)
	}
	if err != nil || n != 1 {
		t.Errorf("Recover = %d, %v; want the one intent naming its own record", n, err)
	}
	for p := range entries() {
		if !before[p] && !strings.HasSuffix(p, ".rec") {
			t.Errorf("Recover of the owner's journal created %s", p)
		}
	}
	if _, err := os.Lstat(jnl); !os.IsNotExist(err) {
		t.Errorf("the owner's journal is still there: %v", err)
	}
	rec, err := readRecordNamed(own, name)
	if err != nil || rec.Complete || !rec.Owns("b.txt", record.FileSum([]byte("b\n"))) {
		t.Errorf("the root's record after its owner's journal: %+v %v", rec, err)
	}
}

// The directories a build run as root makes for a root's own state are
// no more open than they must be: the owner's own is 0700 and the
// owner's, and those on the way 0711, which the owner passes through
// and no user but root can list; root's locks of the roots are in a
// directory of mode 0700.
func TestRootStateDirsNoMoreOpen(t *testing.T) {
	otheruser.NeedRoot(t)
	base := livetest.Dir(t)
	state, name := filepath.Join(base, "state"), "users/alice/public_html"
	own := RootStateDir(state, name)
	owner := &Owner{UID: otheruser.Nobody, GID: otheruser.Nobody}
	if _, err := PrepareRootState(own, name, owner); err != nil {
		t.Fatal(err)
	}
	opt := Options{StateDir: own, FormerStateDir: state, JournalDir: state, Record: name, Owner: owner, NoSync: true}
	if _, _, err := Write(filepath.Join(base, name), files("a.txt", "a\n"), opt); err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{
		filepath.Join(state, record.RootsDir): 0o711, filepath.Dir(own): 0o711, own: 0o700,
		filepath.Join(state, journal.LocksDir): 0o700,
	}
	for d, m := range want {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != m {
			t.Errorf("%s: %v %v, want mode %v", d, fi.Mode(), err, m)
		}
	}
	if fi, err := os.Stat(own); err != nil || confined.StatOf(fi).UID != otheruser.Nobody {
		t.Errorf("%s is not the owner's: %v", own, err)
	}
	if out, err := otheruser.Sh(t, otheruser.Nobody, `ls "$1"`, filepath.Join(state, record.RootsDir)); err == nil {
		t.Errorf("uid %d listed the roots' state directories: %s", otheruser.Nobody, out)
	}
	if out, err := otheruser.Sh(t, otheruser.Nobody, `ls "$1"`, filepath.Join(state, journal.LocksDir)); err == nil {
		t.Errorf("uid %d listed root's locks of the roots: %s", otheruser.Nobody, out)
	}
	if out, err := otheruser.Sh(t, otheruser.Nobody, `touch "$1/x" && ls "$1"`, own); err != nil {
		t.Errorf("the owner could not reach its own directory: %v\n%s", err, out)
	}
}

// Root's builds of one tenant wait for each other: a full build run as
// root beside a save run as root (a control panel's --tenant build) of
// a tenant whose journal directory its owner can open waits, a bounded
// time, for the save to end, and then writes that tenant too, rather
// than take the save's hold for its owner's and defer the tenant.
func TestRootBuildsOfOneTenantWaitForEachOther(t *testing.T) {
	otheruser.NeedRoot(t)
	base := livetest.Dir(t)
	state := filepath.Join(base, "state")
	owner := &Owner{UID: otheruser.Nobody, GID: otheruser.Nobody}
	opts := func(name string) Options {
		own := RootStateDir(state, name)
		if _, err := PrepareRootState(own, name, owner); err != nil {
			t.Fatal(err)
		}
		return Options{StateDir: own, FormerStateDir: state, JournalDir: state, Record: name, Owner: owner, NoSync: true}
	}
	plan := func(name, desc string) *Changes {
		c, err := Plan(filepath.Join(base, name), files("description.txt", desc), opts(name))
		if err != nil || c.Err() != nil {
			t.Fatal(err, c.Err())
		}
		return c
	}
	alice, bob := "users/alice/public_html", "users/bob/public_html"
	for _, name := range []string{alice, bob} {
		if _, errs := ApplyAll([]*Changes{plan(name, "first\n")}); errs[0] != nil {
			t.Fatal(errs[0])
		}
	}

	// The save of alice stops once it holds her locks and has written
	// her file's temporary copy.
	held, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	saving := plan(alice, "saved\n")
	saving.opt.hooks = &hooks{step: func(step, p string) error {
		if step == "write" && first.CompareAndSwap(false, true) {
			close(held)
			<-release
		}
		return nil
	}}
	save := make(chan error, 1)
	go func() {
		_, errs := ApplyAll([]*Changes{saving})
		save <- errs[0]
	}()
	<-held
	full := []*Changes{plan(alice, "saved\n"), plan(bob, "built\n")}
	time.AfterFunc(300*time.Millisecond, func() { close(release) })
	start := time.Now()
	rs, errs := ApplyAll(full)
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("the full build did not wait for the save (%v)", d)
	}
	if err := <-save; err != nil {
		t.Errorf("the save: %v", err)
	}
	for i, name := range []string{alice, bob} {
		if errs[i] != nil {
			t.Errorf("the full build of %s beside the save: %v", name, errs[i])
		}
	}
	if rs[1].Updated != 1 {
		t.Errorf("bob: %+v, want his file updated", rs[1])
	}
	for name, want := range map[string]string{alice: "saved\n", bob: "built\n"} {
		if got := mustRead(t, filepath.Join(base, name, "description.txt")); got != want {
			t.Errorf("%s/description.txt = %q, want %q", name, got, want)
		}
		rec, err := readRecordNamed(RootStateDir(state, name), name)
		if err != nil || !rec.Complete || !rec.Owns("description.txt", record.FileSum([]byte(want))) {
			t.Errorf("%s's record: %+v %v", name, rec, err)
		}
	}
	if js := journals(t, state); len(js) != 0 {
		t.Errorf("journals left: %v", js)
	}
}

// oldJournalDir makes, as an earlier version did, a state directory whose
// journal directory any account can open (both mode 0755), for the root
// public beside it; it needs root.
func oldJournalDir(t *testing.T) (base, root, state, jdir string) {
	otheruser.NeedRoot(t)
	base = livetest.Dir(t)
	root, state = filepath.Join(base, "public"), filepath.Join(base, "state")
	jdir = filepath.Join(state, record.JournalDir)
	if err := os.MkdirAll(jdir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(state, 0o755)
	os.Chmod(jdir, 0o755)
	return base, root, state, jdir
}
