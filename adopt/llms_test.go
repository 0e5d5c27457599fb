package adopt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLlmsTxtImport: an llms.txt in discgen's form becomes llms_txt; one
// in any other form, or with values the manifest refuses, is left out
// with a warning naming the file.
func TestLlmsTxtImport(t *testing.T) {
	for _, c := range []struct {
		name, file string
		imported   string // a line of the imported manifest, or "" when left out
		warning    string
	}{
		{"discgen's form", "# Fict.org\n\n> Home\n\n## Docs\n\n- [A \\[1\\]](https://www.fict.org/a.md): notes\n", "- {title: 'A [1]', url: 'https://www.fict.org/a.md', notes: notes}", ""},
		{"no blank line", "# Fict.org\n> Home\n", "", "not in the form discgen writes"},
		{"star list", "# T\n\n## Docs\n\n* [a](https://x.example/)\n", "", "not a list item with a link"},
		{"relative link", "# T\n\n## Docs\n\n- [a](/a.md)\n", "", "is not an absolute http(s) URL"},
		{"heading in details", "# T\n\n# Second\n", "", "the details hold a heading"},
		{"bidi", "# T\u202e\n", "", "a character the manifest refuses"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "llms.txt"), []byte(c.file), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := Dir(dir, Options{Now: goldenNow, SiteURL: "https://www.fict.org/"})
			if err != nil {
				t.Fatal(err)
			}
			y := string(res.YAML)
			if c.imported != "" {
				if !strings.Contains(y, c.imported) {
					t.Errorf("manifest lacks %q:\n%s", c.imported, y)
				}
			} else if strings.Contains(y, "llms_txt") {
				t.Errorf("imported:\n%s", y)
			}
			var warned string
			for _, d := range res.Diags {
				if strings.HasSuffix(d.File, "llms.txt") {
					warned += d.Message
				}
			}
			if c.warning == "" && warned != "" || !strings.Contains(warned, c.warning) {
				t.Errorf("warnings %q, want %q", warned, c.warning)
			}
		})
	}
}
