package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// build --format json writes one JSON document on stdout naming every
// output and tenant, whatever their number, with a refused tenant's
// diagnostics.
func TestBuildJSON(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"site.yaml": "version: 1\nsite: {url: \"https://example.org/\"}\ndelegations:\n" +
			"  - path: \"~*\"\n    only: [description.txt]\n    tenants: \"home/*/public_html/autodisc.yaml\"\n",
		"home/alice/public_html/autodisc.yaml": "version: 1\ndescription: Alice\n",
		"home/bob/public_html/autodisc.yaml":   "version: 1\npath: /~alice/\ndescription: Bob\n",
		"home/carol/public_html/autodisc.yaml": "version: 1\ndescription: Carol\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr strings.Builder
	err := run([]string{"build", "-f", filepath.Join(dir, "site.yaml"), "-o", filepath.Join(dir, "public"), "--format", "json"}, &stdout, &stderr)
	if exitCode(err) != 1 {
		t.Errorf("exit status %d, want 1", exitCode(err))
	}
	var doc struct {
		Outputs []struct {
			Kind, Manifest, Directory, Space, Status string
			Diagnostics                              []struct {
				Line          int
				Path, Message string
			}
		}
		Counts map[string]int
		Valid  bool
	}
	if err := json.Unmarshal([]byte(stdout.String()), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout.String())
	}
	status := map[string]string{}
	for _, o := range doc.Outputs {
		status[o.Kind+" "+filepath.Base(filepath.Dir(o.Directory))+" "+o.Space] = o.Status
		if o.Status == "refused" && (len(o.Diagnostics) != 1 || o.Diagnostics[0].Line != 2 || o.Diagnostics[0].Path != "path") {
			t.Errorf("%s: diagnostics %+v, want one at path (line 2)", o.Directory, o.Diagnostics)
		}
	}
	want := map[string]string{
		"tenant alice /~alice/": "built",
		"tenant bob /~bob/":     "refused",
		"tenant carol /~carol/": "built",
	}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("%s: %q, want %q (all: %v)", k, status[k], v, status)
		}
	}
	if doc.Valid || doc.Counts["refused"] != 1 || doc.Counts["built"] != 3 {
		t.Errorf("valid %v, counts %v; want invalid, 1 refused and 3 built (the site too)", doc.Valid, doc.Counts)
	}
	if !strings.Contains(stderr.String(), "discgen: error: tenant "+filepath.Join(dir, "home/bob/public_html")+" (/~bob/) refused\n") {
		t.Errorf("stderr does not name bob:\n%s", stderr.String())
	}
}
