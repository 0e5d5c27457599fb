package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discgen/discgen/crawlers"
)

// TestImportRangesTooLarge refuses a ranges file over the size limit
// before reading it, and writes nothing.
func TestImportRangesTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	data := append([]byte(`{"prefixes": [`), bytes.Repeat([]byte(" "), crawlers.MaxRangesSize)...)
	if err := os.WriteFile(big, append(data, "]}"...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	var stdout, stderr bytes.Buffer
	err := run([]string{"presets", "--import-ranges", "googlebot=" + big, "--date", "2026-12-01", "-o", out}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "big.json") || !strings.Contains(err.Error(), "large") {
		t.Errorf("error %v", err)
	}
	if _, err := os.Lstat(out); err == nil {
		t.Error("a catalogue was written")
	}
}
