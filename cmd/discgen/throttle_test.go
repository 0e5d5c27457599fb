package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildThrottle: a build with --server nginx,htaccess writes the
// throttle's http-level file beside discgen.conf and warns at the key that
// .htaccess cannot throttle; without --server it warns that nothing
// throttles.
func TestBuildThrottle(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "site.yaml")
	os.WriteFile(manifest, []byte("version: 1\nsite: {url: \"https://example.org/\"}\nagents:\n  - names: [GPTBot]\n    allow: [/]\n    throttle: {rate: 1/s, burst: 10}\n"), 0o644)
	var out, errb bytes.Buffer
	if err := run([]string{"build", "-f", manifest, "-o", filepath.Join(dir, "public"), "--state", filepath.Join(dir, "state"),
		"--now", "2026-11-01", "--server", "nginx,htaccess", "--server-dir", filepath.Join(dir, "server")}, &out, &errb); err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	http, err := os.ReadFile(filepath.Join(dir, "server", "nginx", "discgen-throttle.conf"))
	if err != nil || !strings.Contains(string(http), "limit_req_zone ") {
		t.Errorf("discgen-throttle.conf: %v\n%s", err, http)
	}
	conf, _ := os.ReadFile(filepath.Join(dir, "server", "nginx", "discgen.conf"))
	if !strings.Contains(string(conf), " burst=10 nodelay;\n") {
		t.Errorf("discgen.conf has no limit_req:\n%s", conf)
	}
	if !strings.Contains(errb.String(), "site.yaml:6:5: warning: agents[0].throttle: Apache .htaccess cannot throttle") {
		t.Errorf("no warning at the key naming .htaccess:\n%s", errb.String())
	}
	errb.Reset()
	if err := run([]string{"build", "-f", manifest, "-o", filepath.Join(dir, "public2"), "--state", filepath.Join(dir, "state2"), "--now", "2026-11-01"}, &out, &errb); err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "agents[0].throttle: throttle slows crawlers through web server configuration") {
		t.Errorf("no warning without --server:\n%s", errb.String())
	}
}
