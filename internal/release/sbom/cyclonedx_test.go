package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/discgen/discgen/internal/testing/testenv"
)

// The SBOM of discgen lists the modules linked into it, with their
// checksums, the Go release, and the binary's own hash; it is the same for
// the same binary.
func TestDocument(t *testing.T) {
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

	doc, err := document(bin, "v1.2.3", "1793491200")
	if err != nil {
		t.Fatal(err)
	}
	again, err := document(bin, "v1.2.3", "1793491200")
	if err != nil || !bytes.Equal(doc, again) {
		t.Errorf("two documents of one binary differ (%v)", err)
	}
	var b bom
	if err := json.Unmarshal(doc, &b); err != nil {
		t.Fatal(err)
	}
	m := b.Metadata.Component
	if b.BOMFormat != "CycloneDX" || b.SpecVersion != "1.5" || m.Name != "github.com/discgen/discgen" || m.Version != "v1.2.3" ||
		m.PURL != "pkg:golang/github.com/discgen/discgen@v1.2.3" || b.Metadata.Timestamp != "2026-11-01T00:00:00Z" {
		t.Errorf("header: %+v\n%s", b.Metadata, doc)
	}
	if len(m.Hashes) != 1 || m.Hashes[0].Content != hex.EncodeToString(sum[:]) {
		t.Errorf("binary hash %v, want %x", m.Hashes, sum)
	}
	found := map[string]component{}
	for _, c := range b.Components {
		found[c.Name] = c
	}
	if c := found["stdlib"]; c.Version != runtime.Version() {
		t.Errorf("stdlib component %+v, want %s", c, runtime.Version())
	}
	y := found["go.yaml.in/yaml/v3"]
	if y.PURL != "pkg:golang/go.yaml.in/yaml/v3@"+y.Version || len(y.Properties) != 1 || y.Properties[0].Name != "golang:sum" {
		t.Errorf("yaml module: %+v", y)
	}
	if len(b.Dependencies) != len(b.Components)+1 || len(b.Dependencies[0].DependsOn) != len(b.Components) {
		t.Errorf("dependencies: %d for %d components", len(b.Dependencies), len(b.Components))
	}

	if _, err := document(bin, "", "yesterday"); err == nil {
		t.Error("a SOURCE_DATE_EPOCH that is not a number was accepted")
	}
	if _, err := document("cyclonedx.go", "", ""); err == nil {
		t.Error("a file that is not a Go binary was accepted")
	}
}
