package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/livetest"
)

// TestVerifyWellKnownFilesNginx builds the section 13 golden case with
// its nginx snippet, serves it with a real nginx and verifies it (exit 0,
// change-password's redirect included); served with a snippet whose
// redirect answers 200 instead, verify fails on change-password.
func TestVerifyWellKnownFilesNginx(t *testing.T) {
	livetest.NeedsNginx(t)
	const manifest = "../../publish/testdata/golden/section13-files/site.yaml"
	dir := livetest.Dir(t)
	public, conf := filepath.Join(dir, "public"), filepath.Join(dir, "server")
	var out, errb bytes.Buffer
	if err := run([]string{"build", "-f", manifest, "-o", public, "--state", filepath.Join(dir, "state"),
		"--now", "2026-11-01", "--server", "nginx", "--server-dir", conf}, &out, &errb); err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	snippet := filepath.Join(conf, "nginx", "discgen.conf")
	verify := func(port int) (string, string, error) {
		var o, e bytes.Buffer
		err := run([]string{"verify", "-f", manifest, "--now", "2026-11-01", fmt.Sprintf("http://127.0.0.1:%d/", port)}, &o, &e)
		return o.String(), e.String(), err
	}
	o, e, err := verify(livetest.Nginx(t, dir, public, snippet))
	if err != nil {
		t.Fatalf("verify of the fresh build: %v\n%s\n%s", err, o, e)
	}
	if !strings.Contains(o, "/.well-known/change-password") || !strings.Contains(o, "/.well-known/apple-app-site-association") {
		t.Errorf("verify output does not name the section 13 files:\n%s", o)
	}

	data, err := os.ReadFile(snippet)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), `return 302 "/account/password";`, `return 200 "not a redirect";`, 1)
	if broken == string(data) {
		t.Fatalf("the snippet has no change-password redirect:\n%s", data)
	}
	dir2 := livetest.Dir(t)
	snippet2 := filepath.Join(dir2, "discgen.conf")
	if err := os.WriteFile(snippet2, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	o, e, err = verify(livetest.Nginx(t, dir2, public, snippet2))
	if exitCode(err) != 1 || !strings.Contains(e, "change-password: status 200 OK, want a redirect (302) to /account/password") {
		t.Errorf("verify with no redirect: exit %d\n%s\n%s", exitCode(err), o, e)
	}
}

// TestVerifyOAuthMetadataNginx builds the OAuth metadata golden case with
// its nginx snippet, serves it with a real nginx and verifies it (exit 0:
// application/json and Access-Control-Allow-Origin: *); served with a
// snippet that drops the CORS header, verify fails on each document.
func TestVerifyOAuthMetadataNginx(t *testing.T) {
	livetest.NeedsNginx(t)
	const manifest = "../../publish/testdata/golden/section15-oauth/site.yaml"
	dir := livetest.Dir(t)
	public, conf := filepath.Join(dir, "public"), filepath.Join(dir, "server")
	var out, errb bytes.Buffer
	if err := run([]string{"build", "-f", manifest, "-o", public, "--state", filepath.Join(dir, "state"),
		"--now", "2026-11-01", "--server", "nginx", "--server-dir", conf}, &out, &errb); err != nil {
		t.Fatalf("build: %v\n%s", err, errb.String())
	}
	snippet := filepath.Join(conf, "nginx", "discgen.conf")
	verify := func(port int) (string, string, error) {
		var o, e bytes.Buffer
		err := run([]string{"verify", "-f", manifest, "--now", "2026-11-01", fmt.Sprintf("http://127.0.0.1:%d/", port)}, &o, &e)
		return o.String(), e.String(), err
	}
	o, e, err := verify(livetest.Nginx(t, dir, public, snippet))
	if err != nil {
		t.Fatalf("verify of the fresh build: %v\n%s\n%s", err, o, e)
	}
	if !strings.Contains(o, "/.well-known/oauth-protected-resource") || !strings.Contains(o, "/.well-known/oauth-authorization-server") {
		t.Errorf("verify output does not name the OAuth metadata:\n%s", o)
	}

	data, err := os.ReadFile(snippet)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.ReplaceAll(string(data), `add_header Access-Control-Allow-Origin "*";`, ``)
	if broken == string(data) {
		t.Fatalf("the snippet sends no Access-Control-Allow-Origin:\n%s", data)
	}
	dir2 := livetest.Dir(t)
	snippet2 := filepath.Join(dir2, "discgen.conf")
	if err := os.WriteFile(snippet2, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	o, e, err = verify(livetest.Nginx(t, dir2, public, snippet2))
	for _, p := range []string{"oauth-protected-resource", "oauth-authorization-server"} {
		if exitCode(err) != 1 || !strings.Contains(e, p+": no Access-Control-Allow-Origin, want *") {
			t.Errorf("verify without CORS: exit %d, no problem at %s\n%s\n%s", exitCode(err), p, o, e)
		}
	}
}
