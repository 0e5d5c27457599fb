// Package testenv says what a test needs of the machine it runs on (the
// long tier, a command, root, Linux) and what happens when it is missing,
// in the way of the Go tree's own internal/testenv.
//
// The tests have two tiers. go test ./... runs the fast one, about a
// minute on a 2-core machine. DISCGEN_LONG=1 go test ./... adds the long
// one: the shared-host limit loops, the kill loops, the concurrency
// stress, live web servers, the quickstarts, Chromium and the release.
// The switch is an environment variable rather than -short or a build
// tag: it reaches the processes a test starts (a re-executed test binary,
// a script), and unlike a build tag it hides no code from go vet or
// staticcheck.
//
// A test that needs a command calls NeedsTool. On a developer's machine a
// missing command skips the test with a message that says how to get it;
// under CI (the CI environment variable set, as .ci/run and GitHub
// Actions set it) it fails the test, so that CI cannot pass by skipping
// what it was meant to run. Root is the same. Linux is a property of the
// machine, not something to install: NeedsLinux always skips elsewhere.
//
// What a test needs of the system it makes for itself, a symbolic link, a
// FIFO, a Unix-domain socket, it makes with the helpers here (Symlink,
// Mkfifo, ListenUnix), which treat a system that cannot as a missing
// requirement. What another kind of system lacks by design (another
// operating system's behaviour) skips everywhere: Unsupported, NeedsLinux.
//
// Only _test.go files import it, as internal/layout checks.
package testenv

import (
	"net"
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// LongEnv is the environment variable that turns the long tier on: set to
// anything but "" or "0".
const LongEnv = "DISCGEN_LONG"

// Long reports whether the long tier runs (DISCGEN_LONG is set). Tests that
// only shrink their work in the fast tier, rather than skip, ask it.
func Long() bool {
	v := os.Getenv(LongEnv)
	return v != "" && v != "0"
}

// CI reports whether the tests run under CI: the CI environment variable
// is set to anything but "", "0" or "false".
func CI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "0" && v != "false"
}

// NeedsLong skips the test unless the long tier runs.
func NeedsLong(t testing.TB) {
	t.Helper()
	if !Long() {
		t.Skip("long tier: run with " + LongEnv + "=1")
	}
}

// NeedsTool returns the path of the command name. When it is not on PATH
// it skips the test, saying how to get it (how, e.g. "apt-get install
// nginx-light; .ci/run installs it"), or under CI fails it.
func NeedsTool(t testing.TB, name, how string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "%s: not installed (%s)", name, how)
	}
	return p
}

// RootlessEnv is the environment variable a CI job sets (to anything but
// "" or "0") that runs the tests as an unprivileged user on purpose,
// because another job runs them as root: the fast job of
// .github/workflows/ci.yml, whose long job runs every test as root.
const RootlessEnv = "DISCGEN_CI_ROOTLESS"

// NeedsRoot skips the test, or under CI fails it, unless it runs as root.
// Under CI with RootlessEnv set it skips, saying which job runs it.
func NeedsRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() == 0 {
		return
	}
	if v := os.Getenv(RootlessEnv); v != "" && v != "0" {
		t.Skip("needs root: " + RootlessEnv + " is set, the job that runs the tests as root runs it")
		return
	}
	Missing(t, "needs root (the long job of CI runs the tests as root)")
}

// NeedsLinux skips the test on a system other than Linux.
func NeedsLinux(t testing.TB) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skipf("needs Linux, not %s", runtime.GOOS)
	}
}

// Missing reports that something the test needs is missing from this
// machine (a file a tool installs, a module of a server): it skips the
// test, or under CI fails it. The message says what is missing and how to
// get it.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if CI() {
		t.Fatalf(format+" (CI is set: a missing requirement fails the test)", args...)
	} else {
		t.Skipf(format, args...)
	}
}

// Unsupported skips the test, under CI too: what it needs is not in this
// kind of system by design (another operating system's behaviour, a
// platform's constant), not something a machine lacks and could install.
func Unsupported(t testing.TB, format string, args ...any) {
	t.Helper()
	t.Skipf(format, args...)
}

// Symlink makes newname a symbolic link to oldname. A system or a
// filesystem that cannot make one skips the test, or under CI fails it.
func Symlink(t testing.TB, oldname, newname string) {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		Missing(t, "cannot make a symbolic link here: %v", err)
	}
}

// Mkfifo makes a FIFO (a named pipe) at name, mode 0644. A system or a
// filesystem that cannot make one skips the test, or under CI fails it.
func Mkfifo(t testing.TB, name string) {
	t.Helper()
	if err := mkfifo(name); err != nil {
		Missing(t, "cannot make a FIFO here: %v", err)
	}
}

// ListenUnix listens on a Unix-domain socket at name, closed when the
// test ends. A system that cannot skips the test, or under CI fails it.
func ListenUnix(t testing.TB, name string) net.Listener {
	t.Helper()
	l, err := net.Listen("unix", name)
	if err != nil {
		Missing(t, "cannot listen on a Unix-domain socket here: %v", err)
		return nil
	}
	t.Cleanup(func() { l.Close() })
	return l
}
