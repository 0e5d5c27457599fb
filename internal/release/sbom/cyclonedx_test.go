package main

import (
	"bytes"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// checkDocument checks the SBOM doc of a binary whose SHA-256 sum is sum
// (hex), released as v1.2.3 at SOURCE_DATE_EPOCH 1793491200, built with
// goVersion and linking the modules deps: the header, the binary's hash,
// the Go release, each module with its checksum, the dependencies. It
// returns the document.
func checkDocument(t *testing.T, doc []byte, sum, goVersion string, deps []*debug.Module) bom {
	t.Helper()
	var b bom
	if err := json.Unmarshal(doc, &b); err != nil {
		t.Fatal(err)
	}
	m := b.Metadata.Component
	if b.BOMFormat != "CycloneDX" || b.SpecVersion != "1.5" || m.Name != "github.com/discgen/discgen" || m.Version != "v1.2.3" ||
		m.PURL != "pkg:golang/github.com/discgen/discgen@v1.2.3" || b.Metadata.Timestamp != "2026-11-01T00:00:00Z" {
		t.Errorf("header: %+v\n%s", b.Metadata, doc)
	}
	if len(m.Hashes) != 1 || m.Hashes[0].Content != sum {
		t.Errorf("binary hash %v, want %s", m.Hashes, sum)
	}
	if want := "urn:uuid:" + sum[0:8] + "-" + sum[8:12] + "-8" + sum[13:16] + "-a" + sum[17:20] + "-" + sum[20:32]; b.SerialNumber != want {
		t.Errorf("serial number %s, want %s", b.SerialNumber, want)
	}
	found := map[string]component{}
	for _, c := range b.Components {
		found[c.Name] = c
	}
	if c := found["stdlib"]; c.Version != goVersion || c.PURL != "pkg:golang/stdlib@"+goVersion {
		t.Errorf("stdlib component %+v, want %s", c, goVersion)
	}
	for _, d := range deps {
		if d.Replace != nil {
			d = d.Replace
		}
		c := found[d.Path]
		if c.Version != d.Version || c.PURL != purl(d.Path, d.Version) {
			t.Errorf("module %s %s: component %+v", d.Path, d.Version, c)
		}
		if d.Sum != "" && (len(c.Properties) != 1 || c.Properties[0] != property{"golang:sum", d.Sum}) {
			t.Errorf("module %s: properties %+v, want its checksum %s", d.Path, c.Properties, d.Sum)
		}
	}
	if len(b.Components) != len(deps)+1 {
		t.Errorf("%d components for %d modules and the standard library", len(b.Components), len(deps))
	}
	if len(b.Dependencies) != len(b.Components)+1 || len(b.Dependencies[0].DependsOn) != len(b.Components) {
		t.Errorf("dependencies: %d for %d components", len(b.Dependencies), len(b.Components))
	}
	return b
}

// The SBOM of a binary (this test's own, which the build cache has) lists
// the modules linked into it, the Go release and the binary's own hash; it
// is the same for the same binary.
func TestDocument(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("no build information in the test binary")
	}

	doc, err := document(bin, "v1.2.3", "1793491200")
	if err != nil {
		t.Fatal(err)
	}
	again, err := document(bin, "v1.2.3", "1793491200")
	if err != nil || !bytes.Equal(doc, again) {
		t.Errorf("two documents of one binary differ (%v)", err)
	}
	checkDocument(t, doc, hex.EncodeToString(sum[:]), runtime.Version(), bi.Deps)

	if _, err := document(bin, "", "yesterday"); err == nil {
		t.Error("a SOURCE_DATE_EPOCH that is not a number was accepted")
	}
	if _, err := document("cyclonedx.go", "", ""); err == nil {
		t.Error("a file that is not a Go binary was accepted")
	}
}

// The SBOM of a release binary, from its build information as
// testdata/release.buildinfo holds it (what go version -m printed for a
// binary built with .goreleaser.yaml's flags: -trimpath, -buildvcs,
// CGO_ENABLED=0, -ldflags, which -trimpath leaves out of the record): every
// module linked in, with its checksum, and the build settings.
func TestDocumentRelease(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "release.buildinfo"))
	if err != nil {
		t.Fatal(err)
	}
	bi, err := debug.ParseBuildInfo(string(text))
	if err != nil {
		t.Fatal(err)
	}
	// ParseBuildInfo leaves the Go release, its first line, to the caller.
	first, _, _ := strings.Cut(string(text), "\n")
	bi.GoVersion, _ = strings.CutPrefix(first, "go\t")
	if len(bi.Deps) == 0 || !strings.HasPrefix(bi.GoVersion, "go1.") {
		t.Fatalf("testdata/release.buildinfo: %d modules, Go release %q", len(bi.Deps), bi.GoVersion)
	}
	const sum = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	doc, err := fromBuildInfo(bi, sum, "v1.2.3", "1793491200")
	if err != nil {
		t.Fatal(err)
	}
	b := checkDocument(t, doc, sum, bi.GoVersion, bi.Deps)
	props := map[string]string{}
	for _, p := range b.Metadata.Component.Properties {
		props[p.Name] = p.Value
	}
	for name, want := range map[string]string{
		"golang:go": bi.GoVersion, "golang:package": "github.com/discgen/discgen/cmd/discgen",
		"golang:build:-trimpath": "true", "golang:build:CGO_ENABLED": "0", "golang:build:vcs": "git",
		"golang:build:vcs.revision": "d18f493e616e17e1f349f5df75c021eb69eac8a5", "golang:build:vcs.modified": "false",
	} {
		if props[name] != want {
			t.Errorf("property %s = %q, want %q", name, props[name], want)
		}
	}
	y := map[string]component{}
	for _, c := range b.Components {
		y[c.Name] = c
	}
	if c := y["go.yaml.in/yaml/v3"]; c.PURL != "pkg:golang/go.yaml.in/yaml/v3@"+c.Version || len(c.Properties) != 1 || c.Properties[0].Name != "golang:sum" {
		t.Errorf("yaml module: %+v", c)
	}
	// Without -version, the version Go recorded.
	doc, err = fromBuildInfo(bi, sum, "", "")
	if err != nil {
		t.Fatal(err)
	}
	var plain bom
	if err := json.Unmarshal(doc, &plain); err != nil {
		t.Fatal(err)
	}
	if plain.Metadata.Component.Version != bi.Main.Version || plain.Metadata.Timestamp != "" {
		t.Errorf("without -version and SOURCE_DATE_EPOCH: version %q, timestamp %q; want %q and none",
			plain.Metadata.Component.Version, plain.Metadata.Timestamp, bi.Main.Version)
	}
}

// The SBOM of discgen built as the release builds it: -trimpath and
// CGO_ENABLED=0. Long tier: those flags share nothing with the test's
// build, so it compiles the module and its dependencies again (minutes
// from an empty build cache).
func TestDocumentReleaseBuild(t *testing.T) {
	testenv.NeedsLong(t)
	gobin := testenv.NeedsTool(t, "go", "put the go command on PATH")
	bin := filepath.Join(t.TempDir(), "discgen")
	build := exec.Command(gobin, "build", "-trimpath", "-o", bin, "../../../cmd/discgen")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := document(bin, "v1.2.3", "1793491200")
	if err != nil {
		t.Fatal(err)
	}
	b := checkDocument(t, doc, hex.EncodeToString(sum[:]), runtime.Version(), bi.Deps)
	found := map[string]bool{}
	for _, c := range b.Components {
		found[c.Name] = true
	}
	if !found["go.yaml.in/yaml/v3"] {
		t.Errorf("the yaml module is not among the components of discgen's SBOM")
	}
}
