package manifest_test

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/manifest"
)

// TestYAMLErrorPositions: a YAML syntax error is reported at the line and
// column of the token at fault, whatever line the parser's own message
// names, with a hint where one helps.
func TestYAMLErrorPositions(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"star in a flow list", "version: 1\nagents:\n  - names: [*]\n",
			`m.yaml:3:13: invalid YAML: did not find expected alphabetic or numeric character; "*" starts an alias in YAML; to write a star, quote it: "*"`},
		{"star as a list item", "version: 1\nagents:\n  - names:\n      - *\n",
			`m.yaml:4:9: invalid YAML: did not find expected alphabetic or numeric character; "*" starts an alias in YAML; to write a star, quote it: "*"`},
		{"star as a value", "version: 1\nagents:\n  - names: [a]\n    disallow: *\n",
			`m.yaml:4:15: invalid YAML: did not find expected alphabetic or numeric character; "*" starts an alias in YAML; to write a star, quote it: "*"`},
		{"star starting a path", "version: 1\nagents:\n  - names: [a]\n    disallow: [/a, */x]\n",
			`m.yaml:4:20: invalid YAML: did not find expected alphabetic or numeric character; "*" starts an alias in YAML; to write a star, quote it: "*"`},
		{"star on the first line", "x: [a, *]\n",
			`m.yaml:1:8: invalid YAML: did not find expected alphabetic or numeric character; "*" starts an alias in YAML; to write a star, quote it: "*"`},
		{"star after a quoted star", "version: 1\nx: [\"*\", \"a, *\", *]\n",
			`m.yaml:2:18: invalid YAML: did not find expected alphabetic or numeric character; "*" starts an alias in YAML; to write a star, quote it: "*"`},
		{"empty anchor", "version: 1\nx: &\n",
			`m.yaml:2:4: invalid YAML: did not find expected alphabetic or numeric character; "&" starts an anchor in YAML; to write it as text, quote the value`},
		{"tab", "version: 1\nsite:\n\turl: x\n",
			"m.yaml:3:1: invalid YAML: found character that cannot start any token; YAML indents with spaces, not tabs"},
		{"at sign", "version: 1\nsite:\n  url: x\n  description: @home\n",
			`m.yaml:4:16: invalid YAML: found character that cannot start any token; "@" cannot start a plain value in YAML; quote the value`},
		{"second colon", "version: 1\nsite:\n  description: note: this\n",
			`m.yaml:3:20: invalid YAML: mapping values are not allowed in this context; a value that holds ": " must be quoted`},
		{"second colon after an apostrophe", "version: 1\nsite:\n  description: it's: here\n",
			`m.yaml:3:20: invalid YAML: mapping values are not allowed in this context; a value that holds ": " must be quoted`},
		{"second colon after a quoted key", "version: 1\nsite:\n  \"des\\\": c\": a: b\n",
			`m.yaml:3:16: invalid YAML: mapping values are not allowed in this context; a value that holds ": " must be quoted`},
		{"key indented too far", "version: 1\n  site: x\n",
			"m.yaml:2:7: invalid YAML: mapping values are not allowed in this context; check the indentation of this line"},
		{"key indented too little", "version: 1\nsite:\n  url: x\n bad: 1\n",
			"m.yaml:4:2: invalid YAML: did not find expected key; check the indentation of this line"},
		{"unclosed quote", "version: 1\nsite:\n  url: \"https://x.org/\n  description: y\n",
			"m.yaml:3:8: invalid YAML: found unexpected end of stream; this quoted value is not closed"},
		{"unclosed list", "version: 1\nicons: [/a.png,\nsite: {url: x}\n",
			"m.yaml:2:8: invalid YAML: did not find expected ',' or ']'; this list is not closed with \"]\""},
		{"list item in a mapping", "version: 1\nsite:\n  url: x\n  - y\n",
			"m.yaml:4:3: invalid YAML: did not find expected key; check the indentation of this line"},
		{"unclosed at the end", "version: 1\nsite:\nurl: [\n",
			"m.yaml:3:6: invalid YAML: did not find expected node content; the document ends before this list is closed"},
		{"error far below its construct", "version: 1\nagents:\n" + strings.Repeat("  - names: [a]\n", 50) + "  x\n  - names: [b]\n",
			"m.yaml:53:3: invalid YAML: could not find expected ':'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := manifest.LoadSite("m.yaml", []byte(tc.src), "")
			if len(errs) != 1 {
				t.Fatalf("got %d diagnostics, want 1: %v", len(errs), errs)
			}
			if got := errs[0].String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestYAMLErrorFarBelow: the parser names the line of the construct for
// some errors; the error is found where it is, however far below.
func TestYAMLErrorFarBelow(t *testing.T) {
	src := "version: 1\nsite:\n" + strings.Repeat("  description: a\n", 0) + "  url: x\n" + strings.Repeat("  # comment\n", 200) + " bad: 1\n"
	_, errs := manifest.LoadSite("m.yaml", []byte(src), "")
	if len(errs) != 1 || errs[0].Line != 204 || errs[0].Col != 2 {
		t.Errorf("got %v, want an error at 204:2", errs)
	}
}
