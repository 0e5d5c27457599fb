package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/livetest"
)

// TestVerifyNginx builds the example with its nginx snippet, serves the
// build with a real nginx and verifies it (exit 0), then changes one file
// on disk and verifies again (exit 1, the file named).
func TestVerifyNginx(t *testing.T) {
	if _, err := exec.LookPath("nginx"); err != nil {
		t.Skip("nginx: not installed")
	}
	dir := livetest.Dir(t)
	public, conf := filepath.Join(dir, "public"), filepath.Join(dir, "server")
	var out, errb bytes.Buffer
	err := run([]string{"build", "-f", "../../examples/site.yaml", "-o", public, "--state", filepath.Join(dir, "state"),
		"--now", "2026-11-01", "--server", "nginx", "--server-dir", conf}, &out, &errb)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	// The site's own home page, which gets the api-catalog Link header.
	if err := os.WriteFile(filepath.Join(public, "index.html"), []byte("<!doctype html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := livetest.Nginx(t, dir, public, filepath.Join(conf, "nginx", "discgen.conf"))
	addr := fmt.Sprintf("127.0.0.1:%d", port)

	// Every file the build wrote is fetched, and the home page: count them
	// on disk (index.html standing for the home page).
	files := 0
	filepath.WalkDir(public, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
		}
		return err
	})
	checked := func(failed int) string { return fmt.Sprintf("%d files checked, %d failed", files, failed) }

	origin := "http://" + addr + "/"
	verify := func() (string, string, error) {
		var o, e bytes.Buffer
		err := run([]string{"verify", "-f", "../../examples/site.yaml", "--now", "2026-11-01", origin}, &o, &e)
		return o.String(), e.String(), err
	}
	o, e, err := verify()
	if err != nil {
		t.Fatalf("verify of the fresh build: %v\n%s\n%s", err, o, e)
	}
	if !strings.Contains(o, checked(0)) {
		t.Errorf("verify output:\n%s", o)
	}
	t.Logf("verify of the fresh build:\n%s", o)

	if err := os.WriteFile(filepath.Join(public, "autodisc", "description.txt"), []byte("Changed by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, e, err = verify()
	if exitCode(err) != 1 {
		t.Fatalf("verify after a change: exit %d, want 1\n%s\n%s", exitCode(err), o, e)
	}
	if !strings.Contains(o, "/autodisc/description.txt: differs from the build") || !strings.Contains(o, checked(1)) {
		t.Errorf("verify does not name the changed file:\n%s", o)
	}
	if !strings.Contains(e, "discgen: error: "+origin+"autodisc/description.txt: differs from the build") || !strings.Contains(e, fmt.Sprintf("discgen: error: 1 of %d files", files)) {
		t.Errorf("stderr:\n%s", e)
	}
}
