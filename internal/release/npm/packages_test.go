package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// fakeBinary stands for discgen: it prints its arguments and exits 3.
const fakeBinary = "#!/bin/sh\nprintf '<%s>' \"$@\"\nexit 3\n"

// fakeRelease writes a release of linux amd64 (a tar.gz) and windows arm64
// (a zip) archives holding fakeBinary and a LICENSE, and checksums.txt.
func fakeRelease(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var sums strings.Builder
	for _, name := range []string{"discgen_1.2.3-rc.1_linux_amd64.tar.gz", "discgen_1.2.3-rc.1_windows_arm64.zip"} {
		var buf bytes.Buffer
		if strings.HasSuffix(name, ".zip") {
			zw := zip.NewWriter(&buf)
			for _, n := range []string{"discgen.exe", "LICENSE"} {
				w, _ := zw.Create(n)
				w.Write([]byte(map[string]string{"discgen.exe": fakeBinary, "LICENSE": "licence"}[n]))
			}
			zw.Close()
		} else {
			gz := gzip.NewWriter(&buf)
			tw := tar.NewWriter(gz)
			for _, f := range [][2]string{{"LICENSE", "licence"}, {"discgen", fakeBinary}} {
				tw.WriteHeader(&tar.Header{Name: f[0], Mode: 0o755, Size: int64(len(f[1])), Typeflag: tar.TypeReg})
				tw.Write([]byte(f[1]))
			}
			tw.Close()
			gz.Close()
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(buf.Bytes()), name)
	}
	if err := os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func readPackage(t *testing.T, dir string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// The main package's bin is the shim and its optional dependencies are the
// platform packages, at its version; a platform package says its os and
// cpu and holds the executable binary. No package has scripts.
func TestPackages(t *testing.T) {
	out := t.TempDir()
	dirs, err := write(fakeRelease(t), out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"discgen", "linux-x64", "win32-arm64"}
	if len(dirs) != len(want) {
		t.Fatalf("packages %v, want %v", dirs, want)
	}
	for i, d := range dirs {
		if filepath.Base(d) != want[i] {
			t.Errorf("package %d in %s, want %s", i, d, want[i])
		}
		p := readPackage(t, d)
		if _, ok := p["scripts"]; ok {
			t.Errorf("%s has scripts", d)
		}
		if p["version"] != "1.2.3-rc.1" || p["license"] != "Apache-2.0" {
			t.Errorf("%s: version %v, license %v", d, p["version"], p["license"])
		}
		if lic, err := os.ReadFile(filepath.Join(d, "LICENSE")); err != nil || string(lic) != "licence" {
			t.Errorf("%s/LICENSE: %q, %v", d, lic, err)
		}
	}
	main := readPackage(t, dirs[0])
	if fmt.Sprint(main["bin"]) != "map[discgen:bin/discgen.js]" ||
		fmt.Sprint(main["optionalDependencies"]) != "map[@discgen/linux-x64:1.2.3-rc.1 @discgen/win32-arm64:1.2.3-rc.1]" {
		t.Errorf("discgen package.json: %v", main)
	}
	linux := readPackage(t, dirs[1])
	if linux["name"] != "@discgen/linux-x64" || fmt.Sprint(linux["os"], linux["cpu"]) != "[linux] [x64]" {
		t.Errorf("linux-x64 package.json: %v", linux)
	}
	if fi, err := os.Stat(filepath.Join(dirs[1], "bin/discgen")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("linux-x64 bin/discgen: %v, %v", fi, err)
	}
	win := readPackage(t, dirs[2])
	if win["name"] != "@discgen/win32-arm64" || fmt.Sprint(win["os"], win["cpu"]) != "[win32] [arm64]" || fmt.Sprint(win["files"]) != "[bin/discgen.exe README.md LICENSE]" {
		t.Errorf("win32-arm64 package.json: %v", win)
	}
	if data, _ := os.ReadFile(filepath.Join(dirs[0], "package.json")); bytes.Contains(data, []byte(`\u00`)) {
		t.Errorf("package.json has escapes:\n%s", data)
	}
}

// The shim runs the platform package's binary with the same arguments and
// exit status, and says what is missing when the platform package is not
// installed.
func TestShim(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		testenv.Unsupported(t, "the fake release has a linux amd64 binary")
	}
	node := testenv.NeedsTool(t, "node", "apt-get install nodejs; .ci/run installs it")
	out := t.TempDir()
	dirs, err := write(fakeRelease(t), out)
	if err != nil {
		t.Fatal(err)
	}
	// node_modules as npm lays it out.
	nm := filepath.Join(t.TempDir(), "node_modules")
	os.MkdirAll(filepath.Join(nm, "@discgen"), 0o755)
	if err := os.Rename(dirs[0], filepath.Join(nm, "discgen")); err != nil {
		t.Fatal(err)
	}
	shim := filepath.Join(nm, "discgen", "bin", "discgen.js")
	cmd := exec.Command(node, shim, "build", "a b")
	got, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(got), "discgen: no binary for linux-x64: the optional dependency @discgen/linux-x64 is not installed") {
		t.Errorf("without the platform package: %v\n%s", err, got)
	}
	if err := os.Rename(dirs[1], filepath.Join(nm, "@discgen", "linux-x64")); err != nil {
		t.Fatal(err)
	}
	got, err = exec.Command(node, shim, "build", "a b", "--x=$HOME").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 || string(got) != "<build><a b><--x=$HOME>" {
		t.Errorf("shim: %v, %q; want exit status 3 and the arguments as given", err, got)
	}
}

// The short way from a clone: a binary built here makes the main package
// and its platform's package only, the main one depending on it alone;
// a file that is no executable, or a platform npm has no name for, is
// refused.
func TestLocalPackages(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "discgen")
	if err := os.WriteFile(bin, []byte("\x7fELF local build"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	dirs, err := writeLocal(bin, "0.0.0-local", "linux", "arm64", []byte("licence"), out)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 2 || filepath.Base(dirs[0]) != "discgen" || filepath.Base(dirs[1]) != "linux-arm64" {
		t.Fatalf("packages %v, want discgen and linux-arm64", dirs)
	}
	main := readPackage(t, dirs[0])
	if fmt.Sprint(main["optionalDependencies"]) != "map[@discgen/linux-arm64:0.0.0-local]" || main["version"] != "0.0.0-local" {
		t.Errorf("discgen package.json: %v", main)
	}
	if data, err := os.ReadFile(filepath.Join(dirs[1], "bin/discgen")); err != nil || string(data) != "\x7fELF local build" {
		t.Errorf("linux-arm64 bin/discgen: %q, %v", data, err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := writeLocal(bin, "0.0.0-local", "linux", "arm64", nil, filepath.Join(dir, "out2")); err == nil {
		t.Error("a shell script was packaged as discgen's binary")
	}
	if _, err := writeLocal(bin, "0.0.0-local", "plan9", "386", nil, filepath.Join(dir, "out3")); err == nil || !strings.Contains(err.Error(), "plan9/386") {
		t.Errorf("plan9/386: %v, want refused by name", err)
	}
}
