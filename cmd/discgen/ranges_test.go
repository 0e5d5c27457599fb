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

// TestImportRangesService takes one service's prefixes from a file that
// attributes its prefixes to several, and refuses to take them all.
func TestImportRangesService(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "jafar.json")
	if err := os.WriteFile(file, []byte(`{"creationTime": "2026-11-01T00:00:00Z", "prefixes": [
  {"ipv4Prefix": "192.0.2.0/25", "services": ["OAI-AdsBot"]},
  {"ipv4Prefix": "198.51.100.0/24", "services": ["GPTBot"]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"presets", "--import-ranges", "openai-adsbot=" + file, "--date", "2026-12-01"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "GPTBot, OAI-AdsBot") || !strings.Contains(err.Error(), "--service") {
		t.Errorf("several services, no --service: %v", err)
	}
	stdout.Reset()
	if err := run([]string{"presets", "--import-ranges", "openai-adsbot=" + file, "--service", "OAI-AdsBot", "--date", "2026-12-01"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if out := stdout.String(); !strings.Contains(out, "added 1:\n  + 192.0.2.0/25\n") || strings.Contains(out, "198.51.100.0") {
		t.Errorf("--service OAI-AdsBot:\n%s", out)
	}
	if err := run([]string{"presets", "--import-ranges", "openai-adsbot=" + file, "--service", "Nobody", "--date", "2026-12-01"}, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "its services: GPTBot, OAI-AdsBot") {
		t.Errorf("--service Nobody: %v", err)
	}
}

// TestPresetsWarnsStaleLists: presets warns of each shipped list older
// than its age at --now, the range lists too, and of none on the day
// they were compiled.
func TestPresetsWarnsStaleLists(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{"presets", "--now", "2028-01-01T00:00:00Z", "ai-user"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"discgen: warning: the crawler catalogue is from", "discgen: warning: the search crawler list was recorded on", "discgen: warning: the range lists ", "--import-ranges"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr.String())
		}
	}
	stderr.Reset()
	if err := run([]string{"presets", "--now", crawlers.Default().Date + "T00:00:00Z", "ai-user"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Errorf("warnings on the catalogue's own day:\n%s", stderr.String())
	}
}
