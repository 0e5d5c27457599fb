//go:build unix

package publish

import (
	"path/filepath"
	"testing"
)

// TestInvisibleDirectoryNames: bidirectional and zero-width characters in
// a directory name that fills a delegation's '*' are refused, as they are
// in delegations[].path: /~alice‮/ would display as another space.
func TestInvisibleDirectoryNames(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"site.yaml":                                   isolationSite,
		"users/alice/public_html/autodisc.yaml":       tenantYAML("/~alice/"),
		"users/al\u202eice/public_html/autodisc.yaml": "version: 1\ndescription: bidi\n",
		"users/al\u200bice/public_html/autodisc.yaml": "version: 1\ndescription: zero width\n",
		"users/bo\u2066b/public_html/autodisc.yaml":   "version: 1\ndescription: isolate\n",
	})
	o := publishAt(t, dir, nil)
	o.wantOnly(t, []string{"users/alice/public_html"}, map[string]string{
		"users/al\u202eice/public_html": "contains the bidirectional control U+202E",
		"users/al\u200bice/public_html": "contains the invisible character U+200B",
		"users/bo\u2066b/public_html":   "contains the bidirectional control U+2066",
	})
	if exists(filepath.Join(dir, "users/al\u202eice/public_html/autodisc")) {
		t.Errorf("a refused tenant was written")
	}
}
