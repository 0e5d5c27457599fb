package diag

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{Pos: Pos{"site.yaml", 12, 5}, Path: "agents[2].names[0]", Message: `"Google bot" is not a product token`},
			`site.yaml:12:5: agents[2].names[0]: "Google bot" is not a product token`},
		{Diagnostic{Pos: Pos{"site.yaml", 3, 1}, Severity: Warning, Path: "agents[0].crawl_delay", Message: "m"},
			"site.yaml:3:1: warning: agents[0].crawl_delay: m"},
		{Diagnostic{Pos: Pos{"robots.txt", 4, 1}, Severity: Warning, Code: "R001", Message: "m"},
			"robots.txt:4:1: warning: R001: m"},
		{Diagnostic{Pos: Pos{File: "site.yaml"}, Message: "cannot read"}, "site.yaml: cannot read"},
		{Diagnostic{Message: "bare"}, "bare"},
	} {
		if got := c.d.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// Sort orders by file, line, column, errors before warnings, and drops
// exact duplicates but keeps near ones.
func TestSort(t *testing.T) {
	var l List
	l.Warnf(Pos{"b.yaml", 1, 1}, "x", "w")
	l.Errorf(Pos{"a.yaml", 9, 2}, "y", "e2")
	l.Errorf(Pos{"a.yaml", 9, 1}, "y", "e1")
	l.Warnf(Pos{"a.yaml", 9, 1}, "y", "w1")
	l.Errorf(Pos{"a.yaml", 2, 7}, "z", "e0")
	l.Errorf(Pos{"a.yaml", 2, 7}, "z", "e0")
	l.Errorf(Pos{"a.yaml", 2, 7}, "z", "e0 other")
	l.Sort()
	var got []string
	for _, d := range l {
		got = append(got, d.String())
	}
	want := []string{
		"a.yaml:2:7: z: e0",
		"a.yaml:2:7: z: e0 other",
		"a.yaml:9:1: y: e1",
		"a.yaml:9:1: warning: y: w1",
		"a.yaml:9:2: y: e2",
		"b.yaml:1:1: warning: x: w",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestErrorsAndWarnings(t *testing.T) {
	var l List
	l.Warnf(Pos{"a", 1, 1}, "", "only a warning")
	if l.HasErrors() {
		t.Fatal("a warning counted as an error")
	}
	l.Errorf(Pos{"a", 2, 1}, "p", "first")
	l.Errorf(Pos{"a", 3, 1}, "p", "second")
	if !l.HasErrors() || len(l.Errors()) != 2 || len(l.Warnings()) != 1 {
		t.Fatalf("HasErrors %v, %d errors, %d warnings", l.HasErrors(), len(l.Errors()), len(l.Warnings()))
	}
	if len(l) != 3 {
		t.Error("Errors and Warnings must not change the list")
	}
}

func TestAt(t *testing.T) {
	data := []byte("ab\né\xffx\n")
	for _, c := range []struct {
		off, line, col int
	}{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1},
		{5, 2, 2},  // after "é", two bytes
		{6, 2, 3},  // after an invalid byte
		{8, 3, 1},  // the end
		{99, 3, 1}, // past it
	} {
		if got, want := At("f", data, c.off), (Pos{"f", c.line, c.col}); got != want {
			t.Errorf("At(%d) = %v, want %v", c.off, got, want)
		}
	}
}

func TestLinef(t *testing.T) {
	var l List
	l.Linef(Warning, 3, "X001", "at %s", "three")
	l.Linef(Error, 0, "X002", "whole file")
	if d := l[0]; d.Line != 3 || d.Col != 1 || d.Code != "X001" || d.Message != "at three" || d.Severity != Warning {
		t.Errorf("line 3: %+v", d)
	}
	if d := l[1]; d.Line != 0 || d.Col != 0 || d.Severity != Error {
		t.Errorf("whole file: %+v", d)
	}
}
