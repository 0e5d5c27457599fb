package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// discgen version names the version, the commit and the Go release: a
// release build's from its ldflags, any other build's from what Go
// recorded.
func TestVersion(t *testing.T) {
	var out strings.Builder
	if err := run([]string{"version"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^discgen \S+ commit \S+ ` + regexp.QuoteMeta(runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH) + "\n$")
	if !want.MatchString(out.String()) {
		t.Errorf("discgen version printed %q", out.String())
	}

	gobin := testenv.NeedsTool(t, "go", "put the go command on PATH")
	bin := filepath.Join(t.TempDir(), "discgen")
	build := exec.Command(gobin, "build", "-trimpath", "-o", bin,
		"-ldflags", "-X main.releaseVersion=1.2.3 -X main.releaseCommit=0123456789abcdef0123456789abcdef01234567", ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	got, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if w := "discgen 1.2.3 commit 0123456789abcdef0123456789abcdef01234567 " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"; string(got) != w {
		t.Errorf("release build prints %q, want %q", got, w)
	}
}
