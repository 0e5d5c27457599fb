package release

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// serve serves the release directory dist at /vVERSION/ on 127.0.0.1, as
// GitHub serves a release's assets, with corrupt applied to each archive's
// bytes, and counts the requests.
func serve(t *testing.T, r release, corrupt func([]byte) []byte) (base string, requests *atomic.Int64) {
	t.Helper()
	requests = new(atomic.Int64)
	prefix := "/v" + r.version + "/"
	h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		requests.Add(1)
		name, ok := strings.CutPrefix(req.URL.Path, prefix)
		if !ok || strings.Contains(name, "/") {
			http.NotFound(w, req)
			return
		}
		data, err := os.ReadFile(filepath.Join(r.dist, name))
		if err != nil {
			http.NotFound(w, req)
			return
		}
		if strings.HasPrefix(name, "discgen_") && corrupt != nil {
			data = corrupt(data)
		}
		w.Write(data)
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, requests
}

// installRun is one run of the Action's install script, key then install,
// as the Action's steps run them, on a PATH without Go.
type installRun struct {
	status  int
	log     string
	outputs map[string]string
}

func runInstall(t *testing.T, version, base, toolCache string) installRun {
	t.Helper()
	script, err := filepath.Abs("../../action/install.sh")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + os.Getenv("HOME"), "DISCGEN_VERSION=" + version,
		"DISCGEN_DOWNLOAD_BASE=" + base, "RUNNER_TOOL_CACHE=" + toolCache, "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "GITHUB_OUTPUT="}
	key := exec.Command("bash", script, "key")
	key.Env = env
	out, err := key.CombinedOutput()
	if err != nil {
		t.Fatalf("install.sh key: %v\n%s", err, out)
	}
	r := installRun{outputs: map[string]string{}}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		r.outputs[k] = v
	}
	inst := exec.Command("bash", script, "install")
	inst.Env = append(env, "DISCGEN_DIR="+r.outputs["dir"], "DISCGEN_VERSION="+r.outputs["version"])
	log, err := inst.CombinedOutput()
	r.log = string(log)
	if ee, ok := err.(*exec.ExitError); ok {
		r.status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// For a release, the Action downloads the archive for the runner, checks it
// against checksums.txt and keeps the binary in the tool cache, without Go;
// a second run takes it from there without a request. A corrupt archive
// fails with an annotation and leaves nothing installed.
func TestActionInstallRelease(t *testing.T) {
	testenv.NeedsLong(t)
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		testenv.Unsupported(t, "the test serves the linux amd64 archive")
	}
	for _, tool := range []string{"bash", "curl"} {
		testenv.NeedsTool(t, tool, "apt-get install "+tool)
	}
	r := snapshot(t)
	base, requests := serve(t, r, nil)
	cache := t.TempDir()
	version := "v" + r.version

	first := runInstall(t, version, base, cache)
	if first.status != 0 || first.outputs["mode"] != "release" || first.outputs["cached"] != "false" {
		t.Fatalf("first install: status %d, outputs %v\n%s", first.status, first.outputs, first.log)
	}
	for _, want := range []string{
		"discgen: downloading " + base + "/" + version + "/" + r.archive("linux", "amd64") + " (no compile: " + version + " is a release)\n",
		"discgen: " + r.archive("linux", "amd64") + " matches checksums.txt (sha256 ",
		"discgen " + r.version + " commit " + r.commit + " go1.",
	} {
		if !strings.Contains(first.log, want) {
			t.Errorf("first install's log lacks %q:\n%s", want, first.log)
		}
	}
	if strings.Contains(first.log, "compiling") {
		t.Errorf("a release was compiled:\n%s", first.log)
	}
	bin := filepath.Join(first.outputs["dir"], "discgen")
	if !strings.HasPrefix(bin, cache+"/discgen/") {
		t.Errorf("installed at %s, outside the tool cache %s", bin, cache)
	}
	if n := requests.Load(); n != 2 {
		t.Errorf("first install made %d requests, want 2 (checksums.txt and the archive)", n)
	}

	second := runInstall(t, version, base, cache)
	if second.status != 0 || second.outputs["cached"] != "true" || !strings.Contains(second.log, "discgen: using "+bin+" from the tool cache\n") {
		t.Errorf("second install: status %d, outputs %v\n%s", second.status, second.outputs, second.log)
	}
	if n := requests.Load(); n != 2 {
		t.Errorf("the second install made %d more requests", n-2)
	}

	// One byte changed in the middle of every archive.
	bad, _ := serve(t, r, func(b []byte) []byte {
		c := append([]byte(nil), b...)
		c[len(c)/2] ^= 1
		return c
	})
	badCache := t.TempDir()
	failed := runInstall(t, version, bad, badCache)
	if failed.status != 1 || !regexp.MustCompile(`(?m)^::error title=discgen action::`+regexp.QuoteMeta(r.archive("linux", "amd64"))+`: SHA-256 [0-9a-f]{64} does not match [0-9a-f]{64} in .*checksums.txt: the download is corrupt or not the release's; nothing installed$`).MatchString(failed.log) {
		t.Errorf("corrupt archive: status %d\n%s", failed.status, failed.log)
	}
	if _, err := os.Stat(filepath.Join(failed.outputs["dir"], "discgen")); err == nil {
		t.Error("a corrupt archive's binary was installed")
	}
	// Nor an empty directory, which a cache of the runner's would keep.
	if _, err := os.Stat(failed.outputs["dir"]); err == nil {
		t.Errorf("a corrupt archive left %s in the tool cache", failed.outputs["dir"])
	}

	// A release that is not there: an annotation naming the URL.
	missing := runInstall(t, "v9.9.9", base, t.TempDir())
	if missing.status != 1 || !strings.Contains(missing.log, "::error title=discgen action::could not download "+base+"/v9.9.9/checksums.txt") {
		t.Errorf("missing release: status %d\n%s", missing.status, missing.log)
	}
}
