package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
	"github.com/discgen/discgen/internal/testing/testfs"
)

// progressTree writes a site with n tenants, the one numbered bad invalid.
func progressTree(t *testing.T, n, bad int) string {
	dir := t.TempDir()
	testfs.Write(t, filepath.Join(dir, "site.yaml"), "version: 1\nsite: {url: \"https://example.org/\"}\n"+
		"delegations:\n  - {path: \"~*\", only: [description.txt], tenants: \"home/*/autodisc.yaml\"}\n")
	for i := range n {
		body := fmt.Sprintf("version: 1\ndescription: user %d\n", i)
		if i == bad {
			body = "version: 1\ndescription: [unclosed\n"
		}
		testfs.Write(t, filepath.Join(dir, "home", fmt.Sprintf("u%d", i), "autodisc.yaml"), body)
	}
	return dir
}

// On a terminal (a pseudo-terminal made by script(1)) a tenant build shows
// one status line, redrawn, and prints only the refused tenant; through a
// pipe it prints a line per tenant, as --progress lines does on a terminal.
func TestProgressTerminal(t *testing.T) {
	testenv.NeedsTool(t, "script", "util-linux")
	bin := buildDiscgen(t)
	dir := progressTree(t, 300, 7)
	cmdline := func(extra string) string {
		return fmt.Sprintf("%s build -f site.yaml -o public --state state %s; echo exit=$?", bin, extra)
	}
	pty := func(extra string) string {
		cmd := exec.Command("script", "-qfec", cmdline(extra), "/dev/null")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("script: %v\n%s", err, out)
		}
		return string(out)
	}

	out := pty("")
	for _, want := range []string{
		"\r\x1b[Ktenants: ",
		"tenants: 300 of 300 (100%): 299 built, 0 unchanged, 1 refused, 0 skipped",
		"discgen: error: tenant home/u7 (/~u7/) refused",
		"tenants: 299 built, 0 unchanged, 1 refused, 0 skipped",
		// Listed again below the status line, where it does not scroll away.
		"0 skipped\r\ndiscgen: error: 1 tenant refused: home/u7 (/~u7/)\r\n",
		"exit=1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("on a terminal, output lacks %q:\n%q", want, tail(out))
		}
	}
	if strings.Contains(out, "home/u1: ") {
		t.Errorf("on a terminal, a built tenant got its own line:\n%q", tail(out))
	}

	// --progress lines: a line per built tenant on a terminal too.
	edit := func(i int) {
		t.Helper()
		f := filepath.Join(dir, "home", fmt.Sprintf("u%d", i), "autodisc.yaml")
		if err := os.WriteFile(f, []byte("version: 1\ndescription: changed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit(1)
	if out := pty("--progress lines"); !strings.Contains(out, "home/u1: 0 added, 1 updated") || strings.Contains(out, "\x1b[K") {
		t.Errorf("--progress lines on a terminal:\n%q", tail(out))
	}

	// Through pipes: no status line, a line per built tenant.
	edit(2)
	cmd := exec.Command(bin, "build", "-f", "site.yaml", "-o", "public", "--state", "state")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err == nil {
		t.Error("a build with a refused tenant exited 0")
	}
	if !strings.Contains(stdout.String(), "home/u2: 0 added, 1 updated") || strings.Contains(stderr.String(), "\x1b[K") {
		t.Errorf("through a pipe:\nstdout %q\nstderr %q", stdout.String(), stderr.String())
	}
}

func tail(s string) string {
	if len(s) > 1500 {
		return "..." + s[len(s)-1500:]
	}
	return s
}
