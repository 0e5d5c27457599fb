package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/discgen/discgen/internal/testing/testenv"
)

var update = flag.Bool("update", false, "rewrite the expected files in testdata/script")

// The test binary doubles as discgen, so scripts run the real command
// line in a process of its own: exit statuses, stdout and stderr as a
// user sees them.
// children are the entry points of test binaries started as a child
// process by a test: each returns unless the binary was started as its
// child, and exits otherwise.
var children []func()

func TestMain(m *testing.M) {
	for _, child := range children {
		child()
	}
	testscript.Main(m, map[string]func(){
		"discgen": func() { os.Exit(exitCode(run(os.Args[1:], os.Stdout, os.Stderr))) },
	})
}

func TestScripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/script/*.txtar")
	if len(files) == 0 {
		t.Fatal("no scripts in testdata/script")
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		// [ci]: under CI, where a missing tool fails (testenv.CI).
		Condition: func(cond string) (bool, error) {
			if cond == "ci" {
				return testenv.CI(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			// Scripts give --now where time matters; the clock never
			// decides an outcome.
			env.Setenv("SOURCE_DATE_EPOCH", "1793491200") // 2026-11-01T00:00:00Z
			return nil
		},
	})
}
