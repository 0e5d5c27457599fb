package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
)

// TestVerifyNginx builds the example with its nginx snippet, serves the
// build with a real nginx and verifies it (exit 0), then changes one file
// on disk and verifies again (exit 1, the file named).
func TestVerifyNginx(t *testing.T) {
	livetest.NeedsNginx(t)
	dir := livetest.Dir(t)
	public, conf := filepath.Join(dir, "public"), filepath.Join(dir, "server")
	var out, errb bytes.Buffer
	err := run([]string{"build", "-f", "../../examples/site.yaml", "-o", public, "--state", filepath.Join(dir, "state"),
		"--now", "2026-11-01", "--server", "nginx", "--server-dir", conf}, &out, &errb)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	// The site's own home page, which gets the api-catalog Link header,
	// and the sitemap its robots.txt names.
	if err := os.WriteFile(filepath.Join(public, "index.html"), []byte("<!doctype html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSitemap(t, public)
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

// TestVerifyNginxUsage builds the example's open environment (usage
// preferences) with its nginx snippet, serves it with a real nginx and
// verifies the Content-Usage header of every file; served with the
// snippet of a build without preferences, verify notes the missing header.
func TestVerifyNginxUsage(t *testing.T) {
	livetest.NeedsNginx(t)
	for _, c := range []struct {
		name     string
		buildEnv []string
		missing  bool
	}{{"with the header", []string{"--env", "open"}, false}, {"without", nil, true}} {
		t.Run(c.name, func(t *testing.T) {
			dir := livetest.Dir(t)
			public, conf := filepath.Join(dir, "public"), filepath.Join(dir, "server")
			var out, errb bytes.Buffer
			args := append([]string{"build", "-f", "../../examples/site.yaml", "-o", public, "--state", filepath.Join(dir, "state"),
				"--now", "2026-11-01", "--server", "nginx", "--server-dir", conf}, c.buildEnv...)
			if err := run(args, &out, &errb); err != nil {
				t.Fatalf("build: %v\n%s", err, errb.String())
			}
			// The home page, which verify fetches for the api-catalog Link
			// header, and the sitemap robots.txt names.
			if err := os.WriteFile(filepath.Join(public, "index.html"), []byte("<!doctype html>\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			writeSitemap(t, public)
			port := livetest.Nginx(t, dir, public, filepath.Join(conf, "nginx", "discgen.conf"))
			var o, e bytes.Buffer
			err := run([]string{"verify", "-f", "../../examples/site.yaml", "--env", "open", "--now", "2026-11-01", "--format", "json",
				fmt.Sprintf("http://127.0.0.1:%d/", port)}, &o, &e)
			if got := strings.Count(o.String(), "no Content-Usage header"); c.missing != (got > 0) {
				t.Errorf("%d notes of a missing header:\n%s", got, o.String())
			}
			if !c.missing && err != nil {
				t.Errorf("verify: %v\n%s\n%s", err, o.String(), e.String())
			}
			if strings.Contains(o.String(), "Content-Usage \\\"") {
				t.Errorf("a wrong header:\n%s", o.String())
			}
		})
	}
}
