package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/cli"
	"github.com/discgen/discgen/lint"
)

// lint -h names the range of each family of finding codes. The ranges
// must end at the last code each package defines, so a new code is never
// left out of the usage text.
func TestLintUsageCodeRanges(t *testing.T) {
	for _, fam := range []struct{ letter, dir string }{{"R", "robots"}, {"S", "kinds/securitytxt"}, {"A", "autodisc"}} {
		files, err := filepath.Glob(filepath.Join("..", "..", fam.dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		code := regexp.MustCompile(`"` + fam.letter + `(\d{3})"`)
		last := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range code.FindAllStringSubmatch(string(data), -1) {
				n, _ := strconv.Atoi(m[1])
				last = max(last, n)
			}
		}
		if last == 0 {
			t.Fatalf("no %s codes found in %s", fam.letter, fam.dir)
		}
		want := fmt.Sprintf("(codes %s001-%s%03d)", fam.letter, fam.letter, last)
		if !strings.Contains(lintUsage, want) {
			t.Errorf("lint usage lacks %q: %s defines codes up to %s%03d", want, fam.dir, fam.letter, last)
		}
	}
}

// synopsisOf returns the lines of discgen -h's synopsis that give
// command's usage: its own lines and the lines that continue them.
func synopsisOf(command string) string {
	_, rest, _ := strings.Cut(usage, "Usage:\n")
	block, _, _ := strings.Cut(rest, "\n\n")
	var b strings.Builder
	in := false
	for line := range strings.Lines(block) {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "discgen" {
			in = f[1] == command
		}
		if in {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestSynopsisNamesEveryFlag: discgen -h's synopsis of each command
// names each of its options.
func TestSynopsisNamesEveryFlag(t *testing.T) {
	for _, command := range slices.Sorted(maps.Keys(commands)) {
		syn := synopsisOf(command)
		if syn == "" {
			if command != "help" {
				t.Errorf("discgen -h has no synopsis of %s", command)
			}
			continue
		}
		for _, f := range cli.Flags(commandFlagSet(command)) {
			if f.Name == "help" {
				continue
			}
			long := regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `([\s\]|]|$)`).MatchString(syn)
			short := f.Shorthand != "" && regexp.MustCompile(`[\s\[(|]-`+regexp.QuoteMeta(f.Shorthand)+`\s`).MatchString(syn)
			if !long && !short {
				t.Errorf("discgen -h's synopsis of %s leaves out --%s:\n%s", command, f.Name, syn)
			}
		}
	}
}

// TestLintUsageNamesKinds: lint -h's description, before its options,
// names every kind of file lint reads, so that a kind known by its name
// is not found only in --type's list.
func TestLintUsageNamesKinds(t *testing.T) {
	prose, _, ok := strings.Cut(lintUsage, "{{options}}")
	if !ok {
		t.Fatal("lint's usage has no {{options}}")
	}
	for _, k := range lint.Kinds() {
		if !regexp.MustCompile(`(^|[\s,(])` + regexp.QuoteMeta(string(k)) + `([\s,)]|$)`).MatchString(prose) {
			t.Errorf("lint -h does not describe %s, a kind lint reads", k)
		}
	}
}
