package applinks

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/kinds/kit"
)

// FuzzSectionJSON: the JSON checks never panic and put every problem
// inside the file.
func FuzzSectionJSON(f *testing.F) {
	for _, s := range []string{goodAASA, goodAssetLinks, `[`, `{"applinks": {"details": [{"components": [{"?": {}}]}]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := strings.Count(s, "\n") + 1
		for _, check := range []func([]byte) []kit.JSONProblem{CheckApple, CheckAssetLinks} {
			for _, p := range check([]byte(s)) {
				if p.Line < 1 || p.Line > n || p.Col < 1 {
					t.Fatalf("%q: problem at %d:%d outside the file: %s", s, p.Line, p.Col, p.Message)
				}
			}
		}
	})
}
