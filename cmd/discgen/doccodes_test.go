package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// notCodes are words of the docs shaped like a finding code that are
// something else.
var notCodes = map[string]string{
	"S256": "the PKCE code challenge method of OAuth metadata",
}

// definedCodes returns, by letter, the number of every finding code the
// module's packages define (a constant Code... = "X000"), sorted.
func definedCodes(t *testing.T) map[string][]int {
	t.Helper()
	def := regexp.MustCompile(`\bCode\w*\s*=\s*"([A-Z])(\d{3})"`)
	codes := map[string][]int{}
	err := filepath.WalkDir(filepath.Join("..", ".."), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".") && n != "." && n != ".." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range def.FindAllStringSubmatch(string(data), -1) {
			n, _ := strconv.Atoi(m[2])
			if !slices.Contains(codes[m[1]], n) {
				codes[m[1]] = append(codes[m[1]], n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range codes {
		slices.Sort(l)
	}
	for _, letter := range []string{"A", "D", "J", "L", "R", "S", "T"} {
		if len(codes[letter]) == 0 {
			t.Fatalf("no %s codes found: the scan for definitions is broken", letter)
		}
	}
	return codes
}

// checkCodesNamed reports each finding code text names that no package
// defines, and each range (R001-R037, D001–D013) that does not run from
// the family's first code to its last, so that a list of codes written by
// hand is kept current when a code is added.
func checkCodesNamed(errorf func(string, ...any), name, text string, codes map[string][]int) {
	rng := regexp.MustCompile(`\b([A-Z])(\d{3})\s*[-–]\s*([A-Z]?)(\d{3})\b`)
	for _, m := range rng.FindAllStringSubmatch(text, -1) {
		l := codes[m[1]]
		first, _ := strconv.Atoi(m[2])
		last, _ := strconv.Atoi(m[4])
		switch {
		case m[3] != "" && m[3] != m[1]:
			errorf("%s: %q spans two families", name, m[0])
		case len(l) == 0:
			errorf("%s: %q names codes of a family no package defines", name, m[0])
		case first != l[0] || last != l[len(l)-1]:
			errorf("%s: %q, but the %s codes run from %s%03d to %s%03d", name, m[0], m[1], m[1], l[0], m[1], l[len(l)-1])
		}
	}
	one := regexp.MustCompile(`\b([A-Z])(\d{3})\b`)
	for _, m := range one.FindAllStringSubmatch(text, -1) {
		if _, ok := notCodes[m[0]]; ok {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		if !slices.Contains(codes[m[1]], n) {
			errorf("%s: names %s, which no package defines", name, m[0])
		}
	}
}

// TestDocsNameDefinedCodes: every finding code the README, the docs and
// lint -h name exists, and every range of codes they give is the whole
// family.
func TestDocsNameDefinedCodes(t *testing.T) {
	codes := definedCodes(t)
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs found (%v)", err)
	}
	for _, f := range append(docs, filepath.Join("..", "..", "README.md")) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkCodesNamed(t.Errorf, filepath.ToSlash(strings.TrimPrefix(f, filepath.Join("..", "..")+string(filepath.Separator))), string(data), codes)
	}
	checkCodesNamed(t.Errorf, "lint -h", lintUsage, codes)
}

// TestCheckCodesNamed: the check above finds a code that does not exist,
// a range that stops short and one that starts late, and passes a whole
// range and the words that are not codes.
func TestCheckCodesNamed(t *testing.T) {
	codes := map[string][]int{"D": {1, 2, 3}, "J": {1}}
	for text, bad := range map[string]bool{
		"codes D001–D003 and J001":       false,
		"(codes D001-D003)":              false,
		"PKCE's S256":                    false,
		"codes D001–D002":                true,
		"codes D002-D003":                true,
		"J002":                           true,
		"X001":                           true,
		"codes D001-J003, a mixed range": true,
	} {
		var found []string
		checkCodesNamed(func(f string, a ...any) { found = append(found, fmt.Sprintf(f, a...)) }, "text", text, codes)
		if (len(found) > 0) != bad {
			t.Errorf("%q: found %q, want a finding: %t", text, found, bad)
		}
	}
}
