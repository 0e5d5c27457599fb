package generate

import (
	"strings"
	"testing"
)

// A usage path or tdm path holding an escaped reserved character is left
// out of the server configuration (servers decode the escape): a --server
// build says so at the path's position, naming what a reader of the
// headers sees there.
func TestServerPathWarnings(t *testing.T) {
	doc := load(t, `version: 1
site: {url: "https://example.org/"}
usage: {train_ai: no, paths: [{path: /open/, train_ai: yes}, {path: "/a%2Fb/", train_ai: yes}]}
tdm: {reservation: true, paths: [{path: "/x%3Dy/", reservation: false}, {path: /open/, reservation: false}]}
agents: [{names: ["*"], disallow: []}]
`)
	l := ServerPathWarnings(doc)
	want := map[string][]string{
		"usage.paths[1].path": {"%2F", "no Content-Usage header", "robots.txt"},
		"tdm.paths[0].path":   {"%3D", "no tdm header", "tdmrep.json"},
	}
	if len(l) != len(want) {
		t.Fatalf("%d warnings, want %d: %v", len(l), len(want), l)
	}
	for _, d := range l {
		words, ok := want[d.Path]
		if !ok || d.Pos.Line == 0 {
			t.Errorf("a warning at %s (line %d): %s", d.Path, d.Pos.Line, d.Message)
			continue
		}
		for _, w := range words {
			if !strings.Contains(d.Message, w) {
				t.Errorf("%s: %q says no %q", d.Path, d.Message, w)
			}
		}
	}
}
