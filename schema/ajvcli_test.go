package schema_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/discgen/discgen/templates"
)

// ajv-cli reads a manifest as YAML 1.1, where an unquoted
// 2027-06-01T00:00:00Z is a date, not a string. The manifests discgen
// ships and writes must pass it as a user would run it:
//
//	ajv validate --spec=draft2020 -c ajv-formats -s schema/site.schema.json -d site.yaml
//
// (TestAjvAgrees gives ajv discgen's own reading of the YAML, so it cannot
// see this.)
func TestAjvCLI(t *testing.T) {
	mods := nodeModules(t, "ajv-cli", "ajv-formats")
	bin := filepath.Join(mods, ".bin", "ajv")
	starter := filepath.Join(t.TempDir(), "starter.yaml")
	if err := os.WriteFile(starter, templates.Starter(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"../examples/site.yaml", starter} {
		cmd := exec.Command(bin, "validate", "--spec=draft2020", "-c", "ajv-formats", "-s", "site.schema.json", "-d", f)
		cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("ajv-cli refuses %s: %v\n%s", filepath.Base(f), err, out)
		}
	}
}
