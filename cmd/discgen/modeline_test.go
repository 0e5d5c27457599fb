package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/schema"
)

// Every command that writes a manifest names the schema on its first line
// the same way, from schema.Modeline: editors find the published schema
// (or the copy init --local-schema writes beside it), never a stale URL.
func TestManifestWritersShareModeline(t *testing.T) {
	published := "# " + schema.Modeline(schema.URL)
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	if err := os.MkdirAll(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	robots := []byte("User-agent: *\nDisallow: /private/\n")
	for _, f := range []string{filepath.Join(dir, "robots.txt"), filepath.Join(tree, "robots.txt")} {
		if err := os.WriteFile(f, robots, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name string
		args []string
		file string
		want string
	}{
		{"init", []string{"init", "-f", filepath.Join(dir, "init.yaml")}, "init.yaml", published},
		{"init --local-schema", []string{"init", "--local-schema", "-f", filepath.Join(dir, "local", "site.yaml")}, "local/site.yaml", "# " + schema.Modeline("./site.schema.json")},
		{"import FILE", []string{"import", filepath.Join(dir, "robots.txt"), "-o", filepath.Join(dir, "imported.yaml")}, "imported.yaml", published},
		{"import DIR", []string{"import", tree, "-o", filepath.Join(dir, "tree.yaml")}, "tree.yaml", published},
	}
	if err := os.MkdirAll(filepath.Join(dir, "local"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		if err := run(c.args, &stdout, &stderr); err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, stderr.String())
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		first, _, _ := strings.Cut(string(data), "\n")
		if first != c.want {
			t.Errorf("%s wrote first line %q, want %q", c.name, first, c.want)
		}
		if n := strings.Count(string(data), "yaml-language-server:"); n != 1 {
			t.Errorf("%s wrote %d modelines, want 1", c.name, n)
		}
	}
}
