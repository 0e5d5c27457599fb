package adopt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportBugBounty carries a security.txt's Bug-Bounty field (IANA's
// security.txt Fields registry) into bug_bounty, and leaves a value that
// is neither True nor False out with a warning at its line.
func TestImportBugBounty(t *testing.T) {
	for _, c := range []struct{ line, yaml, warn string }{
		{"Bug-Bounty: True", "bug_bounty: true", ""},
		{"bug-bounty: false", "bug_bounty: false", ""},
		{"Bug-Bounty: sometimes", "", "security.txt:3:1: warning: Bug-Bounty \"sometimes\" is not True or False: left out"},
	} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, ".well-known"), 0o755)
		data := "Contact: mailto:s@example.org\nExpires: 2027-06-01T00:00:00Z\n" + c.line + "\n"
		if err := os.WriteFile(filepath.Join(dir, ".well-known", "security.txt"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Dir(dir, Options{Now: goldenNow})
		if err != nil {
			t.Fatal(err)
		}
		y := string(res.YAML)
		if c.yaml != "" && !strings.Contains(y, c.yaml) || c.yaml == "" && strings.Contains(y, "bug_bounty") {
			t.Errorf("%s: manifest:\n%s", c.line, y)
		}
		var diags []string
		for _, d := range res.Diags {
			diags = append(diags, d.String())
		}
		all := strings.Join(diags, "\n")
		if c.warn != "" && !strings.Contains(all, c.warn) || strings.Contains(all, "not a field of the IANA") {
			t.Errorf("%s: diagnostics:\n%s", c.line, all)
		}
	}
}
