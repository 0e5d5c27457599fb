package layout

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// benchmarkSections are the sections of BENCHMARKS.md that others update
// row by row.
var benchmarkSections = []string{"Targets", "Single site", "Shared host at scale", "Tenant save", "Fresh clone tests", "Verify"}

// TestBenchmarksCurrent: BENCHMARKS.md holds the current figures, not a
// log of every run (that is its history in git): at most 300 lines, its
// sections there, each with a command to run.
func TestBenchmarksCurrent(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "BENCHMARKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, "\n"); n > 300 {
		t.Errorf("BENCHMARKS.md has %d lines, more than 300: keep the current figures, and the story in the commit message", n)
	}
	if !strings.Contains(text, "git log -p BENCHMARKS.md") {
		t.Error("BENCHMARKS.md does not say where its history is (git log -p BENCHMARKS.md)")
	}
	for _, s := range benchmarkSections {
		i := strings.Index(text, "\n## "+s+"\n")
		if i < 0 {
			t.Errorf("BENCHMARKS.md has no section %q", s)
			continue
		}
		body := text[i+1:]
		if j := strings.Index(body[3:], "\n## "); j >= 0 {
			body = body[:j+3]
		}
		if s != "Targets" && !strings.Contains(body, "```sh") {
			t.Errorf("BENCHMARKS.md, %q: no command (a ```sh block) to measure its figures", s)
		}
	}
}

// benchRef is a reference to a section of BENCHMARKS.md by its heading,
// as code comments and documents write it: the file's name, then the
// heading in double quotes after a comma or in parentheses, over a line
// break and comment markers.
var benchRef = regexp.MustCompile("BENCHMARKS\\.md`?,? \\(?\"([^\"]+)\"")

// TestBenchmarksReferences: every section of BENCHMARKS.md that a
// comment, a script or a document names by its heading is there.
func TestBenchmarksReferences(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "BENCHMARKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	headings := map[string]bool{}
	for _, h := range mdHeading.FindAllStringSubmatch(fence.ReplaceAllString(string(data), ""), -1) {
		headings[h[1]] = true
	}
	join := regexp.MustCompile(`\s*\n\s*(//|#)?\s*`)
	seen := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".sh":
		default:
			return nil
		}
		if filepath.Base(path) == "BENCHMARKS.md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := join.ReplaceAllString(string(b), " ")
		for _, m := range benchRef.FindAllStringSubmatch(text, -1) {
			seen++
			if !headings[m[1]] {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s names the section %q of BENCHMARKS.md, which has no such heading", rel, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Error("no reference to a section of BENCHMARKS.md found: the pattern no longer matches how they are written")
	}
}
