package main

import (
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// The parts of CycloneDX 1.5 (https://cyclonedx.org/docs/1.5/json/) this
// document uses.
type bom struct {
	BOMFormat    string       `json:"bomFormat"`
	SpecVersion  string       `json:"specVersion"`
	SerialNumber string       `json:"serialNumber"`
	Version      int          `json:"version"`
	Metadata     metadata     `json:"metadata"`
	Components   []component  `json:"components"`
	Dependencies []dependency `json:"dependencies"`
}

type metadata struct {
	Timestamp string    `json:"timestamp,omitempty"`
	Tools     tools     `json:"tools"`
	Component component `json:"component"`
}

type tools struct {
	Components []component `json:"components"`
}

type component struct {
	Type       string     `json:"type"`
	BOMRef     string     `json:"bom-ref,omitempty"`
	Name       string     `json:"name"`
	Version    string     `json:"version,omitempty"`
	PURL       string     `json:"purl,omitempty"`
	Hashes     []hash     `json:"hashes,omitempty"`
	Properties []property `json:"properties,omitempty"`
}

type hash struct {
	Alg     string `json:"alg"`
	Content string `json:"content"`
}

type property struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type dependency struct {
	Ref       string   `json:"ref"`
	DependsOn []string `json:"dependsOn"`
}

// purl is the package URL of a Go module (https://github.com/package-url/purl-spec).
func purl(path, version string) string {
	p := "pkg:golang/" + strings.ToLower(path)
	if version != "" {
		p += "@" + version
	}
	return p
}

// document returns the SBOM of the Go binary at name. version, when not
// empty, replaces the main module's recorded version; epoch is
// SOURCE_DATE_EPOCH (seconds), or empty for no timestamp.
func document(name, version, epoch string) ([]byte, error) {
	bi, err := buildinfo.ReadFile(name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return fromBuildInfo(bi, hex.EncodeToString(h.Sum(nil)), version, epoch)
}

// fromBuildInfo returns the SBOM of a binary with the build information
// bi and the SHA-256 sum (hex), as document does.
func fromBuildInfo(bi *debug.BuildInfo, sum, version, epoch string) ([]byte, error) {
	if version == "" {
		version = bi.Main.Version
	}
	var props []property
	props = append(props, property{"golang:go", bi.GoVersion}, property{"golang:package", bi.Path})
	for _, s := range bi.Settings {
		props = append(props, property{"golang:build:" + s.Key, s.Value})
	}
	main := component{
		Type: "application", BOMRef: purl(bi.Main.Path, version), Name: bi.Main.Path, Version: version,
		PURL: purl(bi.Main.Path, version), Hashes: []hash{{"SHA-256", sum}}, Properties: props,
	}

	doc := bom{
		BOMFormat: "CycloneDX", SpecVersion: "1.5", Version: 1,
		// A UUID (version 8, RFC 9562) derived from the binary: the same
		// binary, the same serial number.
		SerialNumber: "urn:uuid:" + sum[0:8] + "-" + sum[8:12] + "-8" + sum[13:16] + "-a" + sum[17:20] + "-" + sum[20:32],
		Metadata: metadata{
			Tools:     tools{Components: []component{{Type: "application", Name: "discgen internal/release/sbom"}}},
			Component: main,
		},
	}
	if epoch != "" {
		sec, err := strconv.ParseInt(epoch, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("SOURCE_DATE_EPOCH %q: not a number of seconds", epoch)
		}
		doc.Metadata.Timestamp = time.Unix(sec, 0).UTC().Format(time.RFC3339)
	}
	std := component{Type: "library", BOMRef: purl("stdlib", bi.GoVersion), Name: "stdlib", Version: bi.GoVersion, PURL: purl("stdlib", bi.GoVersion)}
	doc.Components = append(doc.Components, std)
	refs := []string{std.BOMRef}
	for _, d := range bi.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		c := component{Type: "library", BOMRef: purl(d.Path, d.Version), Name: d.Path, Version: d.Version, PURL: purl(d.Path, d.Version)}
		if d.Sum != "" {
			c.Properties = []property{{"golang:sum", d.Sum}}
		}
		doc.Components = append(doc.Components, c)
		refs = append(refs, c.BOMRef)
	}
	doc.Dependencies = []dependency{{Ref: main.BOMRef, DependsOn: refs}}
	for _, r := range refs {
		doc.Dependencies = append(doc.Dependencies, dependency{Ref: r, DependsOn: []string{}})
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
