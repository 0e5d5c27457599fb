package main

import (
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestREADMESamples: every sample of discgen's output in README.md (a
// fenced block with no language) is a file of testdata/script/readme.txtar,
// whose script compares it with what discgen prints.
func TestREADMESamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile("testdata/script/readme.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range ar.Files {
		files[string(f.Data)] = f.Name
	}
	samples := 0
	lines := strings.SplitAfter(string(readme), "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```" {
			if strings.HasPrefix(strings.TrimSpace(lines[i]), "```") {
				// A block with a language: skip to its end.
				for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
				}
			}
			continue
		}
		start := i + 1
		var b strings.Builder
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			b.WriteString(lines[i])
		}
		samples++
		if _, ok := files[b.String()]; !ok {
			t.Errorf("README.md:%d: this sample of output is no file of testdata/script/readme.txtar, so no test shows discgen prints it:\n%s", start, b.String())
		}
	}
	if samples == 0 {
		t.Error("README.md shows no sample of output (a fenced block with no language)")
	}
}
