package main

import (
	"fmt"
	"github.com/discgen/discgen/internal/cli"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
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

// TestSynopsisNamesEveryFlag: discgen -h's synopsis of build and verify
// names each of their options.
func TestSynopsisNamesEveryFlag(t *testing.T) {
	for _, command := range []string{"build", "verify"} {
		syn := synopsisOf(command)
		if syn == "" {
			t.Fatalf("discgen -h has no synopsis of %s", command)
		}
		for _, f := range cli.Flags(commandFlagSet(command)) {
			long := regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `([\s\]|]|$)`).MatchString(syn)
			short := f.Shorthand != "" && strings.Contains(syn, "[-"+f.Shorthand+" ")
			if !long && !short {
				t.Errorf("discgen -h's synopsis of %s leaves out --%s:\n%s", command, f.Name, syn)
			}
		}
	}
}
