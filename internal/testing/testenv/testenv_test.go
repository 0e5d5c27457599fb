package testenv

import (
	"fmt"
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
