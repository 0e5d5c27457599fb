package layout

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docFiles are the module's documents whose relative links must resolve.
func docFiles(t *testing.T) []string {
	files := []string{"README.md", "CONTRIBUTING.md", "BENCHMARKS.md"}
	more, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range more {
		files = append(files, filepath.Join("docs", filepath.Base(m)))
	}
	return files
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile("(?m)^#{1,6} (.+)$")
	fence     = regexp.MustCompile("(?ms)^```.*?^```")
	codeSpan  = regexp.MustCompile("`[^`\n]*`")
)

// slug is GitHub's anchor for a heading: lower case, punctuation other
// than '-' and '_' dropped, spaces made '-'.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func anchors(text string) map[string]bool {
	m := map[string]bool{}
	for _, h := range mdHeading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		m[slug(h[1])] = true
	}
	return m
}

// TestDocLinks checks that every relative link of the README, the
// contributors' guide, the benchmarks and docs/ names a file of the
// repository and, with a fragment, a heading of that file: moving a
// section must move the links to it.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, f := range docFiles(t) {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		text := codeSpan.ReplaceAllString(fence.ReplaceAllString(string(data), ""), "")
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := filepath.Join(root, f)
			if file != "" {
				path = filepath.Join(root, filepath.Dir(f), file)
			}
			linked, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s: link %s: %v", f, target, err)
				continue
			}
			if frag != "" && !anchors(string(linked))[frag] {
				t.Errorf("%s: link %s: no heading with that anchor", f, target)
			}
		}
	}
}
