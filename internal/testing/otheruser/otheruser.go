//go:build unix

// Package otheruser runs what another local account would do, for tests
// of what such an account can and cannot do to a build run as root: hold
// a lock it can open, write a file it may write. It needs root (to become
// the other user); each helper skips the test otherwise.
//
// Only _test.go files import it, as internal/layout checks.
package otheruser

import (
	"bufio"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// Nobody is the unprivileged account the tests use when any will do.
const Nobody = 65534

// NeedRoot skips the test unless it runs as root (and fails it under CI,
// which runs as root).
func NeedRoot(t testing.TB) {
	t.Helper()
	testenv.NeedsRoot(t)
}

// command is name with args run as the user uid (and its group of the
// same number).
func command(uid int, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "HOME=/nonexistent")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	return cmd
}

// Hold has the user uid open path and hold its flock (shared or
// exclusive) until the test ends, as flock(1) would. It reports whether
// the user got it: false when the user may not open path, or another
// process holds the lock.
func Hold(t testing.TB, uid int, path string, shared bool) bool {
	t.Helper()
	return HoldUntil(t, uid, path, shared) != nil
}

// HoldUntil is Hold, and returns the function that releases the lock
// before the test ends (nil when the user did not get it).
func HoldUntil(t testing.TB, uid int, path string, shared bool) (release func()) {
	t.Helper()
	NeedRoot(t)
	flock := testenv.NeedsTool(t, "flock", "util-linux: apt-get install util-linux")
	how := "-x"
	if shared {
		how = "-s"
	}
	cmd := command(uid, flock, "-n", how, "-E", "75", path, "sh", "-c", "echo locked; exec cat >/dev/null")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "locked\n" {
		stdin.Close()
		cmd.Wait()
		return nil // may not open it, or it is held
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			stdin.Close()
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-done
			}
		})
	}
	t.Cleanup(release)
	return release
}

// Sh runs the shell script as the user uid, with args as $1..., and
// returns its combined output and error.
func Sh(t testing.TB, uid int, script string, args ...string) (string, error) {
	t.Helper()
	NeedRoot(t)
	cmd := command(uid, "sh", append([]string{"-c", script, "sh"}, args...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
