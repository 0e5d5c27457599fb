//go:build linux

package publish

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/tools/hostgen"
)

// The tests here run the discgen binary, built as the README's install
// and the release build it (CGO_ENABLED=0), over a tree of 200 tenants of
// which 8 are hostile, under each limit a shared host sets per user, and
// compare every run with a run without limits: the same tenants built,
// refused and skipped, and the same bytes on disk.
//
// DISCGEN_LIMITS_BIN runs another binary instead (a cgo build, say), to
// see which limits it does not hold; DISCGEN_LIMITS_RUNS sets the runs
// under each limit (default 20). The loops are of the long tier: they run
// with DISCGEN_LONG=1.

// hostileTree writes a site of 200 tenants into dir, 8 of them refused or
// skipped: hostgen.Hostile.
func hostileTree(t testing.TB, dir string) {
	t.Helper()
	hostgen.Hostile(t, dir)
}

// scratch is where the trees are written: the temporary directory, on a
// disk, and not a tmpfs, where system calls never wait for the disk and
// so never hold a thread each (DISCGEN_LIMITS_DIR to choose another).
func scratch() string {
	return os.Getenv("DISCGEN_LIMITS_DIR")
}

// hostResult is what one build did: each tenant's status, and a digest
// of every file under the tree but the state directory.
type hostResult struct {
	status map[string]string // tenant directory (relative) -> status
	files  map[string]string // path -> digest, or "-> target" for a symlink
}

var (
	limitsBinOnce sync.Once
	limitsBin     string
	limitsBinErr  error
)

// discgenStatic builds the binary once, into a directory every user can
// read.
func discgenStatic(t *testing.T) string {
	t.Helper()
	if b := os.Getenv("DISCGEN_LIMITS_BIN"); b != "" {
		return b
	}
	// A build without the C library compiles the module again on an
	// empty build cache: the long tier's, whoever calls it.
	testenv.NeedsLong(t)
	limitsBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "discgen-limits-bin-")
		if err != nil {
			limitsBinErr = err
			return
		}
		os.Chmod(dir, 0o755)
		limitsBin = filepath.Join(dir, "discgen")
		cmd := exec.Command("go", "build", "-o", limitsBin, "../cmd/discgen")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			limitsBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if limitsBinErr != nil {
		t.Fatal(limitsBinErr)
	}
	return limitsBin
}

// hostCmd writes a fresh tree with fill in a new scratch directory
// (prefix*), gives it to uid (0: leaves it this user's), and returns it
// with the command that builds it under wrap, as uid, with GOMAXPROCS
// unset and args after the build's own. The caller removes dir.
func hostCmd(t *testing.T, prefix string, fill func(*testing.T, string), bin string, wrap []string, uid int, args ...string) (dir string, cmd *exec.Cmd) {
	t.Helper()
	dir, err := os.MkdirTemp(scratch(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		t.Fatal(err)
	}
	fill(t, dir)
	if uid != 0 {
		filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
			if err == nil {
				err = os.Lchown(p, uid, uid)
			}
			return err
		})
	}
	argv := append(slices.Clone(wrap), bin, "build", "-f", "site.yaml", "-o", "public", "--now", "2026-11-01")
	argv = append(argv, args...)
	cmd = exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "TMPDIR="+dir)
	cmd.Env = slices.DeleteFunc(cmd.Env, func(e string) bool { return strings.HasPrefix(e, "GOMAXPROCS=") })
	if uid != 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	}
	return dir, cmd
}

// userLockDir reports whether rel, relative to a tree run with TMPDIR at
// its top, is the directory of the output roots' locks of a build run as
// a user other than root (statedir.UserLockDir: discgen-<uid> in
// TMPDIR), which keeps its locks' file: not an output.
func userLockDir(rel string) bool {
	n, ok := strings.CutPrefix(rel, "discgen-")
	_, err := strconv.Atoi(n)
	return ok && err == nil
}

// hostRun is one build of a fresh hostile tree: wrap is the command that
// sets the limit (prlimit ...), uid the user to run as (0: this one).
// extra is added to the build's arguments.
func hostRun(t *testing.T, bin string, wrap []string, uid int, extra ...string) (hostResult, string, error) {
	t.Helper()
	dir, cmd := hostCmd(t, "discgen-limits-", func(t *testing.T, dir string) { hostileTree(t, dir) }, bin, wrap, uid,
		append([]string{"--format", "json", "--progress", "lines"}, extra...)...)
	defer os.RemoveAll(dir)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	res := hostResult{status: map[string]string{}, files: map[string]string{}}
	var report struct {
		Outputs []jsonUnitT `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(stdout.String()), &report); err != nil && runErr == nil {
		t.Fatalf("the report is not JSON: %v\n%s", err, stdout.String())
	}
	for _, u := range report.Outputs {
		if u.Kind == "tenant" {
			rel, _ := filepath.Rel(dir, filepath.Join(dir, u.Directory))
			res.status[filepath.ToSlash(rel)] = u.Status
		}
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir() && (rel == ".discgen" || userLockDir(rel)):
			return filepath.SkipDir
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			res.files[rel] = "-> " + target
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			res.files[rel] = fmt.Sprintf("%x", sha256.Sum256(data))
		}
		return nil
	})
	return res, stderr.String(), runErr
}

type jsonUnitT struct {
	Kind      string `json:"kind"`
	Directory string `json:"directory"`
	Status    string `json:"status"`
}

// hostReference is the run without limits, every test's expectation.
var (
	hostRefOnce sync.Once
	hostRef     hostResult
)

func hostReference(t *testing.T, bin string) hostResult {
	hostRefOnce.Do(func() {
		res, stderr, err := hostRun(t, bin, nil, 0)
		if err == nil || !strings.Contains(err.Error(), "exit status 1") {
			t.Fatalf("without limits: %v, want exit status 1 (8 tenants refused)\n%s", err, stderr)
		}
		hostRef = res
	})
	if hostRef.status == nil {
		t.Fatal("no reference run")
	}
	return hostRef
}

// underLimit runs the build runs times under the limit and checks each
// against the reference.
func underLimit(t *testing.T, wrap []string, uid int) {
	testenv.NeedsLong(t)
	wrap[0] = testenv.NeedsTool(t, wrap[0], "util-linux")
	bin := discgenStatic(t)
	ref := hostReference(t, bin)
	if n := len(ref.status); n != 200 {
		t.Fatalf("the reference run reported %d tenants, want 200", n)
	}
	if got := count(ref.status, "refused") + count(ref.status, "skipped"); got != 8 {
		t.Fatalf("the reference run refused or skipped %d tenants, want 8: %v", got, ref.status)
	}
	runs := 20
	if n, err := strconv.Atoi(os.Getenv("DISCGEN_LIMITS_RUNS")); err == nil && n > 0 {
		runs = n
	}
	passed := 0
	for i := range runs {
		res, stderr, err := hostRun(t, bin, wrap, uid)
		if err != nil && !strings.Contains(err.Error(), "exit status 1") || strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "fatal error") {
			t.Errorf("run %d: %v\n%s", i+1, err, crash(stderr))
			continue
		}
		if !maps.Equal(res.status, ref.status) {
			t.Errorf("run %d: tenants %s, without limits %s\n%s", i+1, summarize(res.status), summarize(ref.status), tail(stderr, 2000))
			continue
		}
		if !maps.Equal(res.files, ref.files) {
			t.Errorf("run %d: the files differ from the run without limits: %s", i+1, fileDiff(res.files, ref.files))
			continue
		}
		passed++
	}
	t.Logf("%s: %d of %d runs as without limits", strings.Join(wrap, " "), passed, runs)
}

func count(m map[string]string, v string) int {
	n := 0
	for _, x := range m {
		if x == v {
			n++
		}
	}
	return n
}

func summarize(m map[string]string) string {
	return fmt.Sprintf("%d built, %d unchanged, %d refused, %d skipped", count(m, "built"), count(m, "unchanged"), count(m, "refused"), count(m, "skipped"))
}

func fileDiff(got, want map[string]string) string {
	var d []string
	for p, h := range want {
		if got[p] != h {
			d = append(d, p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			d = append(d, "+"+p)
		}
	}
	slices.Sort(d)
	if len(d) > 10 {
		d = append(d[:10], "...")
	}
	return strings.Join(d, " ")
}

// crash is what a runtime crash said: its fatal and runtime lines, not
// the goroutines' traces.
func crash(stderr string) string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "fatal error") || strings.HasPrefix(l, "runtime:") || strings.HasPrefix(l, "discgen: error") {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return tail(stderr, 2000)
	}
	return strings.Join(out[:min(len(out), 6)], "\n")
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// A gibibyte of address space, as CloudLinux's LVE and many hosts give a
// user. A build linked with the C library reserved 2.3 GB (each thread's
// C stack and malloc arena) and died in the runtime.
func TestHostAddressSpaceLimit(t *testing.T) {
	underLimit(t, []string{"prlimit", fmt.Sprintf("--as=%d", 1<<30), "--"}, 0)
}

// One CPU, with GOMAXPROCS unset.
func TestHostOneCPU(t *testing.T) {
	underLimit(t, []string{"taskset", "-c", "0"}, 0)
}

// Twenty processes and threads, as an unprivileged user: RLIMIT_NPROC does
// not hold root. The user is a fresh uid with no process of its own, so
// that nothing else on the machine shares its count.
func TestHostThreadLimit(t *testing.T) {
	testenv.NeedsLong(t)
	testenv.NeedsRoot(t) // to run the build as a user of its own
	underLimit(t, []string{"prlimit", "--nproc=20", "--"}, freeUID(t))
}

// freeUID is a uid no process runs as.
func freeUID(t *testing.T) int {
	used := map[int]bool{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if fi, err := os.Stat(filepath.Join("/proc", e.Name())); err == nil && e.Name()[0] >= '0' && e.Name()[0] <= '9' {
			used[int(fi.Sys().(*syscall.Stat_t).Uid)] = true
		}
	}
	for uid := 61000 + os.Getpid()%3000; uid < 65000; uid++ {
		if !used[uid] {
			return uid
		}
	}
	testenv.Missing(t, "no uid from 61000 to 64999 is free of processes")
	return 0
}

// Between what the Go runtime needs to start and what a build needs, the
// build is refused before it starts: one line naming the limit, exit
// status 1, nothing written, no runtime trace. Long tier: it runs a static
// build (CGO_ENABLED=0, as the release's), which shares little with the
// test's build and is compiled and linked again.
func TestHostLimitTooLow(t *testing.T) {
	testenv.NeedsLong(t)
	for _, c := range []struct {
		name  string
		wrap  []string
		root  bool
		limit string
	}{
		{"address space", []string{"prlimit", fmt.Sprintf("--as=%d", 800<<20), "--"}, true, "RLIMIT_AS"},
		{"threads", []string{"prlimit", "--nproc=8", "--"}, false, "RLIMIT_NPROC"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !c.root {
				testenv.NeedsRoot(t) // to run the build as a user of its own
			}
			c.wrap[0] = testenv.NeedsTool(t, c.wrap[0], "util-linux")
			uid := 0
			if !c.root {
				uid = freeUID(t)
			}
			res, stderr, err := hostRun(t, discgenStatic(t), c.wrap, uid, "--format", "text")
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Errorf("exit: %v, want status 1", err)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "discgen: error: ") || !strings.Contains(lines[0], c.limit) {
				t.Errorf("stderr is not one line naming %s:\n%s", c.limit, stderr)
			}
			if len(res.status) != 0 {
				t.Errorf("%d tenants reported", len(res.status))
			}
			for p := range res.files {
				if strings.HasPrefix(p, "public") || strings.Contains(p, "autodisc/") {
					t.Errorf("%s written", p)
				}
			}
		})
	}
}

// TestMain removes the binary the tests here built.
func TestMain(m *testing.M) {
	code := m.Run()
	if limitsBin != "" {
		os.RemoveAll(filepath.Dir(limitsBin))
	}
	os.Exit(code)
}
