package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// discgen version names the version, the commit and the Go release: a
// release build's from its ldflags, any other build's from what Go
// recorded.
func TestVersion(t *testing.T) {
	var out strings.Builder
	if err := run([]string{"version"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^discgen \S+ commit \S+ ` + regexp.QuoteMeta(runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH) + "\n$")
	if !want.MatchString(out.String()) {
		t.Errorf("discgen version printed %q", out.String())
	}
}

// template is a Go template's action in GoReleaser's configuration.
var template = regexp.MustCompile(`\{\{[^}]*\}\}`)

// releaseX returns the -X settings of the release build's ldflags in
// .goreleaser.yaml: each variable's name (main.releaseVersion) and the
// template of its value.
func releaseX(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			ID      string   `yaml:"id"`
			Main    string   `yaml:"main"`
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	x := map[string]string{}
	for _, b := range cfg.Builds {
		if b.Main != "./cmd/discgen" {
			continue
		}
		for _, l := range b.Ldflags {
			// A template's blanks ({{ .Version }}) are not the flags'.
			f := strings.Fields(template.ReplaceAllStringFunc(l, func(s string) string { return strings.ReplaceAll(s, " ", "") }))
			for i := 0; i < len(f); i++ {
				if f[i] == "-X" && i+1 < len(f) {
					name, value, _ := strings.Cut(f[i+1], "=")
					x[name] = value
					i++
				}
			}
		}
	}
	return x
}

// The release build's -X flags name string variables of this package that
// version and commit read: a variable renamed on one side only would make
// the linker set nothing, silently. What the linker does with them is
// TestVersionReleaseBuild's, in the long tier.
func TestVersionReleaseFlags(t *testing.T) {
	x := releaseX(t)
	// The package's own string variables, read from its source (tests
	// aside): -X sets only a package-level string variable.
	fset := token.NewFileSet()
	strVars := map[string]bool{}
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				if id, ok := v.Type.(*ast.Ident); ok && id.Name == "string" {
					for _, n := range v.Names {
						strVars["main."+n.Name] = true
					}
				}
			}
		}
	}
	// Each variable version.go reads, with the template of its value.
	vars := map[string]struct {
		p        *string
		template string
	}{
		"main.releaseVersion": {&releaseVersion, "{{ .Version }}"},
		"main.releaseCommit":  {&releaseCommit, "{{ .FullCommit }}"},
	}
	if len(x) == 0 {
		t.Fatal(".goreleaser.yaml: no -X in the ldflags of the build of ./cmd/discgen")
	}
	for name := range x {
		if !strVars[name] {
			t.Errorf(".goreleaser.yaml sets %s with -X: not a string variable of package main", name)
		}
		if _, ok := vars[name]; !ok {
			t.Errorf(".goreleaser.yaml sets %s with -X: version and commit do not read it", name)
		}
	}
	for name, v := range vars {
		if got, ok := x[name]; !ok {
			t.Errorf(".goreleaser.yaml does not set %s with -X", name)
		} else if strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(v.template, " ", "") {
			t.Errorf(".goreleaser.yaml sets %s to %q, want %s", name, got, v.template)
		}
	}

	// Set as the linker sets them, they are what discgen version prints.
	for name, v := range vars {
		old := *v.p
		t.Cleanup(func() { *v.p = old })
		switch name {
		case "main.releaseVersion":
			*v.p = "1.2.3"
		case "main.releaseCommit":
			*v.p = "0123456789abcdef0123456789abcdef01234567"
		}
	}
	var out strings.Builder
	if err := run([]string{"--version"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if w := "discgen 1.2.3 commit 0123456789abcdef0123456789abcdef01234567 " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"; out.String() != w {
		t.Errorf("with the release's variables set, --version prints %q, want %q", out.String(), w)
	}
}

// A binary built as the release builds it (-trimpath, CGO_ENABLED=0, the
// version and commit set with -X) prints them. Long tier: the flags share
// nothing with the test's build, so it compiles the module and its
// dependencies again (minutes from an empty build cache).
func TestVersionReleaseBuild(t *testing.T) {
	testenv.NeedsLong(t)
	gobin := testenv.NeedsTool(t, "go", "put the go command on PATH")
	bin := filepath.Join(t.TempDir(), "discgen")
	build := exec.Command(gobin, "build", "-trimpath", "-o", bin,
		"-ldflags", "-X main.releaseVersion=1.2.3 -X main.releaseCommit=0123456789abcdef0123456789abcdef01234567", ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	got, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if w := "discgen 1.2.3 commit 0123456789abcdef0123456789abcdef01234567 " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"; string(got) != w {
		t.Errorf("release build prints %q, want %q", got, w)
	}
}
