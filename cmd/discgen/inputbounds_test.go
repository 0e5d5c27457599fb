package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/robots"
)

// runIn runs discgen in-process and returns its exit status and output.
func runIn(args ...string) (status int, stdout, stderr string) {
	var o, e bytes.Buffer
	status = exitCode(run(args, &o, &e))
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
	want := name + ":100001:1: R036: more than 100000 lines with a field; lint checks the 100000 before this one and none from here on\n"
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
