//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// TestTenantNamesCannotForgeLines: a tenant directory whose name holds a
// line break is refused, and every line discgen writes about it stays one
// line: the name cannot make stderr show a line of its choosing.
func TestTenantNamesCannotForgeLines(t *testing.T) {
	dir := t.TempDir()
	forged := "x\ndiscgen: error: tenant alice (~alice) refused"
	files := map[string]string{
		"site.yaml":                                      "version: 1\nsite: {url: \"https://isp.example/\"}\ndelegations:\n  - path: \"~*\"\n    tenants: \"users/*/public_html/autodisc.yaml\"\n",
		"users/alice/public_html/autodisc.yaml":          "version: 1\ndescription: alice\n",
		"users/" + forged + "/public_html/autodisc.yaml": "version: 1\ndescription: mallory\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			testenv.Missing(t, "a directory whose name holds a line break: %v", err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"build", "-f", filepath.Join(dir, "site.yaml"), "-o", filepath.Join(dir, "public"), "--state", filepath.Join(dir, ".state")}, &stdout, &stderr)
	if err == nil {
		t.Fatalf("the build did not fail\n%s\n%s", stdout.String(), stderr.String())
	}
	for line := range strings.SplitSeq(stdout.String()+stderr.String(), "\n") {
		if strings.HasPrefix(line, "discgen: error: tenant alice") {
			t.Errorf("a forged line reached the output: %q\nstderr:\n%s", line, stderr.String())
		}
	}
	if !strings.Contains(stderr.String(), `users/x\ndiscgen: error: tenant alice (~alice) refused/public_html refused`) {
		t.Errorf("the refused tenant is not named with its line break escaped:\n%s", stderr.String())
	}
}
