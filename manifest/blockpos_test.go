package manifest

import (
	"testing"

	"github.com/discgen/discgen/diag"
)

func TestInValue(t *testing.T) {
	src := "version: 1\nsite: {url: https://www.example.org/}\nllms_txt:\n  title: T\n  details: |\n    first\n\n      indented ü x\n  summary: \"a\\nb\"\nwell_known:\n  files:\n    - name: a.json\n      content: |2\n          {\"a\": 1}\n    - name: b.json\n      content: >\n        folded\n"
	doc, errs := LoadSite("s.yaml", []byte(src), "")
	if errs.HasErrors() || doc == nil {
		t.Fatalf("load: %v", errs)
	}
	det := KindValue[struct {
		Details string `json:"details"`
	}](doc.Value, "llms_txt").Details
	for _, c := range []struct {
		path, value string
		off         int
		want        diag.Pos
	}{
		{"llms_txt.details", det, 0, diag.Pos{File: "s.yaml", Line: 6, Col: 5}},
		{"llms_txt.details", det, 3, diag.Pos{File: "s.yaml", Line: 6, Col: 8}},
		{"llms_txt.details", det, len("first\n\n  indented ü "), diag.Pos{File: "s.yaml", Line: 8, Col: 18}},
		// Not a literal block: the value's own position.
		{"llms_txt.summary", "a\nb", 2, diag.Pos{File: "s.yaml", Line: 9, Col: 12}},
		{"llms_txt.title", "T", 0, diag.Pos{File: "s.yaml", Line: 4, Col: 10}},
		// An explicit indentation indicator, and a folded block: the value's position.
		{"well_known.files[0].content", *doc.Value.WellKnown.Files[0].Content, 2, diag.Pos{File: "s.yaml", Line: 13, Col: 16}},
		{"well_known.files[1].content", *doc.Value.WellKnown.Files[1].Content, 2, diag.Pos{File: "s.yaml", Line: 16, Col: 16}},
		// An offset past the value: the value's position.
		{"llms_txt.details", det, len(det) + 1, diag.Pos{File: "s.yaml", Line: 5, Col: 12}},
	} {
		if got := doc.Pos.InValue(c.path, c.value, c.off); got != c.want {
			t.Errorf("%s at %d: %v, want %v", c.path, c.off, got, c.want)
		}
	}
}
