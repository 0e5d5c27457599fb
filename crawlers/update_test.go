package crawlers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An update reads the downloaded file, says what it changes and saves
// the refreshed catalogue, which reads back; errors name the file.
func TestUpdateCatalogue(t *testing.T) {
	in := filepath.Join("testdata", "import-robots.json")
	u, err := UpdateCatalogue(in, Source{Commit: "1a2b3c4", Date: "2026-12-01"})
	if err != nil {
		t.Fatal(err)
	}
	var diff bytes.Buffer
	if err := u.WriteDiff(&diff); err != nil || !strings.Contains(diff.String(), "ExampleTrainerBot") {
		t.Errorf("diff %q %v, want ExampleTrainerBot added", diff.String(), err)
	}
	out := filepath.Join(t.TempDir(), "catalogue.json")
	if err := u.Save(out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := Parse(data); err != nil || c.Date != "2026-12-01" {
		t.Errorf("saved catalogue: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "nope.json")
	if _, err := UpdateCatalogue(missing, Source{Commit: "1a2b3c4", Date: "2026-12-01"}); err == nil || !strings.HasPrefix(err.Error(), "cannot read "+missing+": ") {
		t.Errorf("a missing file: %v", err)
	}
}

func TestUpdateRanges(t *testing.T) {
	in := filepath.Join("testdata", "ranges-googlebot.json")
	u, err := UpdateRanges("googlebot", in, "", "2026-12-01", "")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "ranges.json")
	if err := u.Save(out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseRangeCatalogue(data); err != nil {
		t.Errorf("saved range catalogue: %v", err)
	}
	if err := u.WriteDiff(&bytes.Buffer{}); err != nil {
		t.Error(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := UpdateRanges("googlebot", bad, "", "2026-12-01", ""); err == nil || !strings.HasPrefix(err.Error(), bad+":") {
		t.Errorf("a file that does not parse: %v", err)
	}
	if _, err := UpdateRanges("no-such-list", in, "", "2026-12-01", ""); err == nil || !strings.HasPrefix(err.Error(), in+": ") {
		t.Errorf("an unknown list: %v", err)
	}
}

// The listing names every agent of the presets asked for, and only them;
// the JSON document holds the same presets.
func TestWritePresets(t *testing.T) {
	c := Default()
	var text, doc bytes.Buffer
	if err := c.WritePresets(&text, []string{"seo"}); err != nil {
		t.Fatal(err)
	}
	if err := c.WritePresetsJSON(&doc, []string{"seo"}); err != nil {
		t.Fatal(err)
	}
	as, _ := c.Preset("seo")
	for _, a := range as {
		if !strings.Contains(text.String(), "    "+a.Name+" ") || !strings.Contains(doc.String(), `"`+a.Name+`"`) {
			t.Errorf("%s missing from the listing", a.Name)
		}
	}
	if strings.Contains(text.String(), "\nai-training ") || !strings.HasPrefix(text.String(), "crawler catalogue of "+c.Date+"\n") {
		t.Errorf("listing:\n%s", text.String())
	}
}
