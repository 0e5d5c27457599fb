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

// nginxVerified builds the golden case manifest with its nginx snippet,
// serves it with a real nginx and verifies it, which must pass and name
// each of the paths want; then serves it with the snippet break returns
// (which must differ from it) and returns what verify said of that, and
// its error.
func nginxVerified(t *testing.T, manifest string, want []string, breakIt func(snippet string) string) (stdout, stderr string, err error) {
	t.Helper()
	livetest.NeedsNginx(t)
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
	for _, p := range want {
		if !strings.Contains(o, p) {
			t.Errorf("verify output does not name %s:\n%s", p, o)
		}
	}
	data, err := os.ReadFile(snippet)
	if err != nil {
		t.Fatal(err)
	}
	broken := breakIt(string(data))
	if broken == string(data) {
		t.Fatalf("the snippet has nothing to break:\n%s", data)
	}
	dir2 := livetest.Dir(t)
	snippet2 := filepath.Join(dir2, "discgen.conf")
	if err := os.WriteFile(snippet2, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	return verify(livetest.Nginx(t, dir2, public, snippet2))
}

// TestVerifyWellKnownFilesNginx builds the section 13 golden case with
// its nginx snippet, serves it with a real nginx and verifies it (exit 0,
// change-password's redirect included); served with a snippet whose
// redirect answers 200 instead, verify fails on change-password.
func TestVerifyWellKnownFilesNginx(t *testing.T) {
	o, e, err := nginxVerified(t, "../../publish/testdata/golden/section13-files/site.yaml",
		[]string{"/.well-known/change-password", "/.well-known/apple-app-site-association"},
		func(s string) string {
			return strings.Replace(s, `return 302 "/account/password";`, `return 200 "not a redirect";`, 1)
		})
	if exitCode(err) != 1 || !strings.Contains(e, "change-password: status 200 OK, want a redirect (302) to /account/password") {
		t.Errorf("verify with no redirect: exit %d\n%s\n%s", exitCode(err), o, e)
	}
}

// TestVerifyOAuthMetadataNginx builds the OAuth metadata golden case with
// its nginx snippet, serves it with a real nginx and verifies it (exit 0:
// application/json and Access-Control-Allow-Origin: *); served with a
// snippet that drops the CORS header, verify fails on each document.
func TestVerifyOAuthMetadataNginx(t *testing.T) {
	o, e, err := nginxVerified(t, "../../publish/testdata/golden/section15-oauth/site.yaml",
		[]string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server"},
		func(s string) string {
			return strings.ReplaceAll(s, `add_header Access-Control-Allow-Origin "*";`, ``)
		})
	for _, p := range []string{"oauth-protected-resource", "oauth-authorization-server"} {
		if exitCode(err) != 1 || !strings.Contains(e, p+": no Access-Control-Allow-Origin, want *") {
			t.Errorf("verify without CORS: exit %d, no problem at %s\n%s\n%s", exitCode(err), p, o, e)
		}
	}
}
