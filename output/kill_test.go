package output

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/output/internal/journal"
	"github.com/discgen/discgen/output/internal/record"
	"github.com/discgen/discgen/tree"
)

// The kill test re-executes the test binary as a child that applies one of
// two versions of a large tree, kills it with SIGKILL at a random moment,
// and checks that every file is exactly one version or the other.

// The child reads its root, state directory and version from these.
const (
	killChildEnv = "DISCGEN_OUTPUT_KILL_CHILD" // the version, A or B
	killRootEnv  = "DISCGEN_OUTPUT_KILL_ROOT"
	killStateEnv = "DISCGEN_OUTPUT_KILL_STATE"
)

const killFiles = 3000

// killPath names file i: 30 directories of 100 files.
func killPath(i int) string { return fmt.Sprintf("d%02d/f%04d.txt", i%30, i) }

// killHas reports whether version v ('A' or 'B') produces file i: A leaves
// out i%10 == 9, B leaves out i%10 == 0, so every round adds and removes.
func killHas(v byte, i int) bool {
	if v == 'A' {
		return i%10 != 9
	}
	return i%10 != 0
}

// killContent is file i of version v: a header naming the version, index
// and length, a body of varied size, and the SHA-256 of both.
func killContent(v byte, i int) []byte {
	size := 40 + (i*7919+int(v)*104729)%6000
	var b bytes.Buffer
	fmt.Fprintf(&b, "version %c file %d size %d\n", v, i, size)
	for b.Len() < size {
		fmt.Fprintf(&b, "%c%d.", v, b.Len()*31+i)
	}
	b.Truncate(size)
	b.WriteByte('\n')
	fmt.Fprintf(&b, "%x\n", sha256.Sum256(b.Bytes()))
	return b.Bytes()
}

func killLink(v byte) string {
	if v == 'A' {
		return "../d00/f0000.txt"
	}
	return "../d01/f0001.txt"
}

func killTree(v byte) tree.Tree {
	t := tree.Tree{}
	for i := range killFiles {
		if killHas(v, i) {
			t[killPath(i)] = tree.Entry{Data: killContent(v, i)}
		}
	}
	for j := range 5 {
		t[fmt.Sprintf("links/l%d", j)] = tree.Entry{Link: killLink(v)}
	}
	return t
}

// TestMain runs the kill test's child instead of the tests when the test
// binary was started as one.
func TestMain(m *testing.M) {
	killChild()
	os.Exit(m.Run())
}

// killChild is the child's entry point: in a test binary started by
// runChild, it applies its version and exits; otherwise it returns.
func killChild() {
	v := os.Getenv(killChildEnv)
	if v == "" {
		return
	}
	// Without fsync: a killed process cannot tear a file either way (the
	// rename is what makes replacement atomic), and the rounds run faster.
	opt := Options{StateDir: os.Getenv(killStateEnv), NoSync: true}
	_, _, err := Write(os.Getenv(killRootEnv), killTree(v[0]), opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	os.Exit(0)
}

// runChild applies version v in a child process, killing it after delay
// when delay >= 0. It reports whether the child was killed before it
// finished, and how long it ran.
func runChild(t *testing.T, e env, v byte, delay time.Duration) (killed bool, took time.Duration) {
	t.Helper()
	start := time.Now()
	defer func() { took = time.Since(start) }()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+string(v), killRootEnv+"="+e.root, killStateEnv+"="+e.state)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	if delay < 0 {
		err = <-done
	} else {
		select {
		case err = <-done:
		case <-time.After(delay):
			cmd.Process.Kill()
			err = <-done
		}
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && !exit.Exited() {
		return true, 0
	}
	if err != nil {
		t.Fatalf("child applying %c: %v\n%s", v, err, stderr.String())
	}
	return false, 0
}

// checkOldOrNew asserts that every output is exactly version A or B, that a
// file both versions produce is present, and that nothing else but
// temporary files exists. It returns the number of temporary files.
func checkOldOrNew(t *testing.T, e env, round int) (temps int) {
	t.Helper()
	seen := map[string]bool{}
	for i := range killFiles {
		p := killPath(i)
		seen[p] = true
		got, err := os.ReadFile(e.path(p))
		if errors.Is(err, fs.ErrNotExist) {
			if killHas('A', i) && killHas('B', i) {
				t.Fatalf("round %d: %s missing", round, p)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !(killHas('A', i) && bytes.Equal(got, killContent('A', i))) && !(killHas('B', i) && bytes.Equal(got, killContent('B', i))) {
			t.Fatalf("round %d: %s is neither version (%d bytes, starts %q)", round, p, len(got), got[:min(len(got), 40)])
		}
	}
	for j := range 5 {
		p := fmt.Sprintf("links/l%d", j)
		seen[p] = true
		if target, err := os.Readlink(e.path(p)); err != nil || target != killLink('A') && target != killLink('B') {
			t.Fatalf("round %d: %s -> %q, %v", round, p, target, err)
		}
	}
	filepath.WalkDir(e.root, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(e.root, name)
		switch {
		case record.IsTempName(d.Name()):
			temps++
		case !seen[filepath.ToSlash(rel)]:
			t.Fatalf("round %d: unexpected file %s", round, rel)
		}
		return nil
	})
	return temps
}

// killJournals counts the journals a killed build left, and the intent
// records they hold in full.
func killJournals(t *testing.T, e env) (n, intents int) {
	t.Helper()
	names := journals(t, e.state)
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		recs, _ := journal.Parse(data, name)
		intents += len(recs)
	}
	return len(names), intents
}

// TestKillLeavesOldOrNew kills builds at random moments; it logs its seed,
// and DISCGEN_KILL_SEED=N replays the same kill points (as fractions of a
// full rewrite's duration).
func TestKillLeavesOldOrNew(t *testing.T) {
	testenv.NeedsLong(t)
	// The rounds stop early past the time budget, once a few kills have
	// landed mid-build: the machine may be slow or shared.
	rounds, budget := 40, 25*time.Second
	e := newEnv(t)
	start := time.Now()
	runChild(t, e, 'A', -1)
	checkOldOrNew(t, e, 0)
	// A full rewrite from A to B sets the time scale of the kills.
	_, full := runChild(t, e, 'B', -1)
	checkOldOrNew(t, e, 0)

	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("DISCGEN_KILL_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("DISCGEN_KILL_SEED=%q: %v", s, err)
		}
		seed = n
	}
	t.Logf("seed %d: DISCGEN_KILL_SEED=%d replays it", seed, seed)
	r := rand.New(rand.NewPCG(seed, 0))
	v := byte('B')
	var finished, midBuild, beforeWrites, inJournal, tempsSeen int
	for round := 1; round <= rounds; round++ {
		if time.Since(start) > budget && midBuild >= 3 {
			rounds = round - 1
			break
		}
		v = 'A' + 'B' - v
		// Kill between 10% and 80% of a full rewrite's duration. (A
		// build whose version is already on disk, after a kill that
		// landed before any write, finishes sooner.)
		delay := full/10 + time.Duration(r.Int64N(int64(full)*7/10))
		killed, _ := runChild(t, e, v, delay)
		nj, intents := killJournals(t, e)
		// Whatever the kill left, the next build owns it all once the
		// journal is recovered. A journal cut short while it was being
		// written names no root: its batch had not changed anything.
		// A check reads the journals and owns the same, recovering nothing.
		j, err := ReadJournals(e.state)
		if err != nil || j.Roots() != min(intents, 1) {
			t.Fatalf("round %d: journals name %d roots, want %d: %v", round, j.Roots(), min(intents, 1), err)
		}
		c, err := Plan(e.root, killTree('A'+'B'-v), Options{StateDir: e.state, Journals: j})
		if err != nil || c.Err() != nil {
			t.Fatalf("round %d: plan with the journals: %v %v", round, err, c.Err())
		}
		c.Close()
		n, _, err := Recover(e.state)
		if err != nil || n != intents {
			t.Fatalf("round %d: recovered %d roots from %d journals naming %d: %v", round, n, nj, intents, err)
		}
		if left := journals(t, e.state); len(left) > 0 {
			t.Fatalf("round %d: journals left after recovery: %v", round, left)
		}
		if rec, err := readRecord(e.state, e.root); err != nil {
			t.Fatalf("round %d: record after kill: %v", round, err)
		} else if rec.Complete && intents > 0 {
			t.Fatalf("round %d: record complete after recovering %d intents", round, intents)
		}
		switch {
		case !killed:
			finished++
		case intents > 0:
			midBuild++
		default:
			beforeWrites++
			if nj > 0 {
				inJournal++ // killed while writing its journal
			}
		}
		tempsSeen += checkOldOrNew(t, e, round)
		c, err = Plan(e.root, killTree('A'+'B'-v), Options{StateDir: e.state})
		if err != nil || c.Err() != nil {
			t.Fatalf("round %d: plan after kill: %v %v", round, err, c.Err())
		}
		c.Close()
	}
	runChild(t, e, v, -1)
	if temps := checkOldOrNew(t, e, rounds+1); temps != 0 {
		t.Errorf("%d temporary files left after a clean build", temps)
	}
	filepath.WalkDir(e.state, func(name string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(d.Name(), ".tmp") {
			t.Errorf("temporary record %s left after a clean build", name)
		}
		return err
	})
	if rec, err := readRecord(e.state, e.root); err != nil || !rec.Complete {
		t.Errorf("record after a clean build: complete=%v, %v", rec != nil && rec.Complete, err)
	}
	for i := range killFiles {
		got, err := os.ReadFile(e.path(killPath(i)))
		if killHas(v, i) && !bytes.Equal(got, killContent(v, i)) || !killHas(v, i) && !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("after the clean build of %c: %s wrong (%v)", v, killPath(i), err)
		}
	}
	t.Logf("%d rounds of %d files (full rewrite %v): %d killed mid-build, %d killed before writing (%d of them in the journal), %d finished first; %d temporary files seen after kills",
		rounds, killFiles, full.Round(time.Millisecond), midBuild, beforeWrites, inJournal, finished, tempsSeen)
	if midBuild == 0 {
		t.Error("no kill landed mid-build; the test proved nothing")
	}
}
