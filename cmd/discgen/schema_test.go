package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/discgen/discgen/schema"
)

// TestSchemaOutputReplaced: schema -o writes its file as every other
// command that writes a file the user names (atomicfile.Write): whole,
// mode 0644, and a symbolic link at the name replaced, never written
// through.
func TestSchemaOutputReplaced(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere.json")
	if err := os.WriteFile(target, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "site.schema.json")
	if err := os.Symlink(target, out); err != nil {
		t.Skipf("symlink: %v", err)
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"schema", "-o", out}, &stdout, &stderr); err != nil {
		t.Fatalf("schema -o: %v\n%s", err, stderr.String())
	}
	if data, _ := os.ReadFile(target); string(data) != "{}\n" {
		t.Errorf("the link's target was written through (%d bytes)", len(data))
	}
	fi, err := os.Lstat(out)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o644 {
		t.Errorf("%s is %v, want a regular file of mode 0644", out, fi.Mode())
	}
	if data, _ := os.ReadFile(out); !bytes.Equal(data, schema.Source()) {
		t.Errorf("%s does not hold the schema", out)
	}
}
