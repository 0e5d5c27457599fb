package crawlers

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(filepath.Join("testdata", name), got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := readTestdata(t, name); !bytes.Equal(got, want) {
		t.Errorf("%s differs\n--- got\n%s--- want\n%s", name, got, want)
	}
}

// TestImportGolden imports a small robots.json into a small catalogue:
// the differences shown (added, removed, changed, left out) and the
// catalogue written are the golden files.
func TestImportGolden(t *testing.T) {
	c, err := Parse(readTestdata(t, "import-catalogue.json"))
	if err != nil {
		t.Fatal(err)
	}
	list, err := ParseList(readTestdata(t, "import-robots.json"))
	if err != nil {
		t.Fatal(err)
	}
	n, d, err := Import(c, list, Source{Commit: "0123456789abcdef0123456789abcdef01234567", Date: "2026-12-01"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := d.Write(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "import.golden", b.Bytes())
	golden(t, "import-catalogue.golden.json", Format(n))
	if c.Sources[ListKey].Date != "2026-08-22" || c.Agents[0].Checked != "2026-08-22" {
		t.Error("Import changed the catalogue it was given")
	}
}

// TestImportSameListNoChange: importing the list the catalogue was taken
// from changes nothing but the dates.
func TestImportSameListNoChange(t *testing.T) {
	c, err := Parse(readTestdata(t, "import-catalogue.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	list, err := ParseList(readTestdata(t, "import-robots.json"))
	if err != nil {
		t.Fatal(err)
	}
	n, d, err := Import(c, list, c.Sources[ListKey])
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Added)+len(d.Removed)+len(d.Changed) != 0 {
		t.Errorf("re-import: %+v", d)
	}
	if !bytes.Equal(Format(n), Format(c)) {
		t.Error("re-import changed the catalogue")
	}
}

func TestParseListRejects(t *testing.T) {
	for name, data := range map[string]string{
		"not json": `{`,
		"empty":    `{}`,
		"array":    `[]`,
		"too big":  `{"a": {"function": "` + strings.Repeat("x", MaxListSize) + `"}}`,
	} {
		if _, err := ParseList([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestListOperator(t *testing.T) {
	for in, want := range map[string]string{
		"[Huawei](https://huawei.com/)":           "Huawei",
		"https://brightdata.com/brightbot":        "brightdata.com",
		"Unclear at this time.":                   "",
		"Unknown":                                 "",
		"ByteDance":                               "ByteDance",
		"Ai2, a non-profit AI research institute": "Ai2, a non-profit AI research institute",
		"Evil\nUser-agent: *":                     "",
	} {
		if got := listOperator(in); got != want {
			t.Errorf("listOperator(%q) = %q, want %q", in, got, want)
		}
	}
}
