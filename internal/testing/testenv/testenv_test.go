package testenv

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// recorder is a testing.TB whose Skipf and Fatalf record instead of
// stopping the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Skip(args ...any) {
	r.skipped = fmt.Sprint(args...)
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
}

const noSuchTool = "discgen-testenv-no-such-command"

func TestMissingToolSkipsLocally(t *testing.T) {
	t.Setenv("CI", "")
	r := &recorder{TB: t}
	NeedsTool(r, noSuchTool, "apt-get install it")
	if r.failed != "" || r.skipped != noSuchTool+": not installed (apt-get install it)" {
		t.Errorf("skipped %q, failed %q", r.skipped, r.failed)
	}
}

func TestMissingToolFailsUnderCI(t *testing.T) {
	for _, v := range []string{"true", "1"} {
		t.Setenv("CI", v)
		r := &recorder{TB: t}
		NeedsTool(r, noSuchTool, "apt-get install it")
		if r.skipped != "" || r.failed == "" {
			t.Errorf("CI=%s: skipped %q, failed %q", v, r.skipped, r.failed)
		}
	}
	t.Setenv("CI", "false")
	r := &recorder{TB: t}
	NeedsTool(r, noSuchTool, "apt-get install it")
	if r.failed != "" || r.skipped == "" {
		t.Errorf("CI=false: skipped %q, failed %q", r.skipped, r.failed)
	}
}

func TestToolFound(t *testing.T) {
	t.Setenv("CI", "true")
	r := &recorder{TB: t}
	if p := NeedsTool(r, "go", "it runs the tests"); p == "" || r.failed != "" || r.skipped != "" {
		t.Errorf("go: path %q, skipped %q, failed %q", p, r.skipped, r.failed)
	}
}

// The long tier's switch: skipped without it, under CI too (CI runs the
// long tier as a run of its own), run with it.
func TestNeedsLong(t *testing.T) {
	for _, c := range []struct {
		long, ci string
		skip     bool
	}{{"", "", true}, {"0", "", true}, {"", "true", true}, {"1", "", false}, {"1", "true", false}} {
		t.Setenv(LongEnv, c.long)
		t.Setenv("CI", c.ci)
		r := &recorder{TB: t}
		NeedsLong(r)
		if (r.skipped != "") != c.skip || r.failed != "" || Long() == c.skip {
			t.Errorf("%s=%q CI=%q: skipped %q, failed %q, Long %v", LongEnv, c.long, c.ci, r.skipped, r.failed, Long())
		}
	}
}

// What a test makes for itself: made where the system can, and where it
// cannot (a directory that does not exist), a skip, or under CI a failure.
func TestMakes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		make func(tb testing.TB, name string)
		is   func(fs.FileMode) bool
	}{
		{"symlink", func(tb testing.TB, name string) { Symlink(tb, "target", name) }, func(m fs.FileMode) bool { return m&fs.ModeSymlink != 0 }},
		{"fifo", Mkfifo, func(m fs.FileMode) bool { return m&fs.ModeNamedPipe != 0 }},
		{"socket", func(tb testing.TB, name string) { ListenUnix(tb, name) }, func(m fs.FileMode) bool { return m&fs.ModeSocket != 0 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "fifo" && runtime.GOOS == "windows" {
				t.Skip("no FIFOs on windows")
			}
			name := filepath.Join(dir, c.name)
			r := &recorder{TB: t}
			c.make(r, name)
			fi, err := os.Lstat(name)
			if r.failed != "" || r.skipped != "" || err != nil || !c.is(fi.Mode()) {
				t.Fatalf("made %v (%v): skipped %q, failed %q", fi, err, r.skipped, r.failed)
			}
			bad := filepath.Join(dir, "no-such-dir", c.name)
			for _, ci := range []string{"", "true"} {
				t.Setenv("CI", ci)
				r := &recorder{TB: t}
				c.make(r, bad)
				if ci == "" && (r.skipped == "" || r.failed != "") || ci != "" && (r.failed == "" || r.skipped != "") {
					t.Errorf("CI=%q, where it cannot be made: skipped %q, failed %q", ci, r.skipped, r.failed)
				}
			}
		})
	}
	t.Setenv("CI", "true")
	r := &recorder{TB: t}
	Unsupported(r, "not on %s", "plan9")
	if r.skipped != "not on plan9" || r.failed != "" {
		t.Errorf("Unsupported under CI: skipped %q, failed %q", r.skipped, r.failed)
	}
}

// Root: run as root, nothing; as another user, a skip, under CI a failure,
// and under CI in a job that declares itself rootless, a skip again.
func TestNeedsRoot(t *testing.T) {
	for _, c := range []struct {
		ci, rootless string
		skip, fail   bool
	}{{"", "", true, false}, {"true", "", false, true}, {"true", "0", false, true}, {"true", "1", true, false}, {"", "1", true, false}} {
		t.Setenv("CI", c.ci)
		t.Setenv(RootlessEnv, c.rootless)
		r := &recorder{TB: t}
		NeedsRoot(r)
		if os.Geteuid() == 0 {
			if r.skipped != "" || r.failed != "" {
				t.Errorf("as root, CI=%q %s=%q: skipped %q, failed %q", c.ci, RootlessEnv, c.rootless, r.skipped, r.failed)
			}
			continue
		}
		if (r.skipped != "") != c.skip || (r.failed != "") != c.fail {
			t.Errorf("CI=%q %s=%q: skipped %q, failed %q", c.ci, RootlessEnv, c.rootless, r.skipped, r.failed)
		}
	}
}
