package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/hostlimits"
	"github.com/discgen/discgen/robots"
)

// runIn runs discgen in-process and returns its exit status and output.
func runIn(args ...string) (status int, stdout, stderr string) {
	return runMem(nil, args...)
}

// runMem is runIn with the host's memory limits as main would have read
// them (nil: read by the command).
func runMem(mem *hostlimits.Limits, args ...string) (status int, stdout, stderr string) {
	var o, e bytes.Buffer
	status = exitCode((&call{stdout: &o, stderr: &e, mem: mem}).run(args))
	return status, o.String(), e.String()
}

// noTrace fails the test when stderr holds a runtime trace.
func noTrace(t *testing.T, stderr string) {
	t.Helper()
	if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "fatal error") || strings.Contains(stderr, "panic:") {
		t.Errorf("a runtime trace:\n%.2000s", stderr)
	}
}

// A robots.txt of more lines than a parse reads is not checked in part:
// check says so in one line, with the line it stopped at, and exits 1.
func TestCheckLineBound(t *testing.T) {
	name := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(name, []byte("User-agent: *\nDisallow: /x\n"+strings.Repeat("a:\n", robots.MaxLines)), 0o644); err != nil {
		t.Fatal(err)
	}
	st, out, errOut := runIn("check", "--robots", name, "-a", "googlebot", "/x")
	noTrace(t, errOut)
	want := "discgen: error: " + name + ":500001: more than 500000 lines that hold a field or text; check reads at most 500000\n"
	if st != 1 || out != "" || errOut != want {
		t.Errorf("status %d, stdout %q, stderr %q; want 1, nothing, %q", st, out, errOut, want)
	}
	// One line fewer is read and answered.
	if err := os.WriteFile(name, []byte("User-agent: *\nDisallow: /x\n"+strings.Repeat("a:\n", robots.MaxLines-2)), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, out, errOut := runIn("check", "--robots", name, "-a", "googlebot", "/x"); st != 0 || !strings.HasPrefix(out, "DISALLOWED googlebot /x") {
		t.Errorf("at the bound: status %d\n%s%s", st, out, errOut)
	}
}

// Past the lines lint checks, lint reports what it found before them and
// one error naming the bound, and exits 1.
func TestLintLineBound(t *testing.T) {
	name := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(name, []byte("User-agent: *\n"+strings.Repeat("Disallow: /a\n", robots.MaxLintLines+5)), 0o644); err != nil {
		t.Fatal(err)
	}
	st, out, errOut := runIn("lint", name)
	noTrace(t, errOut)
	var bound, more []string
	repeats := 0
	for l := range strings.Lines(errOut) {
		switch {
		case strings.Contains(l, robots.CodeTooManyLines):
			bound = append(bound, l)
		case strings.Contains(l, "repeats line 2"):
			repeats++
		case strings.Contains(l, "more R007 findings"):
			more = append(more, l)
		}
	}
	want := name + ":100001:1: R037: more than 100000 lines with a field; lint checks the 100000 before this one and none from here on\n"
	if st != 1 || out != "" || len(bound) != 1 || bound[0] != want {
		t.Errorf("status %d, stdout %q, bound lines %q; want 1, nothing, %q", st, out, bound, want)
	}
	// Lines 3 to 100000 repeat line 2: the first thousand are listed,
	// the others counted.
	wantMore := name + ":1003:1: warning: R007: 98998 more R007 findings are not listed, the first of them on this line (lint lists 1000 of each code)\n"
	if repeats != robots.MaxListed || len(more) != 1 || more[0] != wantMore {
		t.Errorf("%d repeats listed and %q, want %d and %q", repeats, more, robots.MaxListed, wantMore)
	}
}

// Where the host's limits leave less memory than a file's check or lint
// needs, discgen says so in one line naming the limit and exits 1, before
// it parses: the runtime would die with a trace where it runs out. A small
// file is still read under the same limit.
func TestInputHostMemory(t *testing.T) {
	dir := t.TempDir()
	large := filepath.Join(dir, "large.txt")
	small := filepath.Join(dir, "small.txt")
	if err := os.WriteFile(large, []byte("User-agent: *\n"+strings.Repeat("x\n", 400_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(small, []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		room int64 // MiB
		args []string
	}{
		{80, []string{"check", "--robots", large, "-a", "googlebot", "/x"}},
		{40, []string{"lint", large}},
		{40, []string{"import", large}},
	} {
		mem := &hostlimits.Limits{AddressSpace: uint64(720+c.room) << 20, AddressInUse: 720 << 20}
		st, out, errOut := runMem(mem, c.args...)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if st != 1 || out != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "discgen: error: the address-space limit (RLIMIT_AS, ulimit -v) of ") ||
			!strings.Contains(lines[0], fmt.Sprintf("leaves %d MiB for %s of %s", c.room, c.args[0], large)) {
			t.Errorf("%s with %d MiB: status %d, stdout %q, stderr %q; want 1 and one line naming RLIMIT_AS", c.args[0], c.room, st, out, errOut)
		}
		c.args[slices.Index(c.args, large)] = small
		if st, _, errOut := runMem(mem, c.args...); st != 0 {
			t.Errorf("%s of a small file with %d MiB: status %d\n%s", c.args[0], c.room, st, errOut)
		}
	}
}
