//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// nofileArgsEnv, in a child started by buildLimited, holds the arguments
// to run (JSON), and nofileLimitEnv the open-file limit to run them
// under (soft and hard; empty for none).
const (
	nofileArgsEnv  = "DISCGEN_TEST_NOFILE_ARGS"
	nofileLimitEnv = "DISCGEN_TEST_NOFILE_LIMIT"
)

func init() { children = append(children, nofileChild) }

// nofileChild is the child's entry point, run by TestMain: in a test
// binary started by buildLimited, it runs discgen and exits; otherwise it
// returns.
func nofileChild() {
	v := os.Getenv(nofileArgsEnv)
	if v == "" {
		return
	}
	var args []string
	if err := json.Unmarshal([]byte(v), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(99)
	}
	if l := os.Getenv(nofileLimitEnv); l != "" {
		n, err := strconv.ParseUint(l, 10, 64)
		if err == nil {
			err = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: n, Max: n})
		}
		var got syscall.Rlimit
		if err == nil {
			err = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &got)
		}
		if err != nil || got.Cur != n || got.Max != n {
			fmt.Fprintf(os.Stderr, "cannot set the open-file limit to %s: %v (%+v)\n", l, err, got)
			os.Exit(99)
		}
	}
	os.Exit(exitCode(run(args, os.Stdout, os.Stderr)))
}

// buildLimited runs discgen with args in dir, in a child process whose
// open-file limit is limit (0: the test's own), and returns its output.
func buildLimited(t *testing.T, dir string, limit int, args ...string) string {
	t.Helper()
	a, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), nofileArgsEnv+"="+string(a))
	if limit > 0 {
		cmd.Env = append(cmd.Env, nofileLimitEnv+"="+strconv.Itoa(limit))
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("discgen %s (open-file limit %d): %v\n%s%s", strings.Join(args, " "), limit, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// treeBytes maps every file and symlink under dir to its bytes or
// target, leaving out what is machine-local (stat caches) or named at
// random (journals).
func treeBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir() && (d.Name() == "journal" || d.Name() == "locks"):
			return filepath.SkipDir
		case strings.HasSuffix(p, ".stat"):
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			m[rel] = "-> " + target
			return err
		case d.IsDir():
			m[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		m[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameTree(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d entries, want %d", what, len(got), len(want))
	}
	n := 0
	for p, w := range want {
		if g, ok := got[p]; !ok || g != w {
			if n++; n <= 5 {
				t.Errorf("%s: %s is %q (present %v), want %q", what, p, g, ok, w)
			}
		}
	}
}

// A site of a few thousand inline delegatees (a directory each, and its
// autodisc/) builds under an open-file limit of 1024, soft and hard,
// cold and then warm, to the same bytes, record and report as a build
// without that limit.
func TestBuildManyDelegateesUnderFileLimit(t *testing.T) {
	testenv.NeedsLong(t) // builds 3,000 delegatees four times
	const n = 3000
	var m strings.Builder
	m.WriteString("version: 1\nsite: {url: https://example.org/}\ndelegations:\n")
	for i := range n {
		fmt.Fprintf(&m, "- {path: /d%d/, inline: {description: delegatee %d}}\n", i, i)
	}
	limited, free := t.TempDir(), t.TempDir()
	for _, d := range []string{limited, free} {
		if err := os.WriteFile(filepath.Join(d, "site.yaml"), []byte(m.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, round := range []string{"cold", "warm"} {
		got := buildLimited(t, limited, 1024, "build", "-f", "site.yaml", "-o", "out")
		want := buildLimited(t, free, 0, "build", "-f", "site.yaml", "-o", "out")
		if got != want {
			t.Errorf("%s build under the limit said %q, without it %q", round, got, want)
		}
		sameTree(t, round+" output", treeBytes(t, filepath.Join(limited, "out")), treeBytes(t, filepath.Join(free, "out")))
		sameTree(t, round+" state", treeBytes(t, filepath.Join(limited, ".discgen")), treeBytes(t, filepath.Join(free, ".discgen")))
	}
	if files := treeBytes(t, filepath.Join(limited, "out")); len(files) < 2*n {
		t.Errorf("only %d entries written", len(files))
	}
}
