//go:build linux

package main

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/discgen/discgen/lint"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// staticDiscgen builds discgen as the release is built, without the C
// library (CGO_ENABLED=0): linked with it, the binary holds about 1 GiB
// of address space before it starts (each thread's C stack and malloc
// arena), and no limit test means anything.
func staticDiscgen(t *testing.T) string {
	t.Helper()
	// It compiles the module again on an empty build cache: the long
	// tier's, whoever calls it.
	testenv.NeedsLong(t)
	bin := filepath.Join(t.TempDir(), "discgen")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// writeLines writes a file of head and then n lines, line(i) each.
func writeLines(t *testing.T, name, head string, n int, line func(i int) string) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(head)
	for i := range n {
		w.WriteString(line(i))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// Files up to the bounds lint, check and import read, built to cost the
// most, under a shared host's gibibyte of address space and under a limit
// that leaves less than they need: each command answers or says in one
// line which bound or limit it stopped at, and exits 1; it never dies
// with the runtime's trace (exit 2). A million rules with wildcards, 26
// MB, took lint out of memory after 11.6 s.
func TestInputBoundsUnderAddressLimit(t *testing.T) {
	testenv.NeedsLong(t)
	prlimit := testenv.NeedsTool(t, "prlimit", "util-linux")
	bin := staticDiscgen(t)
	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }
	// 1,000,000 rules "Disallow: /pN/*a*b*c$", 26 MB.
	writeLines(t, file("wildcards.txt"), "User-agent: *\n", 1_000_000, func(i int) string { return fmt.Sprintf("Disallow: /p%d/*a*b*c$\n", i) })
	// 32 MiB of lines "a:", 11 million extension lines.
	writeLines(t, file("extensions.txt"), "User-agent: *\n", (lint.MaxFile-14)/3, func(int) string { return "a:\n" })
	// 4 MiB of lines without a key, what import reads at most.
	writeLines(t, file("keyless.txt"), "User-agent: *\n", (4<<20-14)/2, func(int) string { return "x\n" })
	// 499,990 lines, with three findings to two: under every bound of check.
	writeLines(t, file("findings.txt"), "User-agent: *\n", 499_990, func(i int) string {
		if i < 99_990 {
			return fmt.Sprintf("dissallow a$%d*\n", i)
		}
		return "x\n"
	})
	type want struct {
		status int
		// line begins the one line that names the bound or the limit;
		// "|" separates two that may be (a file near both).
		line string
	}
	for _, c := range []struct {
		as   int // MiB
		args []string
		want want
	}{
		{1024, []string{"lint", "wildcards.txt"}, want{1, "wildcards.txt:100001:1: R037: more than 100000 lines with a field"}},
		{1024, []string{"lint", "extensions.txt"}, want{1, "extensions.txt:100001:1: R037: more than 100000 lines with a field"}},
		{1024, []string{"check", "--robots", "wildcards.txt", "-a", "googlebot", "/p5/xaybzc"}, want{1, "discgen: error: wildcards.txt:500001: more than 500000 lines|discgen: error: the address-space limit (RLIMIT_AS, ulimit -v) of 1024 MiB"}},
		{1024, []string{"check", "--robots", "extensions.txt", "-a", "googlebot", "/x"}, want{1, "discgen: error: extensions.txt:500001: more than 500000 lines|discgen: error: the address-space limit (RLIMIT_AS, ulimit -v) of 1024 MiB"}},
		{1024, []string{"check", "--robots", "findings.txt", "-a", "googlebot", "/x"}, want{0, ""}},
		{1024, []string{"import", "wildcards.txt"}, want{1, "discgen: error: cannot read wildcards.txt: larger than the limit of 4 MiB"}},
		{1024, []string{"import", "keyless.txt"}, want{1, "discgen: error: keyless.txt:500001: more than 500000 lines"}},
		{1024, []string{"import", "findings.txt"}, want{1, "discgen: error: the address-space limit (RLIMIT_AS, ulimit -v) of 1024 MiB|discgen: error: the imported manifest does not validate"}},
		// Less room than the file needs: refused before the parse.
		{860, []string{"lint", "extensions.txt"}, want{1, "discgen: error: the address-space limit (RLIMIT_AS, ulimit -v) of 860 MiB"}},
		{800, []string{"check", "--robots", "findings.txt", "-a", "googlebot", "/x"}, want{1, "discgen: error: the address-space limit (RLIMIT_AS, ulimit -v) of 800 MiB"}},
		{860, []string{"import", "findings.txt"}, want{1, "discgen: error: the address-space limit (RLIMIT_AS, ulimit -v) of 860 MiB"}},
	} {
		name := fmt.Sprintf("--as=%dMiB %s", c.as, strings.Join(c.args, " "))
		cmd := exec.Command(prlimit, append([]string{fmt.Sprintf("--as=%d", c.as<<20), "--", bin}, c.args...)...)
		cmd.Dir = dir
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		status := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		errOut := stderr.String()
		if strings.Contains(errOut, "goroutine ") || strings.Contains(errOut, "fatal error") || strings.Contains(errOut, "panic:") {
			t.Errorf("%s: a runtime trace (status %d):\n%.1500s", name, status, errOut)
			continue
		}
		if status != c.want.status {
			t.Errorf("%s: status %d, want %d\n%.1500s", name, status, c.want.status, errOut)
		}
		if c.want.line == "" {
			continue
		}
		n := 0
		for l := range strings.Lines(errOut) {
			for _, w := range strings.Split(c.want.line, "|") {
				if strings.HasPrefix(l, w) {
					n++
				}
			}
		}
		// A refusal is the only line; lint reports what it checked before.
		if n != 1 || c.args[0] != "lint" && strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: %d lines starting %q in\n%.1500s", name, n, c.want.line, errOut)
		}
	}
}
