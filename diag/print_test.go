package diag

import (
	"bytes"
	"testing"
)

func TestRenderings(t *testing.T) {
	l := List{
		{Pos: Pos{"site.yaml", 3, 7}, Path: "agents[0].names[0]", Message: "bad\nname"},
		{Pos: Pos{"a,b:c%.txt", 0, 0}, Severity: Warning, Code: "R001", Message: "unknown directive"},
	}
	var text, js, gh bytes.Buffer
	l.WriteText(&text)
	l.WriteJSON(&js)
	l.WriteGitHub(&gh)
	if got, want := text.String(), "site.yaml:3:7: agents[0].names[0]: bad\\nname\na,b:c%.txt: warning: R001: unknown directive\n"; got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	wantJSON := `{
  "valid": false,
  "diagnostics": [
    {
      "file": "site.yaml",
      "line": 3,
      "column": 7,
      "severity": "error",
      "path": "agents[0].names[0]",
      "message": "bad\nname"
    },
    {
      "file": "a,b:c%.txt",
      "severity": "warning",
      "code": "R001",
      "message": "unknown directive"
    }
  ]
}
`
	if got := js.String(); got != wantJSON {
		t.Errorf("json:\n%s\nwant:\n%s", got, wantJSON)
	}
	wantGH := "::error file=site.yaml,line=3,col=7,title=discgen::agents[0].names[0]: bad%0Aname\n" +
		"::warning file=a%2Cb%3Ac%25.txt,title=discgen::R001: unknown directive\n"
	if got := gh.String(); got != wantGH {
		t.Errorf("github:\n%s\nwant:\n%s", got, wantGH)
	}
	var empty bytes.Buffer
	List{}.WriteJSON(&empty)
	if got := empty.String(); got != "{\n  \"valid\": true,\n  \"diagnostics\": []\n}\n" {
		t.Errorf("empty list: %s", got)
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":          "plain",
		"a\nb":           `a\nb`,
		"\x1b[31mred":    `\x1b[31mred`,
		"Fict\u202eorg":  `Fict\u202eorg`,
		"caf\u00e9 \xff": "café \ufffd", // an invalid byte shows as U+FFFD
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// Write picks the format by name; anything but json and github is text.
func TestWriteFormat(t *testing.T) {
	l := List{{Pos: Pos{"site.yaml", 3, 7}, Message: "bad"}}
	for format, render := range map[string]func(*bytes.Buffer) error{
		"json": func(b *bytes.Buffer) error { return l.WriteJSON(b) }, "github": func(b *bytes.Buffer) error { return l.WriteGitHub(b) },
		"text": func(b *bytes.Buffer) error { return l.WriteText(b) }, "": func(b *bytes.Buffer) error { return l.WriteText(b) },
	} {
		var got, want bytes.Buffer
		if err := l.Write(&got, format); err != nil || render(&want) != nil || got.String() != want.String() {
			t.Errorf("%q: %q, want %q (%v)", format, got.String(), want.String(), err)
		}
	}
}
